// RUN: ir-opt %s -adj-grad | FileCheck %s

// The forward function returns its value and a backpropagator closure over
// the forward values it needs; the request becomes a closure that seeds the
// backpropagator with ones. Two uses of %x add their sensitivities.

// CHECK-LABEL: adj.func @main
// CHECK:         %[[FP:.*]] = adj.func_ref @sq_fprop : !adj.fn<(tensor<f64>) -> (tensor<f64>, !adj.fn<(tensor<f64>) -> (!adj.env, tensor<f64>)>)>
// CHECK:         %[[G:.*]] = adj.lambda (%[[A:.*]]: tensor<f64>) -> tensor<f64> {
// CHECK:           %[[R:.*]]:2 = adj.call %[[FP]](%[[A]])
// CHECK:           %[[ONE:.*]] = adj.fill 1.000000e+00 : tensor<f64>
// CHECK:           %[[S:.*]]:2 = adj.call %[[R]]#1(%[[ONE]])
// CHECK:           adj.return %[[S]]#1 : tensor<f64>
// CHECK:         adj.call %[[G]](%arg0)
// CHECK-NOT:     adj.grad

// CHECK-LABEL: adj.func private @sq_fprop(
// CHECK-SAME:      %[[X:.*]]: tensor<f64>) -> (tensor<f64>, !adj.fn<(tensor<f64>) -> (!adj.env, tensor<f64>)>)
// CHECK:         %[[Y:.*]] = adj.mul %[[X]], %[[X]]
// CHECK:         %[[Z:.*]] = adj.sin %[[Y]]
// CHECK:         %[[BP:.*]] = adj.lambda (%[[D:.*]]: tensor<f64>) -> (!adj.env, tensor<f64>) {
// CHECK:           %[[COS:.*]] = adj.cos %[[Y]]
// CHECK:           %[[DY:.*]] = adj.mul %[[D]], %[[COS]]
// CHECK:           %[[D1:.*]] = adj.mul %[[DY]], %[[X]]
// CHECK:           %[[D2:.*]] = adj.mul %[[DY]], %[[X]]
// CHECK:           %[[DX:.*]] = adj.grad_add %[[D1]], %[[D2]]
// CHECK:           %[[ENV:.*]] = adj.env_new
// CHECK:           adj.return %[[ENV]], %[[DX]] : !adj.env, tensor<f64>
// CHECK:         adj.return %[[Z]], %[[BP]]
adj.func @sq(%x: tensor<f64>) -> tensor<f64> {
  %y = adj.mul %x, %x : tensor<f64>, tensor<f64>
  %z = adj.sin %y : tensor<f64>
  adj.return %z : tensor<f64>
}
adj.func @main(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @sq : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}
