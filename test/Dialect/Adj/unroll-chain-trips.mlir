// RUN: ir-opt %s -adj-grad -adj-unroll | FileCheck %s
// RUN: ir-opt %s -adj-grad -adj-unroll=max-chain-trips=16 | FileCheck %s --check-prefix=UNROLLED
// RUN: ir-opt %s -adj-grad -adj-optimize | FileCheck %s --check-prefix=OPT

// Twelve trips of `x = sin(x) * w`: more than max-chain-trips (8), so the
// loop that carries only tensors and its backpropagator chain is left to
// -adj-reverse-loops (a stack and a reverse loop) instead of being unrolled.
// CHECK-LABEL: adj.func private @loop_fprop(
// CHECK:         adj.for
// UNROLLED-LABEL: adj.func private @loop_fprop(
// UNROLLED-NOT:   adj.for
// UNROLLED-COUNT-12: adj.sin
// OPT-LABEL: adj.func @grad(
// OPT:         adj.for
// OPT:         adj.scatter set
// OPT:         adj.for
// OPT:         adj.gather
// OPT-NOT:     adj.call
// OPT:         adj.return
adj.func private @loop(%x: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<12> : tensor<i64>
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
