// RUN: ir-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: ir-opt %s -split-input-file -verify-diagnostics | ir-opt -split-input-file | FileCheck %s

// The LinearAlgebra family round-trips; result types follow the shape
// rules (batch dimensions kept, k = min(m, n), full_matrices widening).

// CHECK-LABEL: adj.func @all
// CHECK: adj.cholesky %{{.*}} : tensor<2x4x4xf64>
// CHECK: adj.triangular_solve %{{.*}}, %{{.*}} left_side lower unit_diagonal : tensor<2x4x4xf64>, tensor<2x4x3xf64>
// CHECK: adj.triangular_solve %{{.*}}, %{{.*}} transpose_a : tensor<2x4x4xf64>, tensor<2x3x4xf64>
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = adj.lu %{{.*}} : tensor<5x3xf32>
// CHECK: %{{.*}}, %{{.*}} = adj.qr %{{.*}} full_matrices : tensor<5x3xf32>
// CHECK: %{{.*}}, %{{.*}} = adj.eigh %{{.*}} upper : tensor<2x4x4xf64>
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = adj.svd %{{.*}} : tensor<3x5xf32>
adj.func @all(%a: tensor<2x4x4xf64>, %b: tensor<2x4x3xf64>, %c: tensor<2x3x4xf64>, %m: tensor<5x3xf32>, %n: tensor<3x5xf32>)
    -> (tensor<2x4x4xf64>, tensor<2x4x3xf64>, tensor<2x3x4xf64>, tensor<3xi32>, tensor<5xi32>, tensor<5x5xf32>, tensor<5x3xf32>, tensor<2x4xf64>, tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>) {
  %l = adj.cholesky %a : tensor<2x4x4xf64>
  %x = adj.triangular_solve %l, %b left_side lower unit_diagonal : tensor<2x4x4xf64>, tensor<2x4x3xf64>
  %y = adj.triangular_solve %l, %c transpose_a : tensor<2x4x4xf64>, tensor<2x3x4xf64>
  %lu, %p, %perm = adj.lu %m : tensor<5x3xf32>
  %q, %r = adj.qr %m full_matrices : tensor<5x3xf32>
  %w, %v = adj.eigh %a upper : tensor<2x4x4xf64>
  %u, %s, %vh = adj.svd %n : tensor<3x5xf32>
  adj.return %l, %x, %y, %p, %perm, %q, %r, %w, %u, %s, %vh : tensor<2x4x4xf64>, tensor<2x4x3xf64>, tensor<2x3x4xf64>, tensor<3xi32>, tensor<5xi32>, tensor<5x5xf32>, tensor<5x3xf32>, tensor<2x4xf64>, tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>
}

// -----

// Complex matrices: eigh's eigenvalues and svd's singular values are real
// (the parts' type), every other result keeps the complex type.

// CHECK-LABEL: adj.func @complex
// CHECK: adj.cholesky %{{.*}} : tensor<3x3xcomplex<f64>>
// CHECK: adj.triangular_solve %{{.*}}, %{{.*}} left_side lower : tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>
// CHECK: adj.lu %{{.*}} : tensor<3x3xcomplex<f64>>
// CHECK: adj.qr %{{.*}} : tensor<4x3xcomplex<f32>>
// CHECK: adj.eigh %{{.*}} : tensor<3x3xcomplex<f64>>
// CHECK: adj.svd %{{.*}} : tensor<4x3xcomplex<f32>>
adj.func @complex(%a: tensor<3x3xcomplex<f64>>, %b: tensor<3x2xcomplex<f64>>, %m: tensor<4x3xcomplex<f32>>)
    -> (tensor<3x2xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<3xi32>, tensor<4x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3xf64>, tensor<3x3xcomplex<f64>>, tensor<4x3xcomplex<f32>>, tensor<3xf32>, tensor<3x3xcomplex<f32>>) {
  %l = adj.cholesky %a : tensor<3x3xcomplex<f64>>
  %x = adj.triangular_solve %l, %b left_side lower : tensor<3x3xcomplex<f64>>, tensor<3x2xcomplex<f64>>
  %lu, %p, %perm = adj.lu %a : tensor<3x3xcomplex<f64>>
  %q, %r = adj.qr %m : tensor<4x3xcomplex<f32>>
  %w, %v = adj.eigh %a : tensor<3x3xcomplex<f64>>
  %u, %s, %vh = adj.svd %m : tensor<4x3xcomplex<f32>>
  adj.return %x, %lu, %p, %q, %r, %w, %v, %u, %s, %vh : tensor<3x2xcomplex<f64>>, tensor<3x3xcomplex<f64>>, tensor<3xi32>, tensor<4x3xcomplex<f32>>, tensor<3x3xcomplex<f32>>, tensor<3xf64>, tensor<3x3xcomplex<f64>>, tensor<4x3xcomplex<f32>>, tensor<3xf32>, tensor<3x3xcomplex<f32>>
}

// -----

adj.func @not_square(%a: tensor<4x3xf64>) -> tensor<4x3xf64> {
  // expected-error @+1 {{adj.cholesky: expected square matrices, got [4, 3]}}
  %l = adj.cholesky %a : tensor<4x3xf64>
  adj.return %l : tensor<4x3xf64>
}

// -----

adj.func @vector(%a: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{adj.qr: expected a matrix or a batch of matrices (rank >= 2), got [4]}}
  %q, %r = adj.qr %a : tensor<4xf64>
  adj.return %a : tensor<4xf64>
}

// -----

adj.func @integers(%a: tensor<2x2xi64>) -> tensor<2x2xi64> {
  // expected-error @+1 {{adj.svd: expected f32, f64, complex<f32> or complex<f64> elements, got 'i64'}}
  %u, %s, %vh = adj.svd %a : tensor<2x2xi64>
  adj.return %a : tensor<2x2xi64>
}

// -----

adj.func @batches(%a: tensor<2x3x3xf32>, %b: tensor<3x3x1xf32>) -> tensor<3x3x1xf32> {
  // expected-error @+1 {{adj.triangular_solve: [2, 3, 3] does not solve [3, 3, 1] from the left (the batch dimensions must be equal)}}
  %x = adj.triangular_solve %a, %b left_side : tensor<2x3x3xf32>, tensor<3x3x1xf32>
  adj.return %b : tensor<3x3x1xf32>
}

// -----

adj.func @element_types(%a: tensor<3x3xf32>, %b: tensor<3x1xf64>) -> tensor<3x1xf64> {
  // expected-error @+1 {{adj.triangular_solve: operands must have one element type}}
  %x = adj.triangular_solve %a, %b left_side : tensor<3x3xf32>, tensor<3x1xf64>
  adj.return %b : tensor<3x1xf64>
}

// -----

// eig: complex eigenvalues and eigenvectors, of the parts' type for a real
// operand.
// CHECK-LABEL: adj.func @eig
// CHECK: %{{.*}}, %{{.*}} = adj.eig %{{.*}} : tensor<2x3x3xf32>
// CHECK: %{{.*}}, %{{.*}} = adj.eig %{{.*}} : tensor<3x3xcomplex<f64>>
adj.func @eig(%a: tensor<2x3x3xf32>, %b: tensor<3x3xcomplex<f64>>)
    -> (tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<3xcomplex<f64>>) {
  %w, %v = adj.eig %a : tensor<2x3x3xf32>
  %wc, %vc = adj.eig %b : tensor<3x3xcomplex<f64>>
  adj.return %w, %v, %wc : tensor<2x3xcomplex<f32>>, tensor<2x3x3xcomplex<f32>>, tensor<3xcomplex<f64>>
}

// -----

adj.func @eig_not_square(%a: tensor<3x2xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{adj.eig: expected square matrices, got [3, 2]}}
  %w, %v = adj.eig %a : tensor<3x2xf64>
  adj.return %a : tensor<3x2xf64>
}
