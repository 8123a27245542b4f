// RUN: ir-opt %s -split-input-file -adj-cpu-linalg-to-kernels | FileCheck %s

// A matmul after its zero fill: the fill goes, the kernel overwrites C
// (accumulate = 0). The callee is declared once, with the C interface.
// CHECK-LABEL: func.func private @adj_kernel_matmul_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x2xf32>, %[[C:.*]]: memref<4x2xf32>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[CA:.*]] = memref.cast %[[A]] : memref<4x8xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-DAG: %[[CB:.*]] = memref.cast %[[B]]
// CHECK-DAG: %[[CC:.*]] = memref.cast %[[C]]
// CHECK-NOT: linalg.fill
// CHECK: call @adj_kernel_matmul_f32(%[[CA]], %[[CB]], %[[CC]], %[[ZERO]])
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x2xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// Without a zero fill right before it, the kernel accumulates; a second
// matmul reuses the declaration.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4x2xf32>)
// CHECK: call @adj_kernel_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]])
// CHECK: call @adj_kernel_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]])
func.func @accumulate(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%c : memref<4x2xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  return
}

// -----

// Transposed operand maps become memref.transpose views (strides swapped,
// no copy); f64 has its own entry point.
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: (%[[A:.*]]: memref<8x4xf64>, %[[B:.*]]: memref<2x8xf64>
// CHECK: %[[TA:.*]] = memref.transpose %[[A]] (d0, d1) -> (d1, d0) : memref<8x4xf64> to memref<4x8xf64, strided<[1, 4]>>
// CHECK: %[[CA:.*]] = memref.cast %[[TA]]
// CHECK: %[[TB:.*]] = memref.transpose %[[B]] (d0, d1) -> (d1, d0) : memref<2x8xf64> to memref<8x2xf64, strided<[1, 8]>>
// CHECK: %[[CB:.*]] = memref.cast %[[TB]]
// CHECK: call @adj_kernel_matmul_f64(%[[CA]], %[[CB]],
func.func @transposed(%a: memref<8x4xf64>, %b: memref<2x8xf64>, %c: memref<4x2xf64>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<8x4xf64>, memref<2x8xf64>) outs(%c : memref<4x2xf64>)
  return
}

// -----

// CHECK-LABEL: func.func @batch
// CHECK: %[[TB:.*]] = memref.transpose %{{.*}} (d0, d1, d2) -> (d0, d2, d1) : memref<3x2x8xf32> to memref<3x8x2xf32, strided<[16, 1, 8]>>
// CHECK: call @adj_kernel_batch_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>,
func.func @batch(%a: memref<3x4x8xf32>, %b: memref<3x2x8xf32>, %c: memref<3x4x2xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                       affine_map<(b, m, n, k) -> (b, n, k)>,
                                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<3x4x8xf32>, memref<3x2x8xf32>) outs(%c : memref<3x4x2xf32>)
  return
}

// -----

// Stride, dilation and top/left padding travel as i64 scalars (H then W),
// then accumulate.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK: call @adj_kernel_conv2d_nchw_fchw_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[C2]], %[[C1]], %[[C1]], %[[C3]], %[[C0]], %[[C0]], %[[C0]]) : (memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>,
// CHECK-NOT: linalg.conv
func.func @conv(%x: memref<2x3x9x9xf32>, %w: memref<4x3x3x3xf32>, %y: memref<2x4x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<2x4x4x3xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 3]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : memref<2x3x9x9xf32>, memref<4x3x3x3xf32>) outs(%y : memref<2x4x4x3xf32>)
  return
}

// -----

// A zero tensor.pad as bufferization leaves it (a zero-filled buffer, the
// input copied into its interior) is read by the kernel in place: the
// buffer, its fill and the copy go, the kernel gets the unpadded input and
// the top/left padding (1, 2), and the input's deallocation, placed after
// the copy (its last use until now), moves after the call.
// CHECK-LABEL: func.func @conv_padded
// CHECK-SAME: (%[[X:.*]]: memref<2x3x8x8xf32>,
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: %[[S:.*]] = memref.cast %[[X]] : memref<2x3x8x8xf32> to memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: call @adj_kernel_conv2d_nchw_fchw_f32(%[[S]], %{{.*}}, %{{.*}}, %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C1]], %[[C2]], %[[C0]])
// CHECK-NEXT: memref.dealloc %[[X]]
// CHECK-NEXT: return
func.func @conv_padded(%x: memref<2x3x8x8xf32>, %w: memref<4x3x3x3xf32>, %y: memref<2x4x8x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<2x3x10x12xf32>
  linalg.map outs(%p : memref<2x3x10x12xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %in = memref.subview %p[0, 0, 1, 2] [2, 3, 8, 8] [1, 1, 1, 1] : memref<2x3x10x12xf32> to memref<2x3x8x8xf32, strided<[360, 120, 12, 1], offset: 14>>
  memref.copy %x, %in : memref<2x3x8x8xf32> to memref<2x3x8x8xf32, strided<[360, 120, 12, 1], offset: 14>>
  memref.dealloc %x : memref<2x3x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<2x4x8x10xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<2x3x10x12xf32>, memref<4x3x3x3xf32>) outs(%y : memref<2x4x8x10xf32>)
  memref.dealloc %p : memref<2x3x10x12xf32>
  return
}

// -----

// The padded buffer stays when the padding is not zero, when something else
// reads the buffer, or when the input may be written between the copy and
// the convolution: the kernel then reads the buffer with padding 0.
// CHECK-LABEL: func.func @conv_padding_kept
// CHECK-COUNT-3: memref.copy
// CHECK-NOT: linalg.conv
func.func @conv_padding_kept(%x: memref<1x1x4x4xf32>, %w: memref<1x1x3x3xf32>, %y: memref<1x1x4x4xf32>, %z: memref<1x1x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  // Padded with ones.
  %a = memref.alloc() : memref<1x1x6x6xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<1x1x6x6xf32>)
  %ai = memref.subview %a[0, 0, 1, 1] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x6x6xf32> to memref<1x1x4x4xf32, strided<[36, 36, 6, 1], offset: 7>>
  memref.copy %x, %ai : memref<1x1x4x4xf32> to memref<1x1x4x4xf32, strided<[36, 36, 6, 1], offset: 7>>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%a, %w : memref<1x1x6x6xf32>, memref<1x1x3x3xf32>) outs(%y : memref<1x1x4x4xf32>)
  // Also copied elsewhere.
  %b = memref.alloc() : memref<1x1x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<1x1x6x6xf32>)
  %bi = memref.subview %b[0, 0, 1, 1] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x6x6xf32> to memref<1x1x4x4xf32, strided<[36, 36, 6, 1], offset: 7>>
  memref.copy %x, %bi : memref<1x1x4x4xf32> to memref<1x1x4x4xf32, strided<[36, 36, 6, 1], offset: 7>>
  memref.copy %b, %z : memref<1x1x6x6xf32> to memref<1x1x6x6xf32>
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%b, %w : memref<1x1x6x6xf32>, memref<1x1x3x3xf32>) outs(%y : memref<1x1x4x4xf32>)
  // The input is overwritten after the copy.
  %c = memref.alloc() : memref<1x1x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1x6x6xf32>)
  %ci = memref.subview %c[0, 0, 1, 1] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x6x6xf32> to memref<1x1x4x4xf32, strided<[36, 36, 6, 1], offset: 7>>
  memref.copy %x, %ci : memref<1x1x4x4xf32> to memref<1x1x4x4xf32, strided<[36, 36, 6, 1], offset: 7>>
  linalg.fill ins(%one : f32) outs(%x : memref<1x1x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%c, %w : memref<1x1x6x6xf32>, memref<1x1x3x3xf32>) outs(%y : memref<1x1x4x4xf32>)
  return
}

// -----

// No kernel: integer products, broadcast operand maps and ops on tensors
// stay as they are (they become loops later).
// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.matmul ins(%{{.*}} : memref<4x8xi32>, memref<8x2xi32>)
// CHECK: linalg.matmul indexing_maps
// CHECK: linalg.matmul ins(%{{.*}} : tensor<4x8xf32>, tensor<8x2xf32>)
// CHECK-NOT: call
func.func @left_alone(%a: memref<4x8xi32>, %b: memref<8x2xi32>, %c: memref<4x2xi32>,
                      %v: memref<8xf32>, %w: memref<8x2xf32>, %o: memref<4x2xf32>,
                      %ta: tensor<4x8xf32>, %tb: tensor<8x2xf32>, %tc: tensor<4x2xf32>) -> tensor<4x2xf32> {
  linalg.matmul ins(%a, %b : memref<4x8xi32>, memref<8x2xi32>) outs(%c : memref<4x2xi32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%v, %w : memref<8xf32>, memref<8x2xf32>) outs(%o : memref<4x2xf32>)
  %r = linalg.matmul ins(%ta, %tb : tensor<4x8xf32>, tensor<8x2xf32>) outs(%tc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// Complex products have kernels of their own (Eigen's complex GEMM): c64
// and c128, batched too; a zero fill of complex zeros goes as a float one
// does. A complex convolution has no kernel and stays.
// CHECK-LABEL: func.func @complex
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NOT: linalg.fill
// CHECK: call @adj_kernel_matmul_c64(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]]) : (memref<?x?xcomplex<f32>, strided<[?, ?], offset: ?>>,
// CHECK: call @adj_kernel_batch_matmul_c128(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?x?x?xcomplex<f64>, strided<[?, ?, ?], offset: ?>>,
// CHECK: linalg.conv_2d_nchw_fchw
func.func @complex(%a: memref<4x8xcomplex<f32>>, %b: memref<8x2xcomplex<f32>>, %c: memref<4x2xcomplex<f32>>,
                   %x: memref<3x4x8xcomplex<f64>>, %y: memref<3x8x2xcomplex<f64>>, %z: memref<3x4x2xcomplex<f64>>,
                   %i: memref<1x1x4x4xcomplex<f32>>, %f: memref<1x1x2x2xcomplex<f32>>, %o: memref<1x1x3x3xcomplex<f32>>) {
  %zero = complex.constant [0.0 : f32, 0.0 : f32] : complex<f32>
  linalg.fill ins(%zero : complex<f32>) outs(%c : memref<4x2xcomplex<f32>>)
  linalg.matmul ins(%a, %b : memref<4x8xcomplex<f32>>, memref<8x2xcomplex<f32>>) outs(%c : memref<4x2xcomplex<f32>>)
  linalg.batch_matmul ins(%x, %y : memref<3x4x8xcomplex<f64>>, memref<3x8x2xcomplex<f64>>) outs(%z : memref<3x4x2xcomplex<f64>>)
  linalg.conv_2d_nchw_fchw ins(%i, %f : memref<1x1x4x4xcomplex<f32>>, memref<1x1x2x2xcomplex<f32>>) outs(%o : memref<1x1x3x3xcomplex<f32>>)
  return
}
