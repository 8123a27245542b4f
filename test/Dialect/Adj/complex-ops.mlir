// Complex elements: the parts ops, the result types of the ops that accept
// complex operands, and the ones that refuse them.
// RUN: ir-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: adj.func @parts
// CHECK: adj.complex %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<3xf32>
// CHECK: adj.real %{{.*}} : tensor<2x3xcomplex<f32>>
// CHECK: adj.imag %{{.*}} : tensor<2x3xcomplex<f32>>
// CHECK: adj.abs %{{.*}} : tensor<2x3xcomplex<f32>>
adj.func @parts(%re: tensor<2x3xf32>, %im: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = adj.complex %re, %im : tensor<2x3xf32>, tensor<3xf32>
  %r = adj.real %z : tensor<2x3xcomplex<f32>>
  %i = adj.imag %z : tensor<2x3xcomplex<f32>>
  %m = adj.abs %z : tensor<2x3xcomplex<f32>>
  adj.return %r, %i, %m : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: adj.func @arithmetic
// CHECK: adj.pow %{{.*}}, %{{.*}} : tensor<4xcomplex<f64>>, tensor<complex<f64>>
// CHECK: adj.cmp ne, %{{.*}}, %{{.*}} : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
// CHECK: adj.reduce_sum %{{.*}} axes = [0] : tensor<4xcomplex<f64>>
// CHECK: adj.cast %{{.*}} : tensor<4xcomplex<f64>> to tensor<4xf32>
adj.func @arithmetic(%a: tensor<4xcomplex<f64>>, %b: tensor<complex<f64>>) -> (tensor<4xcomplex<f64>>, tensor<4xi1>, tensor<complex<f64>>, tensor<4xf32>) {
  %0 = adj.mul %a, %b : tensor<4xcomplex<f64>>, tensor<complex<f64>>
  %1 = adj.div %0, %a : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
  %2 = adj.pow %1, %b : tensor<4xcomplex<f64>>, tensor<complex<f64>>
  %3 = adj.exp %2 : tensor<4xcomplex<f64>>
  %4 = adj.sqrt %3 : tensor<4xcomplex<f64>>
  %e = adj.cmp ne, %4, %a : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
  %s = adj.reduce_sum %4 axes = [0] : tensor<4xcomplex<f64>>
  %c = adj.cast %4 : tensor<4xcomplex<f64>> to tensor<4xf32>
  adj.return %4, %e, %s, %c : tensor<4xcomplex<f64>>, tensor<4xi1>, tensor<complex<f64>>, tensor<4xf32>
}

// CHECK-LABEL: adj.func @constant
// CHECK: adj.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
adj.func @constant() -> tensor<complex<f32>> {
  %c = adj.constant dense<(1.0, -2.0)> : tensor<complex<f32>>
  adj.return %c : tensor<complex<f32>>
}

// -----

adj.func @f(%z: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{adj.maximum: complex tensors are not supported}}
  %r = adj.maximum %z, %z : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  adj.return
}

// -----

adj.func @f(%z: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{adj.cmp: complex tensors are not supported}}
  %r = adj.cmp lt, %z, %z : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  adj.return
}

// -----

adj.func @f(%z: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{adj.relu: complex tensors are not supported}}
  %r = adj.relu %z : tensor<4xcomplex<f32>>
  adj.return
}

// -----

adj.func @f(%z: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{adj.atan2: expected a floating-point tensor}}
  %r = adj.atan2 %z, %z : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  adj.return
}

// -----

adj.func @f(%z: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{adj.reduce_max: complex tensors are not supported}}
  %r = adj.reduce_max %z axes = [0] : tensor<4xcomplex<f32>>
  adj.return
}

// -----

adj.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{adj.real: expected a complex tensor}}
  %r = adj.real %x : tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<4xf16>) {
  // expected-error @+1 {{adj.complex: expected f32 or f64 parts}}
  %r = adj.complex %x, %x : tensor<4xf16>, tensor<4xf16>
  adj.return
}

// -----

adj.func @f(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{adj.complex: operands must have one element type}}
  %r = adj.complex %x, %y : tensor<4xf32>, tensor<4xf64>
  adj.return
}

// -----

adj.func @f(%z: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{needs integer or float element types}}
  %r = adj.bitcast %z : tensor<4xcomplex<f32>> to tensor<4xi64>
  adj.return
}
