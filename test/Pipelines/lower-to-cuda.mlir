// The NVIDIA stages on the program of lower-to-opencl.mlir (an exp fused
// into a row sum, a matmul, a constant, a strided slice, a boolean result):
// kernels in NVVM with one bare device pointer per memref (GpuABI.h), warps
// of 32, every kernel in one module (-adj-gpu-merge-modules); PTX 8.0 for
// sm_90 with libdevice's expf linked in; one fatbin for the module,
// embedded with the CUDA format: by default
// the cubins for sm_80 and sm_90 and the PTX of sm_80 (newer GPUs JIT it);
// for a chip named, that chip's cubin and PTX.
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-nvidia-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-nvidia-nvvm=chip=sm_90 -gpu-module-to-binary="format=isa toolkit=%cuda_toolkit" | FileCheck %s --check-prefix=PTX
// RUN: ir-opt %s -adj-lower-to-cuda | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: rm -rf %t && mkdir -p %t
// RUN: ir-opt %s -adj-lower-to-cuda | %python %inputs/extract-gpu-binaries.py %t %python %inputs/fatbin-entries.py | FileCheck %s --check-prefix=FATBIN
// RUN: %cuobjdump -lelf -lptx %t/model_kernels.bin | FileCheck %s --check-prefix=LIST
// RUN: ir-opt %s -adj-lower-to-cuda=chip=sm_90 | %python %inputs/extract-gpu-binaries.py %t %python %inputs/fatbin-entries.py | FileCheck %s --check-prefix=SM90
// RUN: ir-opt %s -adj-lower-to-cuda="chip=sm_80 features=+ptx70" | %python %inputs/extract-gpu-binaries.py %t %python %inputs/fatbin-entries.py | FileCheck %s --check-prefix=SM80
// The matmul is a GEMM (adj_rt_gpu_gemm) with its tiled kernel as the
// fallback; its descriptor's flags (the second field) say it overwrites C
// (2: C's zero fill is folded into it) and allow TF32 (1) only with the
// target feature +tf32.
// RUN: ir-opt %s -adj-lower-to-cuda | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=GEMM
// RUN: ir-opt %s -adj-lower-to-cuda="features=+tf32" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=TF32
// GEMM: @__adj_gpu_gemm_model_kernels_model_kernel_0_0 = internal constant {{{.*}}} { i32 1, i32 2, i64 1, i64 64, i64 30, i64 100,
// GEMM: call void @adj_rt_gpu_gemm(ptr @__adj_gpu_gemm_model_kernels_model_kernel_0_0,
// TF32: @__adj_gpu_gemm_model_kernels_model_kernel_0_0 = internal constant {{{.*}}} { i32 1, i32 3, i64 1, i64 64, i64 30, i64 100,
// REQUIRES: cuda-toolkit

// After -adj-nvidia-nvvm the one gpu.module has an NVVM target per chip,
// the lowest first; kernels take !llvm.ptr per memref (no descriptors),
// rebuild the static descriptor inside, call libdevice for exp, reduce with
// warp shuffles and a barrier. The outputs' fills are folded into the
// kernels that start from them: three kernels.
// NVVM:       gpu.launch_func @model_kernels::@model_kernel blocks
// NVVM:       gpu.launch_func @model_kernels::@model_kernel_0 blocks
// NVVM:       gpu.launch_func @model_kernels::@model_kernel_1 blocks
// NVVM:       gpu.module @model_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// NVVM:         llvm.func @__nv_expf(f32) -> f32
// NVVM:         llvm.func @model_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {{{.*}}nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
// NVVM:           llvm.call @__nv_expf(
// NVVM:           nvvm.shfl.sync bfly
// NVVM:           nvvm.barrier0
// NVVM:         llvm.func @model_kernel_0(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {{{.*}}nvvm.kernel, nvvm.maxntid = array<i32: 8, 16, 1>}
// NVVM:         llvm.func @model_kernel_1(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes
// NVVM-NOT:   llvm.func @model_kernel_2
// NVVM-NOT:   gpu.module

// The PTX has the right version and target, expf resolved from libdevice (no
// .extern), the row sum's shuffles at width 32.
// PTX-NOT:   .extern
// PTX:       gpu.binary @model_kernels {{.*}}assembly = "{{.*}}.version 8.0{{.*}}.target sm_90{{.*}}.entry model_kernel({{.*}}.param .u64 .ptr .align 1 model_kernel_param_0,{{.*}}.param .u64 .ptr .align 1 model_kernel_param_1\0A){{.*}}.maxntid 128, 1, 1{{.*}}ex2.approx{{.*}}shfl.sync.bfly.b32{{.*}}bar.sync
// PTX-NOT:   .extern

// In LLVM IR the modules carry the CUDA format (2) and kernels one 8-byte
// argument per memref (argSizes 0: a device address).
// LLVMIR-DAG: @__adj_gpu_module_model_kernels = internal constant { i32, i32, ptr, i64, ptr } { i32 2, i32 0, ptr @__adj_gpu_data_model_kernels, i64 {{[1-9][0-9]*}}, ptr @__adj_gpu_name_model_kernels }
// LLVMIR-DAG: @__adj_gpu_kernel_model_kernels_model_kernel_0 = internal constant { ptr, ptr, i32, i32, ptr } { ptr @__adj_gpu_module_model_kernels, ptr @__adj_gpu_name_model_kernels_model_kernel_0, i32 3, i32 0, ptr @__adj_gpu_args_model_kernels_model_kernel_0 }
// LLVMIR-DAG: @__adj_gpu_args_model_kernels_model_kernel_0 = internal constant [3 x i32] zeroinitializer

// FATBIN:         cubin sm_80 {{[1-9][0-9]*}}{{$}}
// FATBIN-NEXT:    cubin sm_90 {{[1-9][0-9]*}}{{$}}
// FATBIN-NEXT:    ptx sm_80 {{[1-9][0-9]*}}{{$}}
// FATBIN-NOT:     sm_90
// FATBIN:         extracted 1 modules
// FATBIN-NOT:     invalid
// NVIDIA's reader takes the merged container: both cubins, one PTX.
// LIST:           ELF file 1: {{.*}}.sm_80.cubin
// LIST-NEXT:      ELF file 2: {{.*}}.sm_90.cubin
// LIST-NEXT:      PTX file 1: {{.*}}.sm_80.ptx
// LIST-NOT:       file
// SM90-NOT:       sm_80
// SM90:           cubin sm_90 {{[1-9][0-9]*}}
// SM90-NEXT:      ptx sm_90 {{[1-9][0-9]*}}
// SM90-NOT:       sm_80
// SM80-NOT:       sm_90
// SM80:           cubin sm_80 {{[1-9][0-9]*}}
// SM80-NEXT:      ptx sm_80 {{[1-9][0-9]*}}
// SM80-NOT:       sm_90

adj.func @model(%x: tensor<64x100xf32>, %w: tensor<100x30xf32>) -> (tensor<64xf32>, tensor<64x30xf32>, tensor<64x4xi1>) {
  %e = adj.exp %x : tensor<64x100xf32>
  %s = adj.reduce_sum %e axes = [1] : tensor<64x100xf32>
  %m = adj.matmul %x, %w : tensor<64x100xf32>, tensor<100x30xf32>
  %z = adj.constant dense<[0.5, 0.25, 1.0, 2.0]> : tensor<4xf32>
  %xs = adj.slice %x start = [0, 3] limit = [64, 7] stride = [1, 1] : tensor<64x100xf32>
  %b = adj.cmp gt, %xs, %z : tensor<64x4xf32>, tensor<4xf32>
  adj.return %s, %m, %b : tensor<64xf32>, tensor<64x30xf32>, tensor<64x4xi1>
}
