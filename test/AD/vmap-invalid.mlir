// RUN: ir-opt %s -adj-grad -split-input-file -verify-diagnostics

// One in_axes entry per argument.
adj.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  adj.return %x : tensor<3xf32>
}
adj.func @main() {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  // expected-error @+1 {{expected one in_axes entry per argument (1) and one out_axes entry per result (1), got 2 and 1}}
  %v = adj.vmap %f in_axes = [0, 0] out_axes = [0] batch_size = 4 : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  adj.return
}

// -----

adj.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  adj.return %x : tensor<3xf32>
}
adj.func @main() {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  // expected-error @+1 {{axis 2 of argument #0 is out of range}}
  %v = adj.vmap %f in_axes = [2] out_axes = [0] batch_size = 4 : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  adj.return
}

// -----

adj.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  adj.return %x : tensor<3xf32>
}
adj.func @main() {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  // expected-error @+1 {{no argument is batched}}
  %v = adj.vmap %f in_axes = [-1] out_axes = [0] batch_size = 4 : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  adj.return
}

// -----

// A loop whose trip count differs per example cannot be batched.
adj.func @f(%n: tensor<i64>) -> tensor<f32> {
  %zero = adj.constant dense<0.0> : tensor<f32>
  %lb = adj.constant dense<0> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  // expected-error @+1 {{cannot be batched: its trip count depends on the batch}}
  %r = adj.for %lb to %n step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%zero : tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<i64>, %acc: tensor<f32>):
    adj.yield %acc : tensor<f32>
  }
  adj.return %r : tensor<f32>
}
adj.func @main(%ns: tensor<4xi64>) -> tensor<4xf32> {
  %f = adj.func_ref @f : !adj.fn<(tensor<i64>) -> tensor<f32>>
  %v = adj.vmap %f in_axes = [0] out_axes = [0] batch_size = 4 : !adj.fn<(tensor<i64>) -> tensor<f32>>
  %r = adj.call %v(%ns) : !adj.fn<(tensor<4xi64>) -> tensor<4xf32>>
  adj.return %r : tensor<4xf32>
}

// -----

// A function value received as an argument has no known code to batch.
adj.func @main(%g: !adj.fn<(tensor<f32>) -> tensor<f32>>, %xs: tensor<4xf32>) -> tensor<4xf32> {
  %f = adj.lambda (%x: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{cannot batch a call of a function value whose code is not known here}}
    %y = adj.call %g(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    adj.return %y : tensor<f32>
  }
  %v = adj.vmap %f in_axes = [0] out_axes = [0] batch_size = 4 : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %r = adj.call %v(%xs) : !adj.fn<(tensor<4xf32>) -> tensor<4xf32>>
  adj.return %r : tensor<4xf32>
}

// -----

// checkpoint (or custom_vjp, custom_jvp) of a function received from
// outside: the batched op needs the batched form of the function's code.
adj.func @main(%g: !adj.fn<(tensor<f32>) -> tensor<f32>>, %xs: tensor<4xf32>) -> tensor<4xf32> {
  %f = adj.lambda (%x: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{vmap: cannot give the batch to a value of type '!adj.fn<(tensor<f32>) -> tensor<f32>>' whose code is not known here}}
    %c = adj.checkpoint %g : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %y = adj.call %c(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    adj.return %y : tensor<f32>
  }
  %v = adj.vmap %f in_axes = [0] out_axes = [0] batch_size = 4 : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %r = adj.call %v(%xs) : !adj.fn<(tensor<4xf32>) -> tensor<4xf32>>
  adj.return %r : tensor<4xf32>
}

// -----

// out_axes = -1 on a result that depends on the batch (JAX: "vmap has
// mapped output but out_axes is None").
adj.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>) {
  %p = adj.mul %x, %w : tensor<3xf32>, tensor<3xf32>
  %s = adj.reduce_sum %w axes = [0] : tensor<3xf32>
  adj.return %p, %s : tensor<3xf32>, tensor<f32>
}
adj.func @main(%xs: tensor<2x3xf32>, %w: tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>)>
  // expected-error @+1 {{result #0 depends on the batch but its out_axes entry is -1 (not batched): vmap has mapped output but out_axes is None}}
  %v = adj.vmap %f in_axes = [0, -1] out_axes = [-1, -1] batch_size = 2 : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>)>
  %r:2 = adj.call %v(%xs, %w) : !adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>)>
  adj.return %r#0, %r#1 : tensor<3xf32>, tensor<f32>
}

// -----

// Axes below -1 are refused by the type inference.
adj.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  adj.return %x : tensor<3xf32>
}
adj.func @main() {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  // expected-error @+1 {{axes are non-negative or -1 (not batched), got -2 for result #0}}
  %v = adj.vmap %f in_axes = [0] out_axes = [-2] batch_size = 4 : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
  adj.return
}

// -----

// A function received from outside, passed to a top-level function that
// calls it on batched values: one diagnostic, at that call (passing it is
// not an error in itself).
adj.func @apply(%h: !adj.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot batch a call of a function value whose code is not known here}}
  %y = adj.call %h(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}
adj.func @main(%h: !adj.fn<(tensor<f32>) -> tensor<f32>>, %xs: tensor<4xf32>) -> tensor<4xf32> {
  %f = adj.func_ref @apply : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
  %v = adj.vmap %f in_axes = [-1, 0] out_axes = [0] batch_size = 4 : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
  %r = adj.call %v(%h, %xs) : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<4xf32>) -> tensor<4xf32>>
  adj.return %r : tensor<4xf32>
}
