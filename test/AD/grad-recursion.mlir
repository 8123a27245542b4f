// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - --arg 1.5 --arg 4 | FileCheck %s --check-prefix=VALUE

// Recursion needs nothing special: the forward function calls itself by
// symbol, and its backpropagator calls the backpropagator that the
// recursive call returned. The integer exponent gets a zero sensitivity.

// CHECK-LABEL: adj.func private @pow_fprop(
// CHECK-SAME:      %[[B:[^:]*]]: tensor<f64>, %[[N:[^:]*]]: tensor<i64>)
// CHECK:         adj.if
// CHECK:         } else {
// CHECK:           %[[SELF:.*]] = adj.func_ref @pow_fprop
// CHECK:           %[[REC:.*]]:2 = adj.call %[[SELF]](%[[B]], %{{.*}})
// CHECK:           %[[T:.*]] = adj.mul %[[REC]]#0, %[[B]]
// CHECK:           adj.lambda (%[[D:.*]]: tensor<f64>) -> tensor<f64> {
// CHECK:             %[[DS:.*]] = adj.mul %[[D]], %[[B]]
// CHECK:             %[[DB:.*]] = adj.mul %[[D]], %[[REC]]#0
// CHECK:             %[[INNER:.*]]:3 = adj.call %[[REC]]#1(%[[DS]])
// CHECK:             %[[SUM:.*]] = adj.grad_add %[[DB]], %[[INNER]]#1
// CHECK:             adj.return %[[SUM]]
// CHECK:         adj.zeros_like %[[N]] : tensor<i64>

// d/db b^4 at b = 1.5:
// VALUE: tensor<f64> 13.5
adj.func @pow(%b: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %o = adj.constant dense<1.0> : tensor<f64>
    adj.yield %o : tensor<f64>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %pw = adj.func_ref @pow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %s = adj.call %pw(%b, %m) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %t = adj.mul %s, %b : tensor<f64>, tensor<f64>
    adj.yield %t : tensor<f64>
  }
  adj.return %r : tensor<f64>
}
adj.func @main(%b: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %f = adj.func_ref @pow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %g = adj.grad %f wrt = [0] : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %d = adj.call %g(%b, %n) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}
