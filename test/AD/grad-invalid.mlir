// RUN: ir-opt %s -split-input-file -adj-grad -verify-diagnostics

adj.func @untyped(%f: !adj.any, %x: tensor<f64>) -> !adj.any {
  // expected-error @+1 {{needs a typed function (run -adj-infer first)}}
  %g = adj.grad %f : !adj.any
  adj.return %g : !adj.any
}

// -----

// The forward version of a function passed in as a parameter is unknown.
// expected-error @+1 {{cannot differentiate through function-valued argument #0}}
adj.func @param(%f: !adj.fn<(tensor<f64>) -> tensor<f64>>, %x: tensor<f64>) -> tensor<f64> {
  %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}

// -----

adj.func @count(%x: tensor<f64>) -> tensor<i64> {
  %c = adj.cast %x : tensor<f64> to tensor<i64>
  adj.return %c : tensor<i64>
}
adj.func @int_result(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @count : !adj.fn<(tensor<f64>) -> tensor<i64>>
  // expected-error @+1 {{needs a floating-point tensor result to seed with ones, got 'tensor<i64>'}}
  %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<i64>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}

// -----

adj.func @higher(%h: !adj.fn<(tensor<f64>) -> tensor<f64>>) -> tensor<f64> {
  %one = adj.constant dense<1.0> : tensor<f64>
  %r = adj.call %h(%one) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %r : tensor<f64>
}
adj.func @fn_param(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @higher : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>) -> tensor<f64>>
  // expected-error @+1 {{cannot differentiate a function whose parameters or results are functions}}
  %g = adj.grad %f : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>) -> tensor<f64>>
  adj.return %x : tensor<f64>
}
