// Dynamic layouts on the GPU path: an adj.if whose branches bufferize to
// different layouts (its result has a dynamic offset and stride) reaches the
// copy kernel as a flat buffer plus offset and stride; scatter_add is one
// kernel (-adj-gpu-scatters), not a host loop over the positions: each work
// item walks the positions in order and makes the rows, views at offsets
// read on the device, from their base buffers. The kernels pass spirv-val.
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels | FileCheck %s --check-prefix=KERNELS
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels -adj-intel-spirv | FileCheck %s --check-prefix=SPIRV
// RUN: rm -rf %t && mkdir -p %t
// RUN: ir-opt %s -adj-lower-to-opencl | %python %inputs/extract-gpu-binaries.py %t spirv-val --target-env spv1.3 | FileCheck %s --check-prefix=COUNT
// REQUIRES: spirv-tools
// COUNT: extracted 1 modules

// KERNELS-LABEL: func.func @views(
// KERNELS-SAME:      %{{.*}}: memref<i1>, %[[X:.*]]: memref<4xf32>, %[[T:.*]]: memref<2x3x4xf32>, %[[I:.*]]: memref<5xi64>, %[[U:.*]]: memref<2x5x4xf32>)
// The branch condition is the one value read on the host.
// KERNELS:         call @adj_rt_gpu_read(
// KERNELS:         %[[R:.*]] = scf.if
// KERNELS-NOT:     adj_rt_gpu_read
// KERNELS-NOT:     scf.for
// KERNELS:         gpu.launch_func @views_kernels::@views_kernel_{{[0-9]+}} {{.*}} args(%[[I]] : memref<5xi64>, %{{.*}} : memref<2x3x4xf32>, %[[U]] : memref<2x5x4xf32>)
// KERNELS:         %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[R]]
// KERNELS:         %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<f32> to memref<?xf32>
// KERNELS:         gpu.launch_func @views_kernels::@views_kernel_{{[0-9]+}} {{.*}} args(%{{.*}} : index, %{{.*}} : index, %[[FLAT]] : memref<?xf32>, %{{.*}} : memref<4xf32>)
// KERNELS:       gpu.func @views_kernel_{{[0-9]+}}(%[[IB:.*]]: memref<5xi64>, %[[TB:.*]]: memref<2x3x4xf32>, %[[UB:.*]]: memref<2x5x4xf32>) kernel
// KERNELS:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// KERNELS:           memref.load %[[IB]][%[[J]]]
// KERNELS:           memref.subview %[[TB]]
// KERNELS:           memref.subview %[[UB]]

// In SPIR-V the flat buffer is a pointer to its elements.
// SPIRV: spirv.func @views_kernel_{{[0-9]+}}(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !spirv.ptr<f32, CrossWorkgroup>, %{{.*}}: !spirv.ptr<!spirv.array<4 x f32>, CrossWorkgroup>)
// SPIRV:   spirv.PtrAccessChain
adj.func @views(%c: tensor<i1>, %x: tensor<4xf32>, %t: tensor<2x3x4xf32>, %i: tensor<5xi64>, %u: tensor<2x5x4xf32>) -> (tensor<4xf32>, tensor<2x3x4xf32>) {
  %r = adj.if %c : tensor<i1> -> (tensor<4xf32>) {
    %a = adj.add %x, %x : tensor<4xf32>, tensor<4xf32>
    %b = adj.add %a, %x : tensor<4xf32>, tensor<4xf32>
    adj.yield %b : tensor<4xf32>
  } else {
    %e = adj.exp %x : tensor<4xf32>
    adj.yield %e : tensor<4xf32>
  }
  %y = adj.scatter_add %t[%i], %u axis = 1 : tensor<2x3x4xf32>, tensor<5xi64>, tensor<2x5x4xf32>
  adj.return %r, %y : tensor<4xf32>, tensor<2x3x4xf32>
}
