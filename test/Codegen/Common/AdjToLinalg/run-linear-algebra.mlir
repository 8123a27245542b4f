// The LinearAlgebra ops end to end: lowered by -adj-lower-to-cpu to calls
// of the runtime's LAPACK kernels and JIT-run by mlir-runner. The inputs
// are chosen so that the exact results are short decimals.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s

// The upper triangle (99s) is not read; zeros above the diagonal.
// CHECK: sizes = [18]
// CHECK-NEXT: [2, 0, 0, 1, 3, 0, -1, 1, 2, 1, 0, 0, 0, 3, 0, 0, 0, 4]
adj.func @cholesky_batch() -> tensor<18xf32> {
  %a = adj.constant dense<[[[4.0, 99.0, 99.0], [2.0, 10.0, 99.0], [-2.0, 2.0, 6.0]], [[1.0, 0.0, 0.0], [0.0, 9.0, 0.0], [0.0, 0.0, 16.0]]]> : tensor<2x3x3xf64>
  %l = adj.cholesky %a : tensor<2x3x3xf64>
  %c = adj.cast %l : tensor<2x3x3xf64> to tensor<2x3x3xf32>
  %r = adj.reshape %c : tensor<2x3x3xf32> to tensor<18xf32>
  adj.return %r : tensor<18xf32>
}

// CHECK: sizes = [4]
// CHECK-NEXT: [nan, nan, nan, nan]
adj.func @cholesky_not_positive_definite() -> tensor<4xf32> {
  %a = adj.constant dense<[[1.0, 2.0], [2.0, 1.0]]> : tensor<2x2xf32>
  %l = adj.cholesky %a : tensor<2x2xf32>
  %r = adj.reshape %l : tensor<2x2xf32> to tensor<4xf32>
  adj.return %r : tensor<4xf32>
}

// l x = b, l^T x = b and x l = b (the 7s above the diagonal not read).
// CHECK: sizes = [9]
// CHECK-NEXT: [1, -1, 2, 1, -1, 2, 1, -1, 2]
adj.func @triangular_solves() -> tensor<9xf32> {
  %l = adj.constant dense<[[2.0, 7.0, 7.0], [1.0, 3.0, 7.0], [-1.0, 1.0, 2.0]]> : tensor<3x3xf64>
  %b = adj.constant dense<[[2.0], [-2.0], [2.0]]> : tensor<3x1xf64>
  %x = adj.triangular_solve %l, %b left_side lower : tensor<3x3xf64>, tensor<3x1xf64>
  %bt = adj.constant dense<[[-1.0], [-1.0], [4.0]]> : tensor<3x1xf64>
  %xt = adj.triangular_solve %l, %bt left_side lower transpose_a : tensor<3x3xf64>, tensor<3x1xf64>
  %br = adj.constant dense<[[-1.0, -1.0, 4.0]]> : tensor<1x3xf64>
  %xr = adj.triangular_solve %l, %br lower : tensor<3x3xf64>, tensor<1x3xf64>
  %x1 = adj.reshape %x : tensor<3x1xf64> to tensor<3xf64>
  %x2 = adj.reshape %xt : tensor<3x1xf64> to tensor<3xf64>
  %x3 = adj.reshape %xr : tensor<1x3xf64> to tensor<3xf64>
  %all = adj.concat %x1, %x2, %x3 axis = 0 : tensor<3xf64>, tensor<3xf64>, tensor<3xf64>
  %r = adj.cast %all : tensor<9xf64> to tensor<9xf32>
  adj.return %r : tensor<9xf32>
}

// The pivot row 1 first: lu, then pivots and the permutation from 0.
// CHECK: sizes = [8]
// CHECK-NEXT: [3, 4, 0.333333, 0.666667, 1, 1, 1, 0]
adj.func @lu() -> tensor<8xf32> {
  %a = adj.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %lu, %piv, %perm = adj.lu %a : tensor<2x2xf32>
  %p = adj.cast %piv : tensor<2xi32> to tensor<2xf32>
  %q = adj.cast %perm : tensor<2xi32> to tensor<2xf32>
  %flat = adj.reshape %lu : tensor<2x2xf32> to tensor<4xf32>
  %r = adj.concat %flat, %p, %q axis = 0 : tensor<4xf32>, tensor<2xf32>, tensor<2xf32>
  adj.return %r : tensor<8xf32>
}

// LAPACK's reflector: r's diagonal is -sign(a00) |a|.
// CHECK: sizes = [3]
// CHECK-NEXT: [-0.6, -0.8, -5]
adj.func @qr() -> tensor<3xf32> {
  %a = adj.constant dense<[[3.0], [4.0]]> : tensor<2x1xf64>
  %q, %r0 = adj.qr %a : tensor<2x1xf64>
  %qf = adj.reshape %q : tensor<2x1xf64> to tensor<2xf64>
  %rf = adj.reshape %r0 : tensor<1x1xf64> to tensor<1xf64>
  %all = adj.concat %qf, %rf axis = 0 : tensor<2xf64>, tensor<1xf64>
  %r = adj.cast %all : tensor<3xf64> to tensor<3xf32>
  adj.return %r : tensor<3xf32>
}

// Ascending eigenvalues; each vector's first largest entry positive.
// CHECK: sizes = [6]
// CHECK-NEXT: [1, 3, 0.707107, 0.707107, -0.707107, 0.707107]
adj.func @eigh() -> tensor<6xf32> {
  %a = adj.constant dense<[[2.0, 1.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %w, %v = adj.eigh %a : tensor<2x2xf32>
  %vf = adj.reshape %v : tensor<2x2xf32> to tensor<4xf32>
  %r = adj.concat %w, %vf axis = 0 : tensor<2xf32>, tensor<4xf32>
  adj.return %r : tensor<6xf32>
}

// Descending singular values; u's columns signed positive, vh follows.
// CHECK: sizes = [10]
// CHECK-NEXT: [1, 0, 0, 1, 3, 2, 1, 0, {{-?}}0, -1]
adj.func @svd() -> tensor<10xf32> {
  %a = adj.constant dense<[[3.0, 0.0], [0.0, -2.0]]> : tensor<2x2xf64>
  %u, %s, %vh = adj.svd %a : tensor<2x2xf64>
  %uf = adj.reshape %u : tensor<2x2xf64> to tensor<4xf64>
  %vf = adj.reshape %vh : tensor<2x2xf64> to tensor<4xf64>
  %all = adj.concat %uf, %s, %vf axis = 0 : tensor<4xf64>, tensor<2xf64>, tensor<4xf64>
  %r = adj.cast %all : tensor<10xf64> to tensor<10xf32>
  adj.return %r : tensor<10xf32>
}
func.func @main() {
  %f0 = adj.func_ref @cholesky_batch : !adj.fn<() -> tensor<18xf32>>
  %t0 = adj.call %f0() : !adj.fn<() -> tensor<18xf32>>
  %m0 = bufferization.to_buffer %t0 : tensor<18xf32> to memref<18xf32>
  %u0 = memref.cast %m0 : memref<18xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %f1 = adj.func_ref @cholesky_not_positive_definite : !adj.fn<() -> tensor<4xf32>>
  %t1 = adj.call %f1() : !adj.fn<() -> tensor<4xf32>>
  %m1 = bufferization.to_buffer %t1 : tensor<4xf32> to memref<4xf32>
  %u1 = memref.cast %m1 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %f2 = adj.func_ref @triangular_solves : !adj.fn<() -> tensor<9xf32>>
  %t2 = adj.call %f2() : !adj.fn<() -> tensor<9xf32>>
  %m2 = bufferization.to_buffer %t2 : tensor<9xf32> to memref<9xf32>
  %u2 = memref.cast %m2 : memref<9xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %f3 = adj.func_ref @lu : !adj.fn<() -> tensor<8xf32>>
  %t3 = adj.call %f3() : !adj.fn<() -> tensor<8xf32>>
  %m3 = bufferization.to_buffer %t3 : tensor<8xf32> to memref<8xf32>
  %u3 = memref.cast %m3 : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %f4 = adj.func_ref @qr : !adj.fn<() -> tensor<3xf32>>
  %t4 = adj.call %f4() : !adj.fn<() -> tensor<3xf32>>
  %m4 = bufferization.to_buffer %t4 : tensor<3xf32> to memref<3xf32>
  %u4 = memref.cast %m4 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %f5 = adj.func_ref @eigh : !adj.fn<() -> tensor<6xf32>>
  %t5 = adj.call %f5() : !adj.fn<() -> tensor<6xf32>>
  %m5 = bufferization.to_buffer %t5 : tensor<6xf32> to memref<6xf32>
  %u5 = memref.cast %m5 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  %f6 = adj.func_ref @svd : !adj.fn<() -> tensor<10xf32>>
  %t6 = adj.call %f6() : !adj.fn<() -> tensor<10xf32>>
  %m6 = bufferization.to_buffer %t6 : tensor<10xf32> to memref<10xf32>
  %u6 = memref.cast %m6 : memref<10xf32> to memref<*xf32>
  call @printMemrefF32(%u6) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
