// A fill folds into the next op that starts from its buffer: the op
// carries the constant (adj.gpu.init_constants, one entry per output) and
// the fill goes. Contractions take only zero; anything touching the buffer
// in between, or an op with unknown effects, keeps the fill.
// RUN: ir-opt %s -adj-gpu-fold-fills | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @matmul(
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.matmul {adj.gpu.init_constants = [0.000000e+00 : f32]}
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x2xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// A max reduction starts from -inf; an unrelated op in between is fine.
// CHECK-LABEL: func.func @row_max(
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.generic {{{.*}}adj.gpu.init_constants = [0xFF800000 : f32]
func.func @row_max(%x: memref<4x8xf32>, %m: memref<4xf32>, %other: memref<4x8xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%m : memref<4xf32>)
  linalg.copy ins(%x : memref<4x8xf32>) outs(%other : memref<4x8xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %out : f32
    linalg.yield %r : f32
  }
  return
}

// Kept: a nonzero start for a contraction.
// CHECK-LABEL: func.func @matmul_ones(
// CHECK:         linalg.fill
// CHECK:         linalg.matmul ins
func.func @matmul_ones(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<4x2xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// Kept: a view of the buffer is read in between.
// CHECK-LABEL: func.func @read_between(
// CHECK:         linalg.fill
// CHECK:         linalg.copy
// CHECK:         linalg.matmul ins
func.func @read_between(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>, %d: memref<2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x2xf32>)
  %row = memref.subview %c[0, 0] [1, 2] [1, 1] : memref<4x2xf32> to memref<2xf32, strided<[1]>>
  linalg.copy ins(%row : memref<2xf32, strided<[1]>>) outs(%d : memref<2xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// Kept: a call in between may read anything.
// CHECK-LABEL: func.func @call_between(
// CHECK:         linalg.fill
// CHECK:         call @opaque
// CHECK:         linalg.matmul ins
func.func private @opaque()
func.func @call_between(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x2xf32>)
  func.call @opaque() : () -> ()
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// Kept: the op does not start from its output (it only writes it).
// CHECK-LABEL: func.func @overwritten(
// CHECK:         linalg.fill
// CHECK:         linalg.copy
func.func @overwritten(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<4x8xf32>)
  linalg.copy ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  return
}

// Kept: the op's payload also loads the filled buffer (a captured view, as
// a bufferized gather reads its table), which must hold the constant.
// CHECK-LABEL: func.func @payload_reads(
// CHECK:         linalg.fill
// CHECK:         linalg.generic
// CHECK-NOT:       adj.gpu.init_constants
func.func @payload_reads(%x: memref<4x8xf32>, %m: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  linalg.fill ins(%zero : f32) outs(%m : memref<4xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %first = memref.load %m[%c0] : memref<4xf32>
    %s = arith.addf %in, %out : f32
    %t = arith.addf %s, %first : f32
    linalg.yield %t : f32
  }
  return
}
