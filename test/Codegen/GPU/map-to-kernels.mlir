// Each linalg op on buffers becomes one 1-D launch: one work item per
// parallel point (the last dimension fastest), the tail guarded, reductions
// looped serially; gpu.launch ops already there stay as they are.
// RUN: ir-opt %s -adj-gpu-map-to-kernels=workgroup-size=64 -split-input-file -verify-diagnostics | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// 10 x 7 = 70 items: 2 workgroups of 64, the last 58 items idle.
// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME:      %[[X:.*]]: memref<10x7xf32>, %[[B:.*]]: memref<7xf32>, %[[Y:.*]]: memref<10x7xf32>)
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]],
// CHECK:           %[[M:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:           %[[I:.*]] = arith.addi %[[M]], %[[TX]] : index
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[I]], %{{.*}} : index
// CHECK:           scf.if %[[IN]] {
// CHECK:             %[[J:.*]] = arith.remui %[[I]], %{{.*}} : index
// CHECK:             %[[R:.*]] = arith.divui %[[I]], %{{.*}} : index
// CHECK:             %[[A:.*]] = memref.load %[[X]][%[[R]], %[[J]]]
// CHECK:             %[[C:.*]] = memref.load %[[B]][%[[J]]]
// CHECK:             %[[S:.*]] = arith.addf %[[A]], %[[C]] : f32
// CHECK:             %[[E:.*]] = math.exp %[[S]] : f32
// CHECK:             memref.store %[[E]], %[[Y]][%[[R]], %[[J]]]
// CHECK:           }
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
func.func @elementwise(%x: memref<10x7xf32>, %b: memref<7xf32>, %y: memref<10x7xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<10x7xf32>, memref<7xf32>) outs(%y : memref<10x7xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A row sum: one item per row, the accumulator starts from the output and
// is carried through the loop over the reduced dimension.
// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME:      %[[X:.*]]: memref<5x9xf32>, %[[Y:.*]]: memref<5xf32>)
// CHECK:         gpu.launch
// CHECK:           scf.if
// CHECK:             %[[INIT:.*]] = memref.load %[[Y]][%[[I:.*]]] : memref<5xf32>
// CHECK:             %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK:               %[[V:.*]] = memref.load %[[X]][%[[I]], %[[K]]]
// CHECK:               %[[N:.*]] = arith.addf %[[V]], %[[ACC]] : f32
// CHECK:               scf.yield %[[N]] : f32
// CHECK:             memref.store %[[SUM]], %[[Y]][%[[I]]]
func.func @row_sum(%x: memref<5x9xf32>, %y: memref<5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<5x9xf32>) outs(%y : memref<5xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Named ops too (matmul: the k loop is the reduction); a strided copy
// becomes a copy kernel, a contiguous one stays for -adj-gpu-host-memory;
// an existing launch is not touched.
// CHECK-LABEL: func.func @named(
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:         gpu.launch
// CHECK:           memref.load {{.*}} : memref<4x2xf32, strided<[3, 1]>>
// CHECK:           memref.store
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4x3xf32> to memref<4x3xf32>
// CHECK:         gpu.launch
// CHECK-NEXT:      gpu.terminator
// CHECK-NOT:     linalg.
func.func @named(%a: memref<4x3xf32>, %b: memref<3x5xf32>, %c: memref<4x5xf32>, %d: memref<4x2xf32>, %e: memref<4x3xf32>) {
  linalg.matmul ins(%a, %b : memref<4x3xf32>, memref<3x5xf32>) outs(%c : memref<4x5xf32>)
  %v = memref.subview %a[0, 0] [4, 2] [1, 1] : memref<4x3xf32> to memref<4x2xf32, strided<[3, 1]>>
  memref.copy %v, %d : memref<4x2xf32, strided<[3, 1]>> to memref<4x2xf32>
  memref.copy %a, %e : memref<4x3xf32> to memref<4x3xf32>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}

// -----

func.func @on_tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{GPU kernels need linalg ops on buffers (bufferize first)}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @dynamic(%x: memref<?xf32>, %y: memref<?xf32>) {
  // expected-error @+1 {{GPU kernels need static shapes}}
  linalg.copy ins(%x : memref<?xf32>) outs(%y : memref<?xf32>)
  return
}

// -----

// A pooling's padded input: windows (views) of a buffer filled with -inf
// and then given the source in its middle. The kernel reads the source at
// the window's element (offset + index * stride), -inf outside it; the
// fill, the copy and the padded buffer are gone.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @padded_windows(
// CHECK-SAME:      %[[X:.*]]: memref<1x2x4x4xf32>, %[[Y:.*]]: memref<1x2x2x2xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         gpu.launch
// CHECK:           %[[A:.*]] = memref.load %[[X]]
// CHECK:           %[[PA:.*]] = arith.select %{{.*}}, %[[A]], %{{.*}} : f32
// CHECK:           %[[B:.*]] = memref.load %[[X]]
// CHECK:           %[[PB:.*]] = arith.select %{{.*}}, %[[B]], %{{.*}} : f32
// CHECK:           arith.maximumf %[[PA]], %[[PB]] : f32
// CHECK:         }
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @padded_windows(%x: memref<1x2x4x4xf32>, %y: memref<1x2x2x2xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %p = memref.alloc() : memref<1x2x6x6xf32>
  linalg.map outs(%p : memref<1x2x6x6xf32>) (%init: f32) {
    linalg.yield %ninf : f32
  }
  %window = memref.subview %p[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1]
      : memref<1x2x6x6xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %x, %window : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  %w0 = memref.subview %p[0, 0, 0, 0] [1, 2, 2, 2] [1, 1, 2, 2]
      : memref<1x2x6x6xf32> to memref<1x2x2x2xf32, strided<[72, 36, 12, 2]>>
  %w1 = memref.subview %p[0, 0, 1, 1] [1, 2, 2, 2] [1, 1, 2, 2]
      : memref<1x2x6x6xf32> to memref<1x2x2x2xf32, strided<[72, 36, 12, 2], offset: 7>>
  linalg.generic {indexing_maps = [#id4, #id4, #id4],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w0, %w1 : memref<1x2x2x2xf32, strided<[72, 36, 12, 2]>>, memref<1x2x2x2xf32, strided<[72, 36, 12, 2], offset: 7>>)
      outs(%y : memref<1x2x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.maximumf %a, %b : f32
    linalg.yield %m : f32
  }
  memref.dealloc %p : memref<1x2x6x6xf32>
  return
}

// -----

// The padded buffer read by someone else too (it is returned): its padding
// stays, as kernels (the fill and the strided copy), and the window is
// read from it.
// CHECK-LABEL: func.func @padded_read_twice(
// CHECK:         %[[P:.*]] = memref.alloc() : memref<1x1x4x4xf32>
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.copy
// CHECK:         return %[[P]]
func.func @padded_read_twice(%x: memref<1x1x2x2xf32>, %y: memref<1x1x2x2xf32>) -> memref<1x1x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x1x4x4xf32>
  linalg.map outs(%p : memref<1x1x4x4xf32>) (%init: f32) {
    linalg.yield %zero : f32
  }
  %window = memref.subview %p[0, 0, 1, 1] [1, 1, 2, 2] [1, 1, 1, 1]
      : memref<1x1x4x4xf32> to memref<1x1x2x2xf32, strided<[16, 16, 4, 1], offset: 5>>
  memref.copy %x, %window : memref<1x1x2x2xf32> to memref<1x1x2x2xf32, strided<[16, 16, 4, 1], offset: 5>>
  %w0 = memref.subview %p[0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 2, 2]
      : memref<1x1x4x4xf32> to memref<1x1x2x2xf32, strided<[16, 16, 8, 2]>>
  linalg.copy ins(%w0 : memref<1x1x2x2xf32, strided<[16, 16, 8, 2]>>) outs(%y : memref<1x1x2x2xf32>)
  return %p : memref<1x1x4x4xf32>
}

// -----

// The reader writes into the padded buffer too: the buffer is its output,
// so the padding stays and the window is read from it.
// CHECK-LABEL: func.func @padded_written_by_reader(
// CHECK:         %[[P:.*]] = memref.alloc() : memref<1x1x4x4xf32>
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT:     linalg.
// CHECK:         memref.dealloc %[[P]]
func.func @padded_written_by_reader(%x: memref<1x1x2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x1x4x4xf32>
  linalg.map outs(%p : memref<1x1x4x4xf32>) (%init: f32) {
    linalg.yield %zero : f32
  }
  %window = memref.subview %p[0, 0, 1, 1] [1, 1, 2, 2] [1, 1, 1, 1]
      : memref<1x1x4x4xf32> to memref<1x1x2x2xf32, strided<[16, 16, 4, 1], offset: 5>>
  memref.copy %x, %window : memref<1x1x2x2xf32> to memref<1x1x2x2xf32, strided<[16, 16, 4, 1], offset: 5>>
  %w0 = memref.subview %p[0, 0, 0, 0] [1, 1, 2, 2] [1, 1, 2, 2]
      : memref<1x1x4x4xf32> to memref<1x1x2x2xf32, strided<[16, 16, 8, 2]>>
  %w1 = memref.subview %p[0, 0, 1, 0] [1, 1, 2, 2] [1, 1, 2, 2]
      : memref<1x1x4x4xf32> to memref<1x1x2x2xf32, strided<[16, 16, 8, 2], offset: 4>>
  linalg.copy ins(%w0 : memref<1x1x2x2xf32, strided<[16, 16, 8, 2]>>) outs(%w1 : memref<1x1x2x2xf32, strided<[16, 16, 8, 2], offset: 4>>)
  memref.dealloc %p : memref<1x1x4x4xf32>
  return
}
