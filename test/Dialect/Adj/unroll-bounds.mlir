// RUN: ir-opt %s -split-input-file -adj-grad -adj-unroll | FileCheck %s
// RUN: ir-opt %s -split-input-file -adj-grad -adj-optimize | FileCheck %s --check-prefix=OPT

// Trip counts near the ends of int64_t. A loop from INT64_MIN to 3 runs
// 2^63 + 3 times: too many to unroll. Its trip count used to overflow
// (to a negative count, so zero copies), and the gradient then folded to
// 1.0 as if the loop did not run.
// CHECK-LABEL: adj.func private @f_fprop(
// CHECK:         adj.for
// OPT-LABEL: adj.func @main(
// OPT:         %[[LOOP:.*]]:2 = adj.for
// OPT:         %[[SEED:.*]] = adj.fill 1.0
// OPT-NEXT:    %[[D:.*]] = adj.call %[[LOOP]]#1(%[[SEED]])
// OPT-NEXT:    adj.return %[[D]]
adj.func @f(%x: tensor<f64>) -> tensor<f64> {
  %lb = adj.constant dense<-9223372036854775808> : tensor<i64>
  %ub = adj.constant dense<3> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %l = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %v: tensor<f64>):
    %w = adj.mul %v, %v : tensor<f64>, tensor<f64>
    adj.yield %w : tensor<f64>
  }
  adj.return %l : tensor<f64>
}
adj.func @main(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}

// -----

// Three trips with a step of 2^62 from INT64_MIN: i * step alone overflows
// on the last one, lb + i * step does not.
// CHECK-LABEL: adj.func private @f_fprop(
// CHECK-NOT:     adj.for
// CHECK:         dense<-9223372036854775808>
// CHECK:         dense<-4611686018427387904>
// CHECK:         dense<0>
// CHECK-NOT:     adj.for
adj.func @f(%x: tensor<f64>) -> tensor<f64> {
  %lb = adj.constant dense<-9223372036854775808> : tensor<i64>
  %ub = adj.constant dense<3> : tensor<i64>
  %st = adj.constant dense<4611686018427387904> : tensor<i64>
  %l = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %v: tensor<f64>):
    %c = adj.cast %i : tensor<i64> to tensor<f64>
    %w = adj.mul %v, %c : tensor<f64>, tensor<f64>
    adj.yield %w : tensor<f64>
  }
  adj.return %l : tensor<f64>
}
adj.func @main(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}
