// RUN: ir-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// Round trip and type inference of the Bits ops, then their diagnostics
// after the splits.

// CHECK-LABEL: adj.func @bits
// CHECK: adj.bitwise_and %arg0, %arg1 : tensor<4xi32>, tensor<i32>
// CHECK: adj.shift_right_logical %arg2, %arg2 : tensor<2x1xi64>, tensor<2x1xi64>
// CHECK: adj.bitcast %arg0 : tensor<4xi32> to tensor<4xf32>
// CHECK: adj.threefry2x32 %arg1, %arg1, %arg1, %arg0 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>
// CHECK: adj.return {{.*}} : tensor<4xi32>, tensor<2x1xi64>, tensor<4xf32>, tensor<4xi64>
adj.func @bits(%a: tensor<4xi32>, %s: tensor<i32>, %w: tensor<2x1xi64>) -> (tensor<4xi32>, tensor<2x1xi64>, tensor<4xf32>, tensor<4xi64>) {
  %0 = adj.bitwise_and %a, %s : tensor<4xi32>, tensor<i32>
  %1 = adj.shift_right_logical %w, %w : tensor<2x1xi64>, tensor<2x1xi64>
  %2 = adj.bitcast %a : tensor<4xi32> to tensor<4xf32>
  %3 = adj.threefry2x32 %s, %s, %s, %a : tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>
  adj.return %0, %1, %2, %3 : tensor<4xi32>, tensor<2x1xi64>, tensor<4xf32>, tensor<4xi64>
}

// -----

adj.func @float_words(%x: tensor<4xf32>) {
  // expected-error @+1 {{adj.bitwise_xor: expected an i32 or i64 tensor, got 'tensor<4xf32>'}}
  %r = adj.bitwise_xor %x, %x : tensor<4xf32>, tensor<4xf32>
  adj.return
}

// -----

adj.func @bool_words(%x: tensor<4xi1>) {
  // expected-error @+1 {{adj.shift_left: expected an i32 or i64 tensor}}
  %r = adj.shift_left %x, %x : tensor<4xi1>, tensor<4xi1>
  adj.return
}

// -----

adj.func @mixed_words(%x: tensor<4xi32>, %y: tensor<4xi64>) {
  // expected-error @+1 {{adj.bitwise_or: operands must have one element type}}
  %r = adj.bitwise_or %x, %y : tensor<4xi32>, tensor<4xi64>
  adj.return
}

// -----

adj.func @bitcast_width(%x: tensor<4xi32>) {
  // expected-error @+1 {{needs element types of one width (not i1), got 'i32' and 'f64'}}
  %r = adj.bitcast %x : tensor<4xi32> to tensor<4xf64>
  adj.return
}

// -----

adj.func @bitcast_shape(%x: tensor<4xi32>) {
  // expected-error @+1 {{changes the shape: [4] to [2, 2]}}
  %r = adj.bitcast %x : tensor<4xi32> to tensor<2x2xf32>
  adj.return
}

// -----

adj.func @threefry_i64(%x: tensor<4xi64>, %k: tensor<i32>) {
  // expected-error @+1 {{adj.threefry2x32: expected i32 words, got 'tensor<4xi64>'}}
  %r = adj.threefry2x32 %k, %k, %k, %x : tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi64>
  adj.return
}

// -----

adj.func @threefry_shapes(%x: tensor<4xi32>, %y: tensor<3xi32>) {
  // expected-error @+1 {{shapes [4] and [3] do not broadcast}}
  %r = adj.threefry2x32 %x, %x, %x, %y : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<3xi32>
  adj.return
}
