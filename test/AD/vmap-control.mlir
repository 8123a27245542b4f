// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg "[1,-2,3]" --arg 2 | FileCheck %s --check-prefix=VALUE

// A conditional on a batched predicate computes both branches and selects
// per example; one on a shared predicate stays an adj.if whose result is
// batched because one branch's is. A loop whose carried value starts shared
// and becomes batched in the body is rebuilt with it batched (the
// fixpoint); its trip count is shared.

// CHECK-LABEL: adj.func private @f_vmap3_10(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<3xf64>, %[[N:[^:]*]]: tensor<f64>) -> tensor<3xf64>
// CHECK:         %[[C:.*]] = adj.cmp gt, %[[X]], %{{.*}} : tensor<3xf64>, tensor<f64>
// CHECK:         %[[NEG:.*]] = adj.neg %[[X]] : tensor<3xf64>
// CHECK:         adj.select %[[C]], %[[X]], %[[NEG]] : tensor<3xi1>, tensor<3xf64>, tensor<3xf64>
// CHECK:         %[[Z:.*]] = adj.cmp gt, %[[N]], %{{.*}} : tensor<f64>, tensor<f64>
// CHECK:         adj.if %[[Z]] : tensor<i1> -> (tensor<3xf64>) {
// CHECK:           adj.broadcast_to %[[N]] : tensor<f64> to tensor<3xf64>
// CHECK:         } else {
// CHECK:         %[[INIT:.*]] = adj.broadcast_to %{{.*}} : tensor<f64> to tensor<3xf64>
// CHECK:         adj.for {{.*}} iter_args(%[[INIT]] : tensor<3xf64>) -> tensor<3xf64> {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<i64>, %[[ACC:.*]]: tensor<3xf64>):
// CHECK-NEXT:      adj.add %[[ACC]], %[[X]] : tensor<3xf64>, tensor<3xf64>

// f(x, n) = (|x| + (n > 0 ? n : x)) + 3 x: x = [1, -2, 3], n = 2.
// VALUE: tensor<3xf64> [6, -2, 14]
adj.func @f(%x: tensor<f64>, %n: tensor<f64>) -> tensor<f64> {
  %zero = adj.constant dense<0.0> : tensor<f64>
  %c = adj.cmp gt, %x, %zero : tensor<f64>, tensor<f64>
  %a = adj.if %c : tensor<i1> -> (tensor<f64>) {
    adj.yield %x : tensor<f64>
  } else {
    %m = adj.neg %x : tensor<f64>
    adj.yield %m : tensor<f64>
  }
  %p = adj.cmp gt, %n, %zero : tensor<f64>, tensor<f64>
  %b = adj.if %p : tensor<i1> -> (tensor<f64>) {
    adj.yield %n : tensor<f64>
  } else {
    adj.yield %x : tensor<f64>
  }
  %s = adj.add %a, %b : tensor<f64>, tensor<f64>
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<3> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%zero : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %acc: tensor<f64>):
    %y = adj.add %acc, %x : tensor<f64>, tensor<f64>
    adj.yield %y : tensor<f64>
  }
  %out = adj.add %s, %r : tensor<f64>, tensor<f64>
  adj.return %out : tensor<f64>
}
adj.func @main(%xs: tensor<3xf64>, %n: tensor<f64>) -> tensor<3xf64> {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %v = adj.vmap %f in_axes = [0, -1] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %r = adj.call %v(%xs, %n) : !adj.fn<(tensor<3xf64>, tensor<f64>) -> tensor<3xf64>>
  adj.return %r : tensor<3xf64>
}
