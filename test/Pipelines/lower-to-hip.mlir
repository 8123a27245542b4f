// The AMD stages on the program of lower-to-cuda.mlir (an exp fused into a
// row sum, a matmul, a constant, a strided slice, a boolean result):
// kernels in ROCDL with one bare device pointer per memref (GpuABI.h) and
// their workgroup size required; the reductions' shuffles at the chip's
// wavefront size (64 on gfx90a and gfx942, 32 on gfx1100); one HSACO code
// object (code object v5) for the program's one kernel module, embedded
// with the HSACO format, whose metadata name the chip, the kernels, their
// arguments and wavefront size.
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=64 -adj-amd-rocdl | FileCheck %s --check-prefix=ROCDL
// RUN: ir-opt %s -adj-lower-to-hip -mlir-print-ir-before=convert-gpu-to-rocdl 2>&1 >/dev/null | FileCheck %s --check-prefix=WAVE64
// RUN: ir-opt %s -adj-lower-to-hip=chip=gfx1100 -mlir-print-ir-before=convert-gpu-to-rocdl 2>&1 >/dev/null | FileCheck %s --check-prefix=WAVE32
// RUN: ir-opt %s -adj-lower-to-hip | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: rm -rf %t && mkdir -p %t/gfx942 %t/gfx90a %t/gfx1100
// RUN: ir-opt %s -adj-lower-to-hip | %python %inputs/extract-gpu-binaries.py %t/gfx942 | FileCheck %s --check-prefix=COUNT
// RUN: llvm-readelf -h --notes %t/gfx942/model_kernels.bin | FileCheck %s --check-prefix=GFX942
// RUN: llvm-readelf --notes %t/gfx942/model_kernels.bin | FileCheck %s --check-prefix=ROW
// RUN: ir-opt %s -adj-lower-to-hip=chip=gfx90a | %python %inputs/extract-gpu-binaries.py %t/gfx90a
// RUN: llvm-readelf --notes %t/gfx90a/model_kernels.bin | FileCheck %s --check-prefix=GFX90A
// RUN: ir-opt %s -adj-lower-to-hip=chip=gfx1100 | %python %inputs/extract-gpu-binaries.py %t/gfx1100
// RUN: llvm-readelf --notes %t/gfx1100/model_kernels.bin | FileCheck %s --check-prefix=GFX1100
// Without ld.lld there is no code object: the target says where it looked.
// RUN: not ir-opt %s -adj-lower-to-hip="toolkit=%t/none" 2>&1 | FileCheck %s --check-prefix=NOLLD
// REQUIRES: rocm-device-libs

// After -adj-amd-rocdl the one gpu.module has the ROCDL target of gfx942
// (code object v5, wave64); kernels take !llvm.ptr per memref, require
// their launch's workgroup size, reduce with cross-lane permutes and a
// barrier; exp is a polynomial (Debian's device libraries predate gfx942:
// lower-to-hip-math.mlir).
// ROCDL-NOT:   __ocml
// The outputs' fills are folded into the kernels that start from them.
// ROCDL:       gpu.module @model_kernels [#rocdl.target<O = 3, chip = "gfx942", abi = "500", flags = {wave64}>]
// ROCDL:         llvm.func @model_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {{{.*}}rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 128, 1, 1>}
// ROCDL:           rocdl.ds_bpermute
// ROCDL:           rocdl.barrier
// ROCDL:         llvm.func @model_kernel_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {{{.*}}rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 8, 16, 1>}
// ROCDL:         llvm.func @model_kernel_1(
// ROCDL-NOT:   llvm.func @model_kernel_2
// ROCDL-NOT:   gpu.module

// The row sum's butterfly starts at half the wavefront.
// WAVE64:      gpu.func @model_kernel(
// WAVE64:        gpu.shuffle  xor %{{.*}}, %c32_i32, %c64_i32 : f32
// WAVE64-NEXT:   arith.addf
// WAVE64-NEXT:   gpu.shuffle  xor %{{.*}}, %c16_i32, %c64_i32 : f32
// WAVE32:      gpu.func @model_kernel(
// WAVE32-NOT:    %c64_i32 : f32
// WAVE32:        gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// WAVE32-NEXT:   arith.addf
// WAVE32-NEXT:   gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32

// In LLVM IR the modules carry the HSACO format (3) and kernels one 8-byte
// argument per memref (argSizes 0: a device address).
// LLVMIR-DAG: @__adj_gpu_module_model_kernels = internal constant { i32, i32, ptr, i64, ptr } { i32 3, i32 0, ptr @__adj_gpu_data_model_kernels, i64 {{[1-9][0-9]*}}, ptr @__adj_gpu_name_model_kernels }
// LLVMIR-DAG: @__adj_gpu_kernel_model_kernels_model_kernel_0 = internal constant { ptr, ptr, i32, i32, ptr } { ptr @__adj_gpu_module_model_kernels, ptr @__adj_gpu_name_model_kernels_model_kernel_0, i32 3, i32 0, ptr @__adj_gpu_args_model_kernels_model_kernel_0 }
// LLVMIR-DAG: @__adj_gpu_args_model_kernels_model_kernel_0 = internal constant [3 x i32] zeroinitializer

// COUNT: extracted 1 modules
// An AMDGPU ELF for HSA, code object v5 (ELF ABI version 3), for gfx942;
// the matmul's three pointers at offsets 0, 8 and 16, its tiles in LDS (its
// record follows the row sum's, model_kernel: .args first, .name last).
// GFX942:      OS/ABI: AMDGPU - HSA
// GFX942-NEXT: ABI Version: 3
// GFX942:      Machine: EM_AMDGPU
// GFX942:      Flags: {{.*}}gfx942
// GFX942:      amdhsa.kernels:
// GFX942:        .name: model_kernel{{$}}
// GFX942:        .args:
// GFX942-NEXT:     - .address_space: generic
// GFX942-NEXT:       .offset: 0
// GFX942-NEXT:       .size: 8
// GFX942-NEXT:       .value_kind: global_buffer
// GFX942-NEXT:     - .address_space: generic
// GFX942-NEXT:       .offset: 8
// GFX942-NEXT:       .size: 8
// GFX942-NEXT:       .value_kind: global_buffer
// GFX942-NEXT:     - .address_space: generic
// GFX942-NEXT:       .offset: 16
// GFX942-NEXT:       .size: 8
// GFX942-NEXT:       .value_kind: global_buffer
// GFX942-NEXT:   .group_segment_fixed_size: {{[1-9][0-9]*}}
// GFX942:        .kernarg_segment_size: 24
// GFX942:        .name: model_kernel_0{{$}}
// GFX942:        .sgpr_spill_count: 0
// GFX942:        .vgpr_spill_count: 0
// GFX942-NEXT:   .wavefront_size: 64
// GFX942:      amdhsa.target: amdgcn-amd-amdhsa--gfx942
// GFX942-NEXT: amdhsa.version:
// GFX942-NEXT:   - 1
// GFX942-NEXT:   - 2
// The row sum: two pointers, partial sums of its two wavefronts in LDS.
// ROW:         .group_segment_fixed_size: 8
// ROW:         .kernarg_segment_size: 16
// ROW:         .max_flat_workgroup_size: 128
// ROW:         .name: model_kernel{{$}}
// ROW:         .wavefront_size: 64
// GFX90A:      .wavefront_size: 64
// GFX90A:      amdhsa.target: amdgcn-amd-amdhsa--gfx90a
// Four wavefronts of 32 on gfx1100: four partial sums.
// GFX1100:     .group_segment_fixed_size: 16
// GFX1100:     .wavefront_size: 32
// GFX1100:     amdhsa.target: amdgcn-amd-amdhsa--gfx1100
// NOLLD:       error: no ld.lld to link AMD code objects: '{{.*}}/none/llvm/bin/ld.lld' is missing

adj.func @model(%x: tensor<64x100xf32>, %w: tensor<100x30xf32>) -> (tensor<64xf32>, tensor<64x30xf32>, tensor<64x4xi1>) {
  %e = adj.exp %x : tensor<64x100xf32>
  %s = adj.reduce_sum %e axes = [1] : tensor<64x100xf32>
  %m = adj.matmul %x, %w : tensor<64x100xf32>, tensor<100x30xf32>
  %z = adj.constant dense<[0.5, 0.25, 1.0, 2.0]> : tensor<4xf32>
  %xs = adj.slice %x start = [0, 3] limit = [64, 7] stride = [1, 1] : tensor<64x100xf32>
  %b = adj.cmp gt, %xs, %z : tensor<64x4xf32>, tensor<4xf32>
  adj.return %s, %m, %b : tensor<64xf32>, tensor<64x30xf32>, tensor<64x4xi1>
}
