// Ops that -adj-to-linalg does not handle yet are errors naming the op.
// RUN: ir-opt %s -adj-to-linalg -split-input-file -verify-diagnostics

// Closures must be closure-converted first (adj.closure is supported).
adj.func @closure(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{adj.lambda is not supported by -adj-to-linalg: run -adj-closure-convert}}
  %f = adj.lambda (%y: tensor<f32>) -> tensor<f32> {
    %s = adj.add %x, %y : tensor<f32>, tensor<f32>
    adj.return %s : tensor<f32>
  }
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
adj.func @loop(%x: tensor<4xf32>, %lb: tensor<i64>, %ub: tensor<i64>, %st: tensor<i64>) -> tensor<f32> {
  // expected-error @+1 {{adj.cast on a value of type 'tensor<?xf32>' is not supported}}
  %d = adj.cast %x : tensor<4xf32> to tensor<?xf32>
  // expected-error @+1 {{adj.for with an operand of type 'tensor<?xf32>' is not supported}}
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%d : tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%i: tensor<i64>, %a: tensor<?xf32>):
    adj.yield %a : tensor<?xf32>
  }
  // expected-error @+1 {{adj.reduce_sum on a value of type 'tensor<?xf32>' is not supported}}
  %s = adj.reduce_sum %r axes = [0] : tensor<?xf32>
  adj.return %s : tensor<f32>
}
