// RUN: ir-opt %s -adj-grad -adj-optimize | FileCheck %s
// RUN: ir-opt %s -adj-grad -adj-optimize | ir-run - -f main --arg 0.3 --arg 0.7 | FileCheck %s --check-prefix=VALUE
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg 0.3 --arg 0.7 | FileCheck %s --check-prefix=VALUE

// The gradient of a program with a closure, a conditional and a loop with a
// constant trip count becomes first-order code: no closure, no call, no
// environment, no tuple; it computes the same gradient.
// CHECK-LABEL: adj.func @main(
// CHECK-NOT:     adj.lambda
// CHECK-NOT:     adj.call
// CHECK-NOT:     adj.env_
// CHECK-NOT:     adj.tuple
// CHECK-NOT:     adj.get
// CHECK-NOT:     adj.closure
// CHECK:         adj.return
// VALUE: tensor<f64> 0.206955178844
// VALUE-NEXT: tensor<f64> -0.047797004464

adj.func private @f(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %g = adj.lambda (%z: tensor<f64>) -> tensor<f64> {
    %a = adj.mul %z, %x : tensor<f64>, tensor<f64>
    %b = adj.add %a, %y : tensor<f64>, tensor<f64>
    adj.return %b : tensor<f64>
  }
  %gx = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %gy = adj.call %g(%y) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %p = adj.mul %gx, %gy : tensor<f64>, tensor<f64>
  %zero = adj.constant dense<0.0> : tensor<f64>
  %c = adj.cmp gt, %x, %zero : tensor<f64>, tensor<f64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %e = adj.exp %p : tensor<f64>
    adj.yield %e : tensor<f64>
  } else {
    %s = adj.mul %p, %y : tensor<f64>, tensor<f64>
    adj.yield %s : tensor<f64>
  }
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<3> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %l = adj.for %lb to %ub step %one : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%r : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %acc: tensor<f64>):
    %t = adj.sin %acc : tensor<f64>
    %u = adj.mul %t, %x : tensor<f64>, tensor<f64>
    adj.yield %u : tensor<f64>
  }
  adj.return %l : tensor<f64>
}
adj.func @main(%x: tensor<f64>, %y: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %y) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}
