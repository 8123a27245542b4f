// 2-D convolutions become implicit-GEMM kernels: C[f, (n, y, x)] +=
// W[f, (c, i, j)] * I[(c, i, j), (n, y, x)], the input tile gathered from
// the image with the strides and dilations, never materialized.
// RUN: ir-opt %s -split-input-file -adj-gpu-conv | FileCheck %s
// The kernels convert to SPIR-V for OpenCL with upstream passes and validate.
// RUN: ir-opt %s -split-input-file -adj-gpu-conv -gpu-kernel-outlining -adj-gpu-workgroup-allocs \
// RUN: | mlir-opt -split-input-file -pass-pipeline='builtin.module(gpu.module(test-spirv-entry-point-abi),convert-gpu-to-spirv{use-64bit-index=true},gpu.module(spirv.module(spirv-lower-abi-attrs,spirv-update-vce)))' \
// RUN: | python3 %inputs/validate-spirv.py %t | FileCheck %s --check-prefix=SPIRV
// RUN: not ir-opt %s -split-input-file -adj-gpu-conv="tile-m=64 tile-n=64 tile-k=1" 2>&1 \
// RUN: | FileCheck %s --check-prefix=OPTIONS

// SPIRV-COUNT-5: valid
// SPIRV-NOT: failed
// OPTIONS: -adj-gpu-conv: tile-k * tile-m and tile-k * tile-n must be multiples of the work items per workgroup

// GEMM of 8 filters x (2 images x 7 x 7 pixels = 98) x (3 x 3 x 3 = 27):
// grid (2, 1, 1) of 16x2 work items (the 64-filter tile shrinks to 8); the
// filter tile is read with k = (c, i, j) delinearized, the input at
// (n, c, y + i, x + j).
// CHECK-LABEL: func.func @conv
// CHECK:      gpu.launch {{.*}} in (%{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) threads(%{{[^)]*}}) in (%{{.*}} = %c16{{[_0-9]*}}, %{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) workgroup(%[[WS:[a-z0-9]+]] : memref<16x9xf32, #gpu.address_space<workgroup>>, %[[IS:[a-z0-9]+]] : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK:        scf.for %{{.*}} = %c0{{[_0-9]*}} to %c2{{[_0-9]*}} step
// CHECK:          memref.load %{{.*}} : memref<8x3x3x3xf32>
// CHECK:          memref.store %{{.*}}, %[[WS]]
// CHECK:          memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x9x9xf32>
// CHECK:          memref.store %{{.*}}, %[[IS]]
// CHECK:          gpu.barrier
// CHECK:      memref.store %{{.*}} : memref<2x8x7x7xf32>
// CHECK-NOT:  linalg.conv_2d_nchw_fchw
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @conv(%x: memref<2x3x9x9xf32>, %w: memref<8x3x3x3xf32>, %o: memref<2x8x7x7xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%o : memref<2x8x7x7xf32>)
  return
}
}

// -----

// Strides and dilations scale the window: y = 2 * oy + 3 * i, x = ox + 2 * j.
// CHECK-LABEL: func.func @strided
// CHECK:      arith.muli %{{.*}}, %c2{{[_0-9]*}} : index
// CHECK:      arith.muli %{{.*}}, %c3{{[_0-9]*}} : index
// CHECK:      arith.muli %{{.*}}, %c1{{[_0-9]*}} : index
// CHECK:      arith.muli %{{.*}}, %c2{{[_0-9]*}} : index
// CHECK:      memref.load %{{.*}} : memref<1x2x12x11xf64>
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @strided(%x: memref<1x2x12x11xf64>, %w: memref<4x2x2x3xf64>, %o: memref<1x4x4x7xf64>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<[3, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x12x11xf64>, memref<4x2x2x3xf64>) outs(%o : memref<1x4x4x7xf64>)
  return
}
}

// -----

// Grouped: one GEMM per group, the group is the grid's z and indexes the
// filter's first and the input's and output's second dims.
// CHECK-LABEL: func.func @grouped
// CHECK:      gpu.launch blocks(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %[[G:[a-z0-9]+]]) in (%{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c3{{[_0-9]*}})
// CHECK:      memref.load %{{.*}}[%[[G]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<3x5x4x3x3xf32>
// CHECK:      memref.load %{{.*}}[%{{.*}}, %[[G]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x4x9x9xf32>
// CHECK:      memref.load %{{.*}}[%{{.*}}, %[[G]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x3x5x7x7xf32>
// CHECK-NOT:  linalg.conv_2d_ngchw_gfchw
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @grouped(%x: memref<2x3x4x9x9xf32>, %w: memref<3x5x4x3x3xf32>, %o: memref<2x3x5x7x7xf32>) {
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x3x4x9x9xf32>, memref<3x5x4x3x3xf32>) outs(%o : memref<2x3x5x7x7xf32>)
  return
}
}

// -----

// A padded input (tensor.pad after bufferization: a fill, a copy into a
// window) is read from the copied source, the padding value outside the
// window: the fill, the copy and the padded buffer are gone, and the
// source's deallocation moves after the kernel that reads it.
// CHECK-LABEL: func.func @padded
// CHECK:      %[[X:.*]] = memref.alloc() : memref<2x3x7x7xf32>
// CHECK-NOT:  memref.alloc
// CHECK-NOT:  linalg.map
// CHECK-NOT:  memref.copy
// CHECK:      gpu.launch
// CHECK:        %[[V:.*]] = memref.load %[[X]][{{.*}}] : memref<2x3x7x7xf32>
// CHECK:        arith.select %{{.*}}, %[[V]], %{{.*}} : f32
// CHECK:      memref.dealloc %[[X]] : memref<2x3x7x7xf32>
// CHECK-NOT:  memref.alloc
// CHECK:      return
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @padded(%w: memref<8x3x3x3xf32>, %o: memref<2x8x7x7xf32>) {
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<2x3x7x7xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<2x3x7x7xf32>)
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x3x9x9xf32>
  linalg.map outs(%p : memref<2x3x9x9xf32>) (%init: f32) {
    linalg.yield %zero : f32
  }
  %window = memref.subview %p[0, 0, 1, 1] [2, 3, 7, 7] [1, 1, 1, 1]
      : memref<2x3x9x9xf32> to memref<2x3x7x7xf32, strided<[243, 81, 9, 1], offset: 10>>
  memref.copy %x, %window : memref<2x3x7x7xf32> to memref<2x3x7x7xf32, strided<[243, 81, 9, 1], offset: 10>>
  memref.dealloc %x : memref<2x3x7x7xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<2x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%o : memref<2x8x7x7xf32>)
  memref.dealloc %p : memref<2x3x9x9xf32>
  return
}
}

// -----

// The source written between the copy and the convolution: the padded
// copy is what the convolution must read, so it stays.
// CHECK-LABEL: func.func @padded_source_written
// CHECK:      linalg.map
// CHECK:      memref.copy
// CHECK:      linalg.fill
// CHECK:      gpu.launch
// CHECK:        memref.load %{{.*}} : memref<2x3x9x9xf32>
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @padded_source_written(%x: memref<2x3x7x7xf32>, %w: memref<8x3x3x3xf32>, %o: memref<2x8x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = memref.alloc() : memref<2x3x9x9xf32>
  linalg.map outs(%p : memref<2x3x9x9xf32>) (%init: f32) {
    linalg.yield %zero : f32
  }
  %window = memref.subview %p[0, 0, 1, 1] [2, 3, 7, 7] [1, 1, 1, 1]
      : memref<2x3x9x9xf32> to memref<2x3x7x7xf32, strided<[243, 81, 9, 1], offset: 10>>
  memref.copy %x, %window : memref<2x3x7x7xf32> to memref<2x3x7x7xf32, strided<[243, 81, 9, 1], offset: 10>>
  linalg.fill ins(%one : f32) outs(%x : memref<2x3x7x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<2x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%o : memref<2x8x7x7xf32>)
  memref.dealloc %p : memref<2x3x9x9xf32>
  return
}
}

// -----

// Left alone: mixed precision, dynamic shapes, other convolutions.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:  gpu.launch
// CHECK-COUNT-2: linalg.conv_2d_nchw_fchw
// CHECK:      linalg.conv_2d_nhwc_hwcf
func.func @left_alone(%h: memref<1x1x3x3xf16>, %hw: memref<1x1x3x3xf16>, %f: memref<1x1x1x1xf32>,
                      %d: memref<?x1x3x3xf32>, %w: memref<1x1x3x3xf32>, %do: memref<?x1x1x1xf32>,
                      %n: memref<1x3x3x1xf32>, %nw: memref<3x3x1x1xf32>, %no: memref<1x1x1x1xf32>) {
  linalg.conv_2d_nchw_fchw ins(%h, %hw : memref<1x1x3x3xf16>, memref<1x1x3x3xf16>) outs(%f : memref<1x1x1x1xf32>)
  linalg.conv_2d_nchw_fchw ins(%d, %w : memref<?x1x3x3xf32>, memref<1x1x3x3xf32>) outs(%do : memref<?x1x1x1xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%n, %nw : memref<1x3x3x1xf32>, memref<3x3x1x1xf32>) outs(%no : memref<1x1x1x1xf32>)
  return
}
