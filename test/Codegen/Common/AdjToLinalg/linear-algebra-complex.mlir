// Complex matrices call the runtime's c64 and c128 kernels (LAPACK's c and
// z routines); eigh's eigenvalues and svd's singular values are real
// buffers of the parts' type.
// RUN: ir-opt %s -adj-to-linalg -cse | FileCheck %s

// eig of a real matrix: complex results; only the eigenvalues used, so the
// kernel skips the vectors (its last scalar is 0). The wrappers come first
// (each goes to the module's start), the functions after them.
// CHECK-LABEL: func.func private @__adj_eig_3x3xcomplexf32(
// CHECK: call @adj_kernel_eig_c64(
// CHECK-LABEL: func.func private @__adj_eig_values_2x4x4xf64(
// CHECK-SAME: -> (tensor<2x4xcomplex<f64>>, tensor<2x4x4xcomplex<f64>>)
// CHECK: memref.alloc() {{.*}} : memref<2x4xcomplex<f64>>
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[NO:.*]] = arith.constant 0 : i64
// CHECK: call @adj_kernel_eig_f64(%{{.*}}, %{{.*}}, %{{.*}}, %[[TWO]], %[[FOUR]], %[[NO]])

// CHECK-LABEL: func.func private @__adj_svd_4x3xcomplexf32(
// CHECK-SAME: -> (tensor<4x3xcomplex<f32>>, tensor<3xf32>, tensor<3x3xcomplex<f32>>)
// CHECK: memref.alloc() {{.*}} : memref<3xf32>
// CHECK: call @adj_kernel_svd_c64(

// CHECK-LABEL: func.func private @__adj_eigh_3x3xcomplexf64(
// CHECK-SAME: -> (tensor<3xf64>, tensor<3x3xcomplex<f64>>)
// CHECK: memref.alloc() {{.*}} : memref<3xf64>
// CHECK: call @adj_kernel_eigh_c128(

// CHECK-LABEL: func.func private @__adj_qr_4x3xcomplexf32(
// CHECK: call @adj_kernel_qr_c64(
// CHECK-LABEL: func.func private @__adj_lu_3x3xcomplexf64(
// CHECK: call @adj_kernel_lu_c128(
// CHECK-LABEL: func.func private @__adj_triangular_solve_left_lower_3x3xcomplexf64_3x2xcomplexf64(
// CHECK: call @adj_kernel_triangular_solve_c128(
// CHECK-LABEL: func.func private @__adj_cholesky_3x3xcomplexf64(
// CHECK: call @adj_kernel_cholesky_c128(
adj.func @complex(%a: tensor<3x3xcomplex<f64>>, %b: tensor<3x2xcomplex<f64>>,
                  %m: tensor<4x3xcomplex<f32>>)
    -> (tensor<3x2xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<4x3xcomplex<f32>>,
        tensor<3xf64>, tensor<3x3xcomplex<f64>>, tensor<3xf32>, tensor<4x3xcomplex<f32>>) {
  %l = adj.cholesky %a : tensor<3x3xcomplex<f64>>
  %x = adj.triangular_solve %l, %b left_side lower : tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>
  %lu, %piv, %perm = adj.lu %a : tensor<3x3xcomplex<f64>>
  %q, %r = adj.qr %m : tensor<4x3xcomplex<f32>>
  %w, %v = adj.eigh %a : tensor<3x3xcomplex<f64>>
  %u, %s, %vh = adj.svd %m : tensor<4x3xcomplex<f32>>
  adj.return %x, %lu, %q, %w, %v, %s, %u : tensor<3x2xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<4x3xcomplex<f32>>, tensor<3xf64>, tensor<3x3xcomplex<f64>>, tensor<3xf32>, tensor<4x3xcomplex<f32>>
}


// CHECK-LABEL: func.func @eig(
adj.func @eig(%a: tensor<2x4x4xf64>, %b: tensor<3x3xcomplex<f32>>)
    -> (tensor<2x4xcomplex<f64>>, tensor<3x3xcomplex<f32>>) {
  %w, %v = adj.eig %a : tensor<2x4x4xf64>
  %wc, %vc = adj.eig %b : tensor<3x3xcomplex<f32>>
  adj.return %w, %vc : tensor<2x4xcomplex<f64>>, tensor<3x3xcomplex<f32>>
}
