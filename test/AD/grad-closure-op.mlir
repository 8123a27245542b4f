// RUN: ir-opt %s -split-input-file -adj-grad -verify-diagnostics

// adj.closure comes from -adj-closure-convert, which runs after -adj-grad:
// differentiating one is a diagnostic, not a crash. Reverse mode:

adj.func private @scale(%s: tensor<f64>, %x: tensor<f64>) -> tensor<f64> {
  %y = adj.mul %s, %x : tensor<f64>, tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func @f(%s: tensor<f64>, %x: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{'adj.closure' op has no derivative rule}}
  %c = adj.closure @scale(%s) : (tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>
  %y = adj.call %c(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}
adj.func @main(%s: tensor<f64>, %x: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%s, %x) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}

// -----

// Forward mode:
adj.func private @scale(%s: tensor<f64>, %x: tensor<f64>) -> tensor<f64> {
  %y = adj.mul %s, %x : tensor<f64>, tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func @f(%s: tensor<f64>, %x: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{'adj.closure' op has no derivative rule}}
  %c = adj.closure @scale(%s) : (tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>
  %y = adj.call %c(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}
adj.func @main(%s: tensor<f64>, %x: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.jvp %f wrt = [0] : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%s, %x, %s) : !adj.fn<(tensor<f64>, tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}
