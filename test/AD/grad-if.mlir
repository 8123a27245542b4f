// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg true --arg 0.5 --arg 2 | FileCheck %s --check-prefix=TAKEN
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg false --arg 0.5 --arg 2 | FileCheck %s --check-prefix=OTHER

// Each branch yields its result and a backpropagator over the values the
// branches read from outside (%x and %y), zero for those it does not use;
// only the branch taken runs, so only it contributes.

// CHECK-LABEL: adj.func private @branch_fprop(
// CHECK-SAME:      %[[C:[^:]*]]: tensor<i1>, %[[X:[^:]*]]: tensor<f64>, %[[Y:[^:]*]]: tensor<f64>)
// CHECK:         %[[IF:.*]]:2 = adj.if %[[C]] : tensor<i1> -> (tensor<f64>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>) {
// CHECK:           %[[E:.*]] = adj.exp %[[X]]
// CHECK:           %[[TBP:.*]] = adj.lambda (%[[D:.*]]: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
// CHECK:             %[[DX:.*]] = adj.mul %[[D]], %[[E]]
// CHECK:             %[[ZY:.*]] = adj.zeros_like %[[Y]]
// CHECK:             adj.return %[[DX]], %[[ZY]]
// CHECK:           adj.yield %[[E]], %[[TBP]]
// CHECK:         } else {
// CHECK:           %[[EBP:.*]] = adj.lambda (%[[D2:.*]]: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
// CHECK:             %[[ZX:.*]] = adj.zeros_like %[[X]]
// CHECK:             adj.return %[[ZX]], %[[D2]]
// CHECK:           adj.yield %[[Y]], %[[EBP]]
// CHECK:         adj.lambda (%[[DR:.*]]: tensor<f64>) -> (!adj.env, tensor<i1>, tensor<f64>, tensor<f64>) {
// CHECK:           %[[S:.*]]:2 = adj.call %[[IF]]#1(%[[DR]])
// The condition is not differentiable: its sensitivity is zero.
// CHECK:           %[[ZC:.*]] = adj.zeros_like %[[C]] : tensor<i1>
// CHECK:           adj.return %{{.*}}, %[[ZC]], %[[S]]#0, %[[S]]#1

// exp(0.5) through the branch taken, nothing to %y:
// TAKEN: tensor<f64> 1.6487212707
// TAKEN-NEXT: tensor<f64> 0
// OTHER: tensor<f64> 0
// OTHER-NEXT: tensor<f64> 1
adj.func @branch(%c: tensor<i1>, %x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %e = adj.exp %x : tensor<f64>
    adj.yield %e : tensor<f64>
  } else {
    adj.yield %y : tensor<f64>
  }
  adj.return %r : tensor<f64>
}
adj.func @main(%c: tensor<i1>, %x: tensor<f64>, %y: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @branch : !adj.fn<(tensor<i1>, tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f wrt = [1, 2] : !adj.fn<(tensor<i1>, tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%c, %x, %y) : !adj.fn<(tensor<i1>, tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}
