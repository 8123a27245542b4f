// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - --arg 0.5 --arg 2.0 | FileCheck %s --check-prefix=VALUE

// A loop carries, next to its values, the backpropagator of the iterations
// run so far: the identity at first, then one closure per iteration that
// calls the body's backpropagator and then the previous one. The free
// variable %w of the body gets the sum of its sensitivities over iterations.

// CHECK-LABEL: adj.func private @loop_fprop(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[W:[^:]*]]: tensor<f64>)
// CHECK:         %[[ID:.*]] = adj.lambda (%[[D0:.*]]: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
// CHECK:           %[[Z:.*]] = adj.zeros_like %[[W]]
// CHECK:           adj.return %[[D0]], %[[Z]]
// CHECK:         %[[L:.*]]:2 = adj.for {{.*}} iter_args(%[[X]], %[[ID]] : tensor<f64>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>)
// CHECK:         ^bb0(%{{.*}}: tensor<i64>, %[[C:.*]]: tensor<f64>, %[[ACC:.*]]: !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>):
// CHECK:           %[[S:.*]] = adj.sin %[[C]]
// CHECK:           %[[NEXT:.*]] = adj.mul %[[S]], %[[W]]
// CHECK:           %[[STEP:.*]] = adj.lambda
// CHECK:           %[[COMPOSED:.*]] = adj.lambda (%[[D:.*]]: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
// CHECK:             %[[IN:.*]]:3 = adj.call %[[STEP]](%[[D]])
// CHECK:             %[[OUT:.*]]:2 = adj.call %[[ACC]](%[[IN]]#2)
// CHECK:             %[[DW:.*]] = adj.grad_add %[[OUT]]#1, %[[IN]]#0
// CHECK:             adj.return %[[OUT]]#0, %[[DW]]
// CHECK:           adj.yield %[[NEXT]], %[[COMPOSED]]
// CHECK:         adj.lambda
// CHECK:           adj.call %[[L]]#1(

// x_{k+1} = sin(x_k) * w, three steps, from x = 0.5 with w = 2:
// d/dx and d/dw, checked against central differences.
// VALUE: tensor<f64> -0.26706898
// VALUE-NEXT: tensor<f64> 0.81644949
adj.func @loop(%x: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<3> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r = adj.for %lb to %ub step %one : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%x : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %c: tensor<f64>):
    %s = adj.sin %c : tensor<f64>
    %n = adj.mul %s, %w : tensor<f64>, tensor<f64>
    adj.yield %n : tensor<f64>
  }
  adj.return %r : tensor<f64>
}
adj.func @main(%x: tensor<f64>, %w: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @loop : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %w) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}
