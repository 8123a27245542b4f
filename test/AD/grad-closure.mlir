// RUN: ir-opt %s -adj-grad | FileCheck %s

// A closure's forward version returns its own backpropagator, which puts the
// sensitivity of the free variable %x into the environment under a key; the
// function that made the closure reads it back with the same key.

// CHECK-LABEL: adj.func private @closure_fprop(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[Y:[^:]*]]: tensor<f64>)
// CHECK:         %[[G:.*]] = adj.lambda (%[[Z:.*]]: tensor<f64>) -> (tensor<f64>, !adj.fn<(tensor<f64>) -> (!adj.env, tensor<f64>)>) {
// CHECK:           %[[A:.*]] = adj.mul %[[Z]], %[[X]]
// CHECK:           %[[GBP:.*]] = adj.lambda (%[[DA:.*]]: tensor<f64>) -> (!adj.env, tensor<f64>) {
// CHECK:             %[[DZ:.*]] = adj.mul %[[DA]], %[[X]]
// CHECK:             %[[DX:.*]] = adj.mul %[[DA]], %[[Z]]
// CHECK:             %[[E0:.*]] = adj.env_new
// CHECK:             %[[E1:.*]] = adj.env_set %[[E0]][[[KEY:[0-9]+]]], %[[DX]]
// CHECK:             adj.return %[[E1]], %[[DZ]]
// CHECK:           adj.return %[[A]], %[[GBP]]
// CHECK:         %[[R:.*]]:2 = adj.call %[[G]](%[[Y]])
// CHECK:         adj.lambda (%[[D:.*]]: tensor<f64>) -> (!adj.env, tensor<f64>, tensor<f64>) {
// CHECK:           %[[S:.*]]:2 = adj.call %[[R]]#1(%[[D]])
// CHECK:           %[[FVX:.*]] = adj.env_get %[[S]]#0[[[KEY]]] : !adj.env -> tensor<f64>
// CHECK:           adj.return %{{.*}}, %[[FVX]], %[[S]]#1
adj.func @closure(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %g = adj.lambda (%z: tensor<f64>) -> tensor<f64> {
    %a = adj.mul %z, %x : tensor<f64>, tensor<f64>
    adj.return %a : tensor<f64>
  }
  %r = adj.call %g(%y) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %r : tensor<f64>
}
adj.func @main(%x: tensor<f64>, %y: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @closure : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %y) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}
