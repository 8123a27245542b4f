// The programs of infer-promote.mlir compute the promoted values once
// inferred (the reference interpreter runs them), and -adj-grad works on
// them.
// RUN: ir-opt %s -adj-infer | ir-run - -f mix --arg "[1,2,3]" --arg 0.5 --arg 2 | FileCheck %s --check-prefix=MIX
// RUN: ir-opt %s -adj-infer | ir-run - -f fact --arg 3.5 | FileCheck %s --check-prefix=FACT
// RUN: ir-opt %s -adj-infer -adj-check-typed -adj-grad | ir-run - -f dfact --arg 3.5 | FileCheck %s --check-prefix=DFACT
// RUN: ir-opt %s -adj-infer | ir-run - -f loops --arg "[1,2,3]" --arg 4 | FileCheck %s --check-prefix=LOOPS

// MIX: tensor<3xf64> [1.5, 2.5, 3.5]
// MIX-NEXT: tensor<3xi1> [false, false, true]
// MIX-NEXT: tensor<3xf64> [1.5, 2.5, 2]
// fact(3.5) = 3.5 * 2.5 * 1.5, and its derivative 3n^2 - 6n + 2 at 3.5:
// FACT: tensor<f32> 13.125
// DFACT: tensor<f32> 17.75
// LOOPS: tensor<3xf32> [4, 8, 12]
// LOOPS-NEXT: tensor<i64> 4
adj.func @mixed(%a: !adj.any, %b: !adj.any, %n: !adj.any) -> (!adj.any, !adj.any, !adj.any) {
  %s = adj.add %a, %b : !adj.any, !adj.any
  %c = adj.cmp lt, %n, %a : !adj.any, !adj.any
  %t = adj.select %c, %n, %s : !adj.any, !adj.any, !adj.any
  adj.return %s, %c, %t : !adj.any, !adj.any, !adj.any
}
adj.func @mix(%a: tensor<3xf32>, %b: tensor<f64>, %n: tensor<i64>) -> (!adj.any, !adj.any, !adj.any) {
  %f = adj.func_ref @mixed : !adj.any
  %r:3 = adj.call %f(%a, %b, %n) : !adj.any (tensor<3xf32>, tensor<f64>, tensor<i64>) -> (!adj.any, !adj.any, !adj.any)
  adj.return %r#0, %r#1, %r#2 : !adj.any, !adj.any, !adj.any
}
adj.func @fact(%n: !adj.any) -> !adj.any {
  %one = adj.constant dense<1.0> : tensor<f32>
  %ione = adj.constant dense<1> : tensor<i64>
  %c = adj.cmp le, %n, %one : !adj.any, tensor<f32>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    adj.yield %ione : tensor<i64>
  } else {
    %m = adj.sub %n, %one : !adj.any, tensor<f32>
    %f = adj.func_ref @fact : !adj.any
    %r1 = adj.call %f(%m) : !adj.any (!adj.any) -> (!adj.any)
    %p = adj.mul %n, %r1 : !adj.any, !adj.any
    adj.yield %p : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @dfact(%x: tensor<f32>) -> !adj.any {
  %f = adj.func_ref @fact : !adj.any
  %g = adj.grad %f : !adj.any
  %d = adj.call %g(%x) : !adj.any (tensor<f32>) -> (!adj.any)
  adj.return %d : !adj.any
}
adj.func @loops(%v: tensor<3xf32>, %n: tensor<i64>) -> (!adj.any, !adj.any) {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%zero : tensor<i64>) -> !adj.any {
  ^bb0(%i: !adj.any, %acc: !adj.any):
    %y = adj.add %acc, %v : !adj.any, tensor<3xf32>
    adj.yield %y : !adj.any
  }
  %k0 = adj.constant dense<0> : tensor<i32>
  %w = adj.while (%k0 : tensor<i32>) -> !adj.any cond {
  ^bb0(%k: !adj.any):
    %c = adj.cmp lt, %k, %n : !adj.any, tensor<i64>
    adj.yield %c : !adj.any
  } do {
  ^bb0(%k: !adj.any):
    %k1 = adj.add %k, %one : !adj.any, tensor<i64>
    adj.yield %k1 : !adj.any
  }
  adj.return %r, %w : !adj.any, !adj.any
}
