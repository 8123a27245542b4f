// RUN: ir-opt %s -split-input-file -adj-grad -verify-diagnostics | FileCheck %s

// The rules of the decompositions on complex numbers (values are checked
// against JAX by test_np_linalg_complex.py and on every target by the
// conformance suite). Each bprop is a lambda of the function's fprop.

// eig's rule is JAX's, of the eigenvalues alone: A-bar = V^-T diag(w-bar)
// V^T through V's LU and two triangular solves, then the real part for a
// real A (the transpose of its cast to complex).
// CHECK-LABEL: adj.func private @eigvals_fprop(
// CHECK: adj.lu %{{.*}} : tensor<3x3xcomplex<f64>>
// CHECK: adj.triangular_solve {{.*}} left_side transpose_a :
// CHECK: adj.triangular_solve {{.*}} left_side lower transpose_a unit_diagonal :
// CHECK: adj.real %{{.*}} : tensor<3x3xcomplex<f64>>
adj.func @eigvals(%a: tensor<3x3xf64>) -> tensor<f64> {
  %w, %v = adj.eig %a : tensor<3x3xf64>
  %re = adj.real %w : tensor<3xcomplex<f64>>
  %s = adj.reduce_sum %re axes = [0] : tensor<3xf64>
  adj.return %s : tensor<f64>
}
adj.func @main(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %f = adj.func_ref @eigvals : !adj.fn<(tensor<3x3xf64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<3x3xf64>) -> tensor<f64>>
  %d = adj.call %g(%a) : !adj.fn<(tensor<3x3xf64>) -> tensor<3x3xf64>>
  adj.return %d : tensor<3x3xf64>
}

// -----

// The eigenvectors of a general matrix have no derivative (as in JAX).
adj.func @vectors(%a: tensor<3x3xf64>) -> tensor<f64> {
  // expected-error @+1 {{'adj.eig' op has derivatives only of its eigenvalues (as JAX)}}
  %w, %v = adj.eig %a : tensor<3x3xf64>
  %m = adj.abs %v : tensor<3x3xcomplex<f64>>
  %s = adj.reduce_sum %m axes = [0, 1] : tensor<3x3xf64>
  adj.return %s : tensor<f64>
}
adj.func @main(%a: tensor<3x3xf64>) -> tensor<3x3xf64> {
  %f = adj.func_ref @vectors : !adj.fn<(tensor<3x3xf64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<3x3xf64>) -> tensor<f64>>
  %d = adj.call %g(%a) : !adj.fn<(tensor<3x3xf64>) -> tensor<3x3xf64>>
  adj.return %d : tensor<3x3xf64>
}

// -----

// A complex cholesky's bprop is conj . adjoint . conj: the cotangent and
// the factor conjugated (adj.complex of the parts, the imaginary negated)
// around L^-H phi(L^H L-bar) L^-1.
// CHECK-LABEL: adj.func private @chol_fprop(
// CHECK: adj.neg %{{.*}} : tensor<2x2xf64>
// CHECK: adj.complex
// CHECK: adj.triangular_solve {{.*}} left_side lower transpose_a : tensor<2x2xcomplex<f64>>
// CHECK: adj.triangular_solve {{.*}} lower : tensor<2x2xcomplex<f64>>
adj.func @chol(%a: tensor<2x2xcomplex<f64>>) -> tensor<f64> {
  %l = adj.cholesky %a : tensor<2x2xcomplex<f64>>
  %re = adj.real %l : tensor<2x2xcomplex<f64>>
  %s = adj.reduce_sum %re axes = [0, 1] : tensor<2x2xf64>
  adj.return %s : tensor<f64>
}
adj.func @main(%a: tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>> {
  %f = adj.func_ref @chol : !adj.fn<(tensor<2x2xcomplex<f64>>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<2x2xcomplex<f64>>) -> tensor<f64>>
  %d = adj.call %g(%a) : !adj.fn<(tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>>
  adj.return %d : tensor<2x2xcomplex<f64>>
}
