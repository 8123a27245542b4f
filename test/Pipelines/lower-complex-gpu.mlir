// Complex numbers on the GPU targets: the arithmetic becomes real
// arithmetic on the parts in the kernels (convert-complex-to-standard), the
// parts {f32, f32} structs in NVVM and ROCDL, with 8 bytes per c64 element
// in the host's allocations; cubins and HSACO code objects come out. On
// the SPIR-V targets complex numbers are vector<2xf32> (loads, stores and
// parts: -adj-intel-kernels-to-spirv).
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-nvidia-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: ir-opt %s -adj-lower-to-cuda | FileCheck %s --check-prefix=CUDA
// RUN: ir-opt %s -adj-lower-to-hip | FileCheck %s --check-prefix=HIP
// RUN: ir-opt %s -adj-lower-to-opencl -mlir-print-ir-after=adj-intel-kernels-to-spirv 2>&1 >/dev/null | FileCheck %s --check-prefix=SPIRV
// REQUIRES: cuda-toolkit, rocm-device-libs

// NVVM: gpu.module @f_kernels
// NVVM-NOT: complex.
// NVVM: llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(f32, f32)>
// NVVM: llvm.fmul
// NVVM: llvm.store %{{.*}}, %{{.*}} : !llvm.struct<(f32, f32)>, !llvm.ptr

// The products' and sums' buffers: 4 x 3 x 8 bytes and 3 x 8 bytes.
// CUDA: llvm.mlir.constant(96 : i64)
// CUDA: llvm.mlir.constant(24 : i64)
// CUDA: llvm.mlir.global internal constant @__adj_gpu_data_f_kernels(
// HIP: llvm.mlir.global internal constant @__adj_gpu_data_f_kernels(

// SPIRV: spirv.func @f_kernel(%{{.*}}: !spirv.ptr<!spirv.array<12 x vector<2xf32>>, CrossWorkgroup>
// SPIRV: spirv.Load "CrossWorkgroup" %{{.*}} : vector<2xf32>
// SPIRV: spirv.CompositeExtract
// SPIRV: spirv.FMul
// SPIRV: spirv.Store "CrossWorkgroup" %{{.*}}, %{{.*}} : vector<2xf32>
adj.func @f(%a: tensor<4x3xcomplex<f32>>, %b: tensor<4x3xcomplex<f32>>) -> (tensor<4x3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<4x3xf32>) {
  %0 = adj.mul %a, %b : tensor<4x3xcomplex<f32>>, tensor<4x3xcomplex<f32>>
  %1 = adj.exp %0 : tensor<4x3xcomplex<f32>>
  %2 = adj.reduce_sum %1 axes = [0] : tensor<4x3xcomplex<f32>>
  %3 = adj.abs %1 : tensor<4x3xcomplex<f32>>
  adj.return %1, %2, %3 : tensor<4x3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<4x3xf32>
}
