// What each GPU stage does to a program with an elementwise chain fused into
// a row sum, a matmul, a constant, a slice (a strided view) and a boolean
// result, on the OpenCL (SPIR-V) path; the embedded kernels pass spirv-val
// and the host code becomes LLVM IR that calls only the runtime
// (docs/gpu-backend.md).
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels | FileCheck %s --check-prefix=KERNELS
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels -adj-intel-spirv | FileCheck %s --check-prefix=SPIRV
// RUN: ir-opt %s -adj-lower-to-opencl | FileCheck %s --check-prefix=HOST
// Level Zero takes the same SPIR-V (OpenCL kernel flavour):
// RUN: ir-opt %s -adj-lower-to-level-zero | FileCheck %s --check-prefix=HOST
// RUN: ir-opt %s -adj-lower-to-opencl | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: rm -rf %t && mkdir -p %t
// RUN: ir-opt %s -adj-lower-to-opencl | %python %inputs/extract-gpu-binaries.py %t spirv-val --target-env spv1.3 | FileCheck %s --check-prefix=COUNT
// REQUIRES: spirv-tools

// Kernels: device buffers from the runtime (the constant uploaded once),
// one launch per linalg op, the outputs' zero fills folded into the kernels
// that start from them (-adj-gpu-fold-fills): the fused exp + row sum (a
// workgroup per row: 112 items, 7 subgroups of 16, shuffles then workgroup
// memory), the tiled product (workgroup memory, 8x16 items), the
// comparison on the slice, whose kernel takes the view's type on the base
// buffer. The product's GEMM record (row-major A, B and C; C overwritten)
// comes right before its launch.
// KERNELS-LABEL: func.func @model(
// KERNELS-SAME:      %[[X:.*]]: memref<64x100xf32>, %[[W:.*]]: memref<100x30xf32>)
// KERNELS:         %[[G:.*]] = memref.get_global @__constant_4xf32
// KERNELS:         call @adj_rt_gpu_constant(
// KERNELS:         %[[Z:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<4xf32>
// KERNELS:         call @adj_rt_gpu_alloc(
// KERNELS:         %[[S:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<64xf32>
// KERNELS-NOT:     linalg.fill
// KERNELS:         gpu.launch_func @model_kernels::@model_kernel blocks in (%[[C64:.*]], %[[C1:.*]], %[[C1]]) threads in (%[[C112:.*]], %[[C1]], %[[C1]]) args(%[[X]] : memref<64x100xf32>, %[[S]] : memref<64xf32>)
// KERNELS:         %[[M:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<64x30xf32>
// KERNELS:         call @adj_gpu_gemm(%[[X]], %[[W]], %[[M]]) {adj.gpu.gemm = {a = {batch_stride = 0 : i64, ld = 100 : i64, order = "row"}, b = {batch_stride = 0 : i64, ld = 30 : i64, order = "row"}, batch = 1 : i64, c = {batch_stride = 0 : i64, ld = 30 : i64, order = "row"}, k = 100 : i64, m = 64 : i64, n = 30 : i64, overwrite}}
// KERNELS-NEXT:    gpu.launch_func @model_kernels::@model_kernel_0 {{.*}} threads in (%[[C8:.*]], %[[C16:.*]], %[[C1]]) args(%[[X]] : memref<64x100xf32>, %[[W]] : memref<100x30xf32>, %[[M]] : memref<64x30xf32>)
// KERNELS:         %[[V:.*]] = memref.subview %[[X]][0, 3] [64, 4] [1, 1]
// KERNELS:         %[[B:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<64x4xi1>
// KERNELS:         gpu.launch_func @model_kernels::@model_kernel_1 {{.*}} args(%[[V]] : memref<64x4xf32, strided<[100, 1], offset: 3>>, %[[Z]] : memref<4xf32>, %[[B]] : memref<64x4xi1>)
// KERNELS:         return %[[S]], %[[M]], %[[B]]
// KERNELS:       gpu.module @model_kernels
// KERNELS:         gpu.func @model_kernel(%{{.*}}: memref<64x100xf32>, %{{.*}}: memref<64xf32>) workgroup(%{{.*}} : memref<7xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 112, 1, 1>
// KERNELS:             math.exp
// KERNELS:           gpu.shuffle  xor %{{.*}}, %{{.*}}, %[[W16:.*]] : f32
// KERNELS:           gpu.barrier
// KERNELS:         gpu.func @model_kernel_0({{.*}}) workgroup({{.*}}#gpu.address_space<workgroup>>{{.*}}) kernel attributes {known_block_size = array<i32: 8, 16, 1>
// KERNELS:           gpu.barrier
// KERNELS:             arith.mulf
// KERNELS:             arith.addf

// SPIR-V: the row sum with exp as an OpenCL extended instruction, subgroup
// shuffles at the pinned subgroup size (16 by default) and a workgroup
// barrier; the view is its base buffer with the offset (3) folded into the
// index; booleans are stored as bytes (0/1).
// SPIRV-LABEL: spirv.module @__spv__model_kernels Physical64 OpenCL requires #spirv.vce<{{.*}}Int8{{.*}}>
// SPIRV:         spirv.func @model_kernel(%{{.*}}: !spirv.ptr<!spirv.array<6400 x f32>, CrossWorkgroup>, %{{.*}}: !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>)
// SPIRV:             spirv.CL.exp
// SPIRV:           spirv.GroupNonUniformShuffleXor <Subgroup>
// SPIRV:           spirv.ControlBarrier <Workgroup>
// SPIRV:         spirv.func @model_kernel_0(
// SPIRV:           spirv.ControlBarrier <Workgroup>
// SPIRV:             spirv.FMul
// SPIRV:             spirv.FAdd
// SPIRV:         spirv.func @model_kernel_1(%[[XV:.*]]: !spirv.ptr<!spirv.array<6403 x f32>, CrossWorkgroup>, %{{.*}}: !spirv.ptr<!spirv.array<4 x f32>, CrossWorkgroup>, %[[BV:.*]]: !spirv.ptr<!spirv.array<256 x i8>, CrossWorkgroup>)
// SPIRV:           %[[C3:.*]] = spirv.Constant 3 : i64
// SPIRV:           spirv.IAdd %{{.*}}, %[[C3]] : i64
// SPIRV:           spirv.AccessChain %[[XV]]
// SPIRV:           spirv.FOrdGreaterThan
// SPIRV:           %[[ONE:.*]] = spirv.Select %{{.*}}, %{{.*}}, %{{.*}} : i1, i8
// SPIRV:           spirv.Store "CrossWorkgroup" %{{.*}}, %[[ONE]] : i8
// SPIRV:         spirv.EntryPoint "Kernel" @model_kernel
// SPIRV:         spirv.ExecutionMode @model_kernel "LocalSize", 112, 1, 1
// SPIRV:         spirv.ExecutionMode @model_kernel "SubgroupSize", 16
// SPIRV-NOT:   spirv.module

// Host: LLVM dialect only, no gpu ops left; two launches and the GEMM
// (its kernel the fallback), no GEMM record left.
// HOST-NOT:    gpu.launch_func
// HOST-NOT:    gpu.binary
// HOST-LABEL:  llvm.func @model(
// HOST:        llvm.call @adj_rt_gpu_launch(
// HOST-NOT:    llvm.call @adj_rt_gpu_launch(
// HOST:        llvm.call @adj_rt_gpu_gemm(
// HOST:        llvm.call @adj_rt_gpu_launch(
// HOST-NOT:    @adj_gpu_gemm
// HOST-NOT:    gpu.
// HOST:        llvm.func @_mlir_ciface_model(

// LLVMIR-DAG: @__adj_gpu_module_model_kernels = internal constant { i32, i32, ptr, i64, ptr } { i32 1, i32 0, ptr @__adj_gpu_data_model_kernels, i64 {{[0-9]+}}, ptr @__adj_gpu_name_model_kernels }
// LLVMIR-DAG: @__adj_gpu_kernel_model_kernels_model_kernel_0 = internal constant { ptr, ptr, i32, i32, ptr } { ptr @__adj_gpu_module_model_kernels, ptr @__adj_gpu_name_model_kernels_model_kernel_0, i32 3, i32 0, ptr @__adj_gpu_args_model_kernels_model_kernel_0 }
// LLVMIR-DAG: @__adj_gpu_args_model_kernels_model_kernel_0 = internal constant [3 x i32] zeroinitializer
// The GEMM: f32 (DType 1), C overwritten (flags 2), 64x30x100, A, B and C
// row-major (0) with leading dimensions 100, 30, 30; the fallback's
// launch: 1x1x1 workgroups of 8x16.
// LLVMIR-DAG: @__adj_gpu_gemm_model_kernels_model_kernel_0_0 = internal constant { i32, i32, i64, i64, i64, i64, i32, i32, i64, i64, i32, i32, i64, i64, i32, i32, i64, i64, ptr, i64, i64, i64, i64, i64, i64, i32, i32 } { i32 1, i32 2, i64 1, i64 64, i64 30, i64 100, i32 0, i32 0, i64 100, i64 0, i32 0, i32 0, i64 30, i64 0, i32 0, i32 0, i64 30, i64 0, ptr @__adj_gpu_kernel_model_kernels_model_kernel_0, i64 1, i64 1, i64 1, i64 8, i64 16, i64 1, i32 0, i32 0 }
// LLVMIR: define { {{.*}} } @model(
// LLVMIR: call ptr @adj_rt_gpu_constant(ptr @__constant_4xf32, i64 16)
// LLVMIR: call ptr @adj_rt_gpu_alloc(i64 256)
// LLVMIR: call void @adj_rt_gpu_launch(ptr @__adj_gpu_kernel_model_kernels_model_kernel, i64 64, i64 1, i64 1, i64 112, i64 1, i64 1, i32 0, ptr
// LLVMIR: call ptr @adj_rt_gpu_alloc(i64 7680)
// The product: the GEMM with A, B and C at their addresses.
// LLVMIR: call void @adj_rt_gpu_gemm(ptr @__adj_gpu_gemm_model_kernels_model_kernel_0_0, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr
// LLVMIR-NOT: call {{.*}}@malloc
// COUNT: extracted 1 modules
adj.func @model(%x: tensor<64x100xf32>, %w: tensor<100x30xf32>) -> (tensor<64xf32>, tensor<64x30xf32>, tensor<64x4xi1>) {
  %e = adj.exp %x : tensor<64x100xf32>
  %s = adj.reduce_sum %e axes = [1] : tensor<64x100xf32>
  %m = adj.matmul %x, %w : tensor<64x100xf32>, tensor<100x30xf32>
  %z = adj.constant dense<[0.5, 0.25, 1.0, 2.0]> : tensor<4xf32>
  %xs = adj.slice %x start = [0, 3] limit = [64, 7] stride = [1, 1] : tensor<64x100xf32>
  %b = adj.cmp gt, %xs, %z : tensor<64x4xf32>, tensor<4xf32>
  adj.return %s, %m, %b : tensor<64xf32>, tensor<64x30xf32>, tensor<64x4xi1>
}

// Pipeline options reach the kernels: a workgroup size of 128 and a
// required subgroup size of 16 (SubgroupSize needs SubgroupDispatch).
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels=workgroup-size=128 -adj-intel-spirv="subgroup-size=16 chip=cpu" | FileCheck %s --check-prefix=OPTIONS
// RUN: rm -rf %t.sg && mkdir -p %t.sg
// RUN: ir-opt %s -adj-lower-to-opencl="workgroup-size=128 subgroup-size=16" | %python %inputs/extract-gpu-binaries.py %t.sg spirv-val | FileCheck %s --check-prefix=COUNT
// OPTIONS-LABEL: spirv.module @__spv__model_kernels Physical64 OpenCL requires #spirv.vce<{{.*}}SubgroupDispatch
// OPTIONS: spirv.ExecutionMode @model_kernel_1 "LocalSize", 128, 1, 1
// OPTIONS: spirv.ExecutionMode @model_kernel_1 "SubgroupSize", 16
