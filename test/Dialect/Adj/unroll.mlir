// RUN: ir-opt %s -adj-grad -adj-unroll | FileCheck %s
// RUN: ir-opt %s -adj-grad -adj-unroll -adj-inline -canonicalize | FileCheck %s --check-prefix=FLAT
// RUN: ir-opt %s -adj-grad -adj-unroll -adj-inline | ir-run - -f grad --arg 0.5 --arg 2.0 | FileCheck %s --check-prefix=VALUE

// The backward pass of a loop with a constant trip count: unrolled, the
// chain of backpropagator closures becomes straight-line code. The primal
// loop, which carries only tensors, stays a loop.
// CHECK-LABEL: adj.func private @loop(
// CHECK:         adj.for
// CHECK-LABEL: adj.func private @loop_fprop(
// CHECK-NOT:     adj.for
// CHECK-COUNT-3: adj.sin
// FLAT-LABEL: adj.func @grad
// FLAT-NOT:     adj.lambda
// FLAT-NOT:     adj.call
// FLAT-NOT:     adj.for
// FLAT:         adj.return
// VALUE: tensor<f64> -0.26706898
// VALUE-NEXT: tensor<f64> 0.81644949
adj.func private @loop(%x: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
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
adj.func @grad(%x: tensor<f64>, %w: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @loop : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %w) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}
