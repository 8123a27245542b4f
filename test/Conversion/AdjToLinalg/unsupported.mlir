// Ops that -adj-to-linalg does not handle yet are errors naming the op.
// RUN: ir-opt %s -adj-to-linalg -split-input-file -verify-diagnostics

adj.func @conv(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{adj.conv2d is not supported by -adj-to-linalg yet}}
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>
  adj.return %y : tensor<1x1x2x2xf32>
}

// -----

adj.func @slice(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{adj.slice is not supported by -adj-to-linalg yet}}
  %y = adj.slice %x start = [0] limit = [2] stride = [1] : tensor<4xf32>
  adj.return %y : tensor<2xf32>
}

// -----

adj.func @bmm(%a: tensor<1x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  // expected-error @+1 {{adj.matmul with broadcast batch dimensions}}
  %c = adj.matmul %a, %b : tensor<1x2x3xf32>, tensor<5x3x4xf32>
  adj.return %c : tensor<5x2x4xf32>
}

// -----

adj.func @closure(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{adj.lambda is not supported by -adj-to-linalg yet}}
  %f = adj.lambda (%y: tensor<f32>) -> tensor<f32> {
    %s = adj.add %x, %y : tensor<f32>, tensor<f32>
    adj.return %s : tensor<f32>
  }
  // expected-error @+1 {{adj.call of a function value other than adj.func_ref is not supported}}
  %r = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %r : tensor<f32>
}

// -----

// The body of a rejected function is not reported again.
// expected-error @+1 {{adj.func with an argument of type 'tensor<?xf32>' is not supported}}
adj.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = adj.exp %x : tensor<?xf32>
  adj.return %y : tensor<?xf32>
}

// -----

// One error for the loop, none for its adj.yield.
adj.func @loop(%x: tensor<f32>, %lb: tensor<i64>, %ub: tensor<i64>, %st: tensor<i64>) -> tensor<f32> {
  // expected-error @+1 {{adj.for is not supported by -adj-to-linalg yet}}
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<i64>, %a: tensor<f32>):
    %y = adj.mul %a, %a : tensor<f32>, tensor<f32>
    adj.yield %y : tensor<f32>
  }
  adj.return %r : tensor<f32>
}
