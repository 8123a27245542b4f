// Contractions become tiled kernels: tiles of A and B staged in workgroup
// memory, a register block of accumulators per work item, edges guarded.
// RUN: ir-opt %s -split-input-file -adj-gpu-matmul | FileCheck %s
// RUN: ir-opt %s -split-input-file -adj-gpu-matmul="tile-m=32 tile-n=16 tile-k=8 thread-m=2 thread-n=2" | FileCheck %s --check-prefix=SMALL
// The kernels convert to SPIR-V for OpenCL with upstream passes and validate.
// RUN: ir-opt %s -split-input-file -adj-gpu-matmul -gpu-kernel-outlining -adj-gpu-workgroup-allocs \
// RUN: | mlir-opt -split-input-file -pass-pipeline='builtin.module(gpu.module(test-spirv-entry-point-abi),convert-gpu-to-spirv{use-64bit-index=true},gpu.module(spirv.module(spirv-lower-abi-attrs,spirv-update-vce)))' \
// RUN: | python3 %inputs/validate-spirv.py %t | FileCheck %s --check-prefix=SPIRV
// RUN: not ir-opt %s -split-input-file -adj-gpu-matmul="tile-m=64 tile-n=64 thread-m=3" 2>&1 \
// RUN: | FileCheck %s --check-prefix=OPTIONS

// SPIRV-COUNT-3: valid
// SPIRV-NOT: failed
// OPTIONS: -adj-gpu-matmul: tile-m and tile-n must be multiples of thread-m and thread-n

// 37x29 @ 29x53 with the default 64x64x16 tiles and 4x4 register blocks:
// one workgroup of 16x16 work items, two K steps; A staged k-fastest (it is
// row-major), B staged n-fastest; loads and stores past 37/53/29 guarded.
// CHECK-LABEL: func.func @matmul
// CHECK:      gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) threads(%{{[^)]*}}) in (%{{.*}} = %c16{{[_0-9]*}}, %{{.*}} = %c16{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}})
// CHECK-SAME:   workgroup(%[[AS:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<16x65xf32, #gpu.address_space<workgroup>>)
// CHECK:        %[[ACC:.*]]:16 = scf.for %{{.*}} = %c0{{[_0-9]*}} to %c2{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args(
// CHECK:          arith.remui %{{.*}}, %c16
// CHECK:          scf.if
// CHECK:            memref.load %{{.*}} : memref<37x29xf32>
// CHECK:          memref.store %{{.*}}, %[[AS]]
// CHECK:          arith.remui %{{.*}}, %c64
// CHECK:          memref.load %{{.*}} : memref<29x53xf32>
// CHECK:          memref.store %{{.*}}, %[[BS]]
// CHECK:          gpu.barrier
// CHECK:          scf.for %{{.*}} = %c0{{[_0-9]*}} to %c16{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args(
// CHECK-COUNT-4:    memref.load %[[AS]]
// CHECK-COUNT-4:    memref.load %[[BS]]
// CHECK-COUNT-16:   arith.mulf
// CHECK:          gpu.barrier
// CHECK-COUNT-16: memref.store %{{.*}} : memref<37x53xf32>
// CHECK-NOT:  linalg.matmul
// SMALL-LABEL: func.func @matmul
// SMALL:      gpu.launch {{.*}} in (%{{.*}} = %c4{{[_0-9]*}}, %{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) threads(%{{[^)]*}}) in (%{{.*}} = %c8{{[_0-9]*}}, %{{.*}} = %c16{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}})
// SMALL-SAME:   workgroup(%{{.*}} : memref<8x33xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x17xf32, #gpu.address_space<workgroup>>)
// SMALL:      scf.for {{.*}} -> (f32, f32, f32, f32)
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @matmul(%a: memref<37x29xf32>, %b: memref<29x53xf32>, %c: memref<37x53xf32>) {
  linalg.matmul ins(%a, %b : memref<37x29xf32>, memref<29x53xf32>) outs(%c : memref<37x53xf32>)
  return
}
}

// -----

// The transposed matmul the AD makes for dA = dC @ B^T (B read as [n, k]):
// B is staged k-fastest; tiles divide 128x64x32 exactly, so no guards.
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK:      gpu.launch {{.*}} in (%{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}})
// CHECK-NOT:  scf.if
// CHECK:      memref.load %{{.*}} : memref<64x32xf64>
// CHECK-NOT:  scf.if
// CHECK:      gpu.terminator
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @matmul_transpose_b(%a: memref<128x32xf64>, %b: memref<64x32xf64>, %c: memref<128x64xf64>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%a, %b : memref<128x32xf64>, memref<64x32xf64>) outs(%c : memref<128x64xf64>)
  return
}
}

// -----

// batch_matmul: the batch is the grid's z. The 64x64 tiles shrink to the
// 5x9 product: 8x16 tiles of 2x4 work items with 4x4 register blocks.
// CHECK-LABEL: func.func @batch_matmul
// CHECK:      gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:[a-z0-9]+]]) in (%{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c3{{[_0-9]*}}) threads(%{{[^)]*}}) in (%{{.*}} = %c4{{[_0-9]*}}, %{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) workgroup(%{{.*}} : memref<16x9xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x17xf32, #gpu.address_space<workgroup>>)
// CHECK:      memref.load %{{.*}}[%[[BZ]], %{{.*}}, %{{.*}}] : memref<3x5x7xf32>
// CHECK-NOT:  linalg.batch_matmul
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @batch_matmul(%a: memref<3x5x7xf32>, %b: memref<3x7x9xf32>, %c: memref<3x5x9xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x5x7xf32>, memref<3x7x9xf32>) outs(%c : memref<3x5x9xf32>)
  return
}
}

// -----

// Left alone: mixed precision (the payload extends), an integer matmul, a
// payload that subtracts, dynamic shapes, a matmul on tensors, and a batch
// beyond the 65535 workgroups a grid's z may have.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:  gpu.launch
// CHECK:      linalg.batch_matmul
// CHECK-COUNT-3: linalg.matmul
// CHECK:      linalg.generic
// CHECK:      linalg.matmul
func.func @left_alone(%h: memref<4x8xf16>, %hb: memref<8x2xf16>, %f: memref<4x2xf32>,
                      %i: memref<4x8xi32>, %ib: memref<8x2xi32>, %ic: memref<4x2xi32>,
                      %a: memref<4x8xf32>, %b: memref<8x2xf32>,
                      %d: memref<?x8xf32>, %dc: memref<?x2xf32>,
                      %ta: tensor<4x8xf32>, %tb: tensor<8x2xf32>, %tc: tensor<4x2xf32>,
                      %ba: memref<65536x1x2xf32>, %bb: memref<65536x2x1xf32>, %bc: memref<65536x1x1xf32>) -> tensor<4x2xf32> {
  linalg.batch_matmul ins(%ba, %bb : memref<65536x1x2xf32>, memref<65536x2x1xf32>) outs(%bc : memref<65536x1x1xf32>)
  linalg.matmul ins(%h, %hb : memref<4x8xf16>, memref<8x2xf16>) outs(%f : memref<4x2xf32>)
  linalg.matmul ins(%i, %ib : memref<4x8xi32>, memref<8x2xi32>) outs(%ic : memref<4x2xi32>)
  linalg.matmul ins(%d, %b : memref<?x8xf32>, memref<8x2xf32>) outs(%dc : memref<?x2xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%f : memref<4x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  }
  %r = linalg.matmul ins(%ta, %tb : tensor<4x8xf32>, tensor<8x2xf32>) outs(%tc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
