// Contractions become tiled kernels: tiles of A and B staged in workgroup
// memory, a register block of accumulators per work item, edges guarded.
// RUN: ir-opt %s -split-input-file -adj-gpu-matmul | FileCheck %s
// RUN: ir-opt %s -split-input-file -adj-gpu-matmul="tile-m=32 tile-n=16 tile-k=8 thread-m=2 thread-n=2" | FileCheck %s --check-prefix=SMALL
// The kernels convert to SPIR-V for OpenCL with upstream passes and validate.
// RUN: ir-opt %s -split-input-file -adj-gpu-matmul -gpu-kernel-outlining -adj-gpu-workgroup-allocs \
// RUN: | mlir-opt -split-input-file -pass-pipeline='builtin.module(gpu.module(test-spirv-entry-point-abi),convert-gpu-to-spirv{use-64bit-index=true},gpu.module(spirv.module(spirv-lower-abi-attrs,spirv-update-vce)))' \
// RUN: | python3 %inputs/validate-spirv.py %t | FileCheck %s --check-prefix=SPIRV
// RUN: ir-opt %s -split-input-file -adj-gpu-matmul=allow-tf32 | FileCheck %s --check-prefix=TF32
// RUN: not ir-opt %s -split-input-file -adj-gpu-matmul="tile-m=64 tile-n=64 thread-m=3" 2>&1 \
// RUN: | FileCheck %s --check-prefix=OPTIONS

// SPIRV-COUNT-5: valid
// SPIRV-NOT: failed
// OPTIONS: -adj-gpu-matmul: tile-m and tile-n must be multiples of thread-m and thread-n

// 37x29 @ 29x53 with the default 64x64x16 tiles and 4x4 register blocks:
// one workgroup of 16x16 work items, two K steps; A staged k-fastest (it is
// row-major), B staged n-fastest; loads and stores past 37/53/29 guarded.
// Its GEMM record comes first: A, B and C row-major.
// CHECK-LABEL: func.func @matmul
// CHECK:      call @adj_gpu_gemm(%arg0, %arg1, %arg2) {adj.gpu.gemm = {a = {batch_stride = 0 : i64, ld = 29 : i64, order = "row"}, b = {batch_stride = 0 : i64, ld = 53 : i64, order = "row"}, batch = 1 : i64, c = {batch_stride = 0 : i64, ld = 53 : i64, order = "row"}, k = 29 : i64, m = 37 : i64, n = 53 : i64}} : (memref<37x29xf32>, memref<29x53xf32>, memref<37x53xf32>) -> ()
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
// The k steps stay a loop (-adj-gpu-loop-annotations hands this to LLVM).
// CHECK:        } {llvm.loop_annotation = #{{.*}}}
// CHECK-COUNT-16: memref.store %{{.*}} : memref<37x53xf32>
// CHECK-NOT:  linalg.matmul
// TF32-LABEL: func.func @matmul
// TF32:       call @adj_gpu_gemm(%arg0, %arg1, %arg2) {adj.gpu.gemm = {{.*}}, tf32}}
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
// Its record: B column-major (k x n with columns 32 apart).
// f64 products are f64 whatever the TF32 option says.
// TF32-LABEL: func.func @matmul_transpose_b
// TF32-NOT:   tf32
// TF32:       gpu.launch
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK:      call @adj_gpu_gemm(%arg0, %arg1, %arg2) {adj.gpu.gemm = {a = {batch_stride = 0 : i64, ld = 32 : i64, order = "row"}, b = {batch_stride = 0 : i64, ld = 32 : i64, order = "col"}, batch = 1 : i64, c = {batch_stride = 0 : i64, ld = 64 : i64, order = "row"}, k = 32 : i64, m = 128 : i64, n = 64 : i64}}
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
// Its record: batch strides of 35, 63 and 45 elements.
// CHECK-LABEL: func.func @batch_matmul
// CHECK:      call @adj_gpu_gemm(%arg0, %arg1, %arg2) {adj.gpu.gemm = {a = {batch_stride = 35 : i64, ld = 7 : i64, order = "row"}, b = {batch_stride = 63 : i64, ld = 9 : i64, order = "row"}, batch = 3 : i64, c = {batch_stride = 45 : i64, ld = 9 : i64, order = "row"}, k = 7 : i64, m = 5 : i64, n = 9 : i64}}
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
// CHECK-NOT:  adj_gpu_gemm
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

// -----

// GEMM records: B shared by every batch entry (a view of batch stride 0), A read
// transposed (A^T B: column-major, ld = m), a view with static strides
// (ld 32; its offset is applied at run time), two batch loops flattened
// into one stride (2x3 entries of 5x7: 35).
// CHECK-LABEL: func.func @records
// CHECK:      call @adj_gpu_gemm(%arg0, %arg1, %arg2) {adj.gpu.gemm = {a = {batch_stride = 35 : i64, ld = 7 : i64, order = "row"}, b = {batch_stride = 0 : i64, ld = 9 : i64, order = "row"}, batch = 4 : i64, c = {batch_stride = 45 : i64, ld = 9 : i64, order = "row"}, k = 7 : i64, m = 5 : i64, n = 9 : i64}}
// CHECK:      gpu.launch
// CHECK:      call @adj_gpu_gemm_0(%arg3, %arg4, %arg5) {adj.gpu.gemm = {a = {batch_stride = 0 : i64, ld = 5 : i64, order = "col"}, b = {batch_stride = 0 : i64, ld = 9 : i64, order = "row"}, batch = 1 : i64, c = {batch_stride = 0 : i64, ld = 9 : i64, order = "row"}, k = 7 : i64, m = 5 : i64, n = 9 : i64}}
// CHECK:      gpu.launch
// CHECK:      call @adj_gpu_gemm_1(%arg6, %arg7, %arg8) {adj.gpu.gemm = {a = {batch_stride = 0 : i64, ld = 32 : i64, order = "row"}, b = {batch_stride = 0 : i64, ld = 4 : i64, order = "row"}, batch = 1 : i64, c = {batch_stride = 0 : i64, ld = 4 : i64, order = "row"}, k = 16 : i64, m = 8 : i64, n = 4 : i64}}
// CHECK:      gpu.launch
// CHECK:      call @adj_gpu_gemm_2(%arg9, %arg10, %arg11) {adj.gpu.gemm = {a = {batch_stride = 35 : i64, ld = 7 : i64, order = "row"}, b = {batch_stride = 63 : i64, ld = 9 : i64, order = "row"}, batch = 6 : i64, c = {batch_stride = 45 : i64, ld = 9 : i64, order = "row"}, k = 7 : i64, m = 5 : i64, n = 9 : i64}}
// CHECK:      gpu.launch
// One declaration per signature, marked.
// CHECK:      func.func private @adj_gpu_gemm(memref<4x5x7xf32>, memref<4x7x9xf32, strided<[0, 9, 1]>>, memref<4x5x9xf32>) attributes {adj.gpu.gemm}
// CHECK:      func.func private @adj_gpu_gemm_2(
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @records(%a: memref<4x5x7xf32>, %b: memref<4x7x9xf32, strided<[0, 9, 1]>>, %c: memref<4x5x9xf32>,
                   %at: memref<7x5xf64>, %b2: memref<7x9xf64>, %c2: memref<5x9xf64>,
                   %v: memref<8x16xf32, strided<[32, 1], offset: 4>>, %w: memref<16x4xf32>, %vc: memref<8x4xf32>,
                   %a4: memref<2x3x5x7xf32>, %b4: memref<2x3x7x9xf32>, %c4: memref<2x3x5x9xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x5x7xf32>, memref<4x7x9xf32, strided<[0, 9, 1]>>) outs(%c : memref<4x5x9xf32>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%at, %b2 : memref<7x5xf64>, memref<7x9xf64>) outs(%c2 : memref<5x9xf64>)
  linalg.matmul ins(%v, %w : memref<8x16xf32, strided<[32, 1], offset: 4>>, memref<16x4xf32>) outs(%vc : memref<8x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(b0, b1, m, n, k) -> (b0, b1, m, k)>, affine_map<(b0, b1, m, n, k) -> (b0, b1, k, n)>, affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a4, %b4 : memref<2x3x5x7xf32>, memref<2x3x7x9xf32>) outs(%c4 : memref<2x3x5x9xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
}

// -----

// Tiled kernels without a record (no BLAS layout): a view strided along
// both of A's dimensions, batch loops in an order that no one stride
// flattens (A's batch dimensions swapped).
// CHECK-LABEL: func.func @no_records
// CHECK-NOT:  adj_gpu_gemm
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:  adj_gpu_gemm
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL, #spirv.resource_limits<>>} {
func.func @no_records(%s: memref<4x8xf32, strided<[16, 2]>>, %b: memref<8x2xf32>, %c: memref<4x2xf32>,
                      %p: memref<3x2x5x7xf32>, %pb: memref<2x3x7x9xf32>, %pc: memref<2x3x5x9xf32>) {
  linalg.matmul ins(%s, %b : memref<4x8xf32, strided<[16, 2]>>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  linalg.generic {indexing_maps = [affine_map<(b0, b1, m, n, k) -> (b1, b0, m, k)>, affine_map<(b0, b1, m, n, k) -> (b0, b1, k, n)>, affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %pb : memref<3x2x5x7xf32>, memref<2x3x7x9xf32>) outs(%pc : memref<2x3x5x9xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %q = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  }
  return
}
}
