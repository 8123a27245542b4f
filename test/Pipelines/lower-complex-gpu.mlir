// Complex numbers on the GPU targets: the arithmetic becomes real
// arithmetic on the parts in the kernels (convert-complex-to-standard), the
// parts {f32, f32} structs in NVVM and ROCDL, with 8 bytes per c64 element
// in the host's allocations; cubins and HSACO code objects come out. The
// SPIR-V targets refuse complex numbers with an error at the op.
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-nvidia-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: ir-opt %s -adj-lower-to-cuda | FileCheck %s --check-prefix=CUDA
// RUN: ir-opt %s -adj-lower-to-hip | FileCheck %s --check-prefix=HIP
// RUN: not ir-opt %s -adj-lower-to-opencl 2>&1 | FileCheck %s --check-prefix=SPIRV
// REQUIRES: cuda-toolkit, rocm-device-libs

// NVVM: gpu.module @f_kernel
// NVVM-NOT: complex.
// NVVM: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(f32, f32)>
// NVVM: llvm.fmul
// NVVM: llvm.store %{{.*}}, %{{.*}} : !llvm.struct<(f32, f32)>, !llvm.ptr

// The products' and sums' buffers: 4 x 3 x 8 bytes and 3 x 8 bytes.
// CUDA: llvm.mlir.constant(96 : i64)
// CUDA: llvm.mlir.constant(24 : i64)
// CUDA: llvm.mlir.global internal constant @__adj_gpu_data_f_kernel(
// HIP: llvm.mlir.global internal constant @__adj_gpu_data_f_kernel(

// SPIRV: error: adj.mul on complex numbers is not supported on opencl yet
adj.func @f(%a: tensor<4x3xcomplex<f32>>, %b: tensor<4x3xcomplex<f32>>) -> (tensor<4x3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<4x3xf32>) {
  %0 = adj.mul %a, %b : tensor<4x3xcomplex<f32>>, tensor<4x3xcomplex<f32>>
  %1 = adj.exp %0 : tensor<4x3xcomplex<f32>>
  %2 = adj.reduce_sum %1 axes = [0] : tensor<4x3xcomplex<f32>>
  %3 = adj.abs %1 : tensor<4x3xcomplex<f32>>
  adj.return %1, %2, %3 : tensor<4x3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<4x3xf32>
}
