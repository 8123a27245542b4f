// RUN: ir-opt %s -split-input-file -adj-infer | FileCheck %s
// RUN: ir-opt %s -split-input-file -adj-infer -adj-check-typed > /dev/null
// RUN: ir-opt %s -split-input-file -adj-infer | ir-opt - -split-input-file -adj-infer | FileCheck %s

// Promotion and joins (Promotion.h: i1 < i32 < i64 < {bf16, f16} < f32 <
// f64) in untyped programs: inference inserts the adj.cast and
// adj.broadcast_to that the strict ops need. The values are checked in
// infer-promote-values.mlir.

// Binary ops on two dtypes cast the operand of the lower one; select
// promotes its two choices; cmp compares in the promoted dtype.
// CHECK-LABEL: adj.func @mix(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<3xf32>, %[[B:[^:]*]]: tensor<f64>, %[[N:[^:]*]]: tensor<i64>) -> (tensor<3xf64>, tensor<3xi1>, tensor<3xf64>, tensor<i64>)
// CHECK:         %[[A64:.*]] = adj.cast %[[A]] : tensor<3xf32> to tensor<3xf64>
// CHECK:         %[[S:.*]] = adj.add %[[A64]], %[[B]] : tensor<3xf64>, tensor<f64>
// CHECK:         %[[N32:.*]] = adj.cast %[[N]] : tensor<i64> to tensor<f32>
// CHECK:         %[[C:.*]] = adj.cmp lt, %[[N32]], %[[A]] : tensor<f32>, tensor<3xf32>
// CHECK:         %[[N64:.*]] = adj.cast %[[N]] : tensor<i64> to tensor<f64>
// CHECK:         adj.select %[[C]], %[[N64]], %[[S]] : tensor<3xi1>, tensor<f64>, tensor<3xf64>
// CHECK:         adj.mul %[[N]], %[[N]] : tensor<i64>, tensor<i64>
// CHECK-NOT:     adj.promoted
adj.func @mix(%a: !adj.any, %b: !adj.any, %n: !adj.any) -> (!adj.any, !adj.any, !adj.any, !adj.any) {
  %s = adj.add %a, %b : !adj.any, !adj.any
  %c = adj.cmp lt, %n, %a : !adj.any, !adj.any
  %t = adj.select %c, %n, %s : !adj.any, !adj.any, !adj.any
  %m = adj.mul %n, %n : !adj.any, !adj.any
  adj.return %s, %c, %t, %m : !adj.any, !adj.any, !adj.any, !adj.any
}
adj.func @main(%a: tensor<3xf32>, %b: tensor<f64>, %n: tensor<i64>) -> (!adj.any, !adj.any, !adj.any, !adj.any) {
  %f = adj.func_ref @mix : !adj.any
  %r:4 = adj.call %f(%a, %b, %n) : !adj.any (tensor<3xf32>, tensor<f64>, tensor<i64>) -> (!adj.any, !adj.any, !adj.any, !adj.any)
  adj.return %r#0, %r#1, %r#2, %r#3 : !adj.any, !adj.any, !adj.any, !adj.any
}

// -----

// A recursion whose base case is an i64: the first round types @fact's
// result i64, the recursive path promotes it to f32, and the next round
// joins the branches to f32, casting the base case.
// CHECK-LABEL: adj.func @fact(
// CHECK-SAME:      %{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK:         adj.if %{{.*}} : tensor<i1> -> (tensor<f32>) {
// CHECK:           %[[ONE:.*]] = adj.cast %{{.*}} : tensor<i64> to tensor<f32>
// CHECK:           adj.yield %[[ONE]] : tensor<f32>
// CHECK:         } else {
// CHECK:           %[[R:.*]] = adj.call %{{.*}}(%{{.*}}) : !adj.fn<(tensor<f32>) -> tensor<f32>>{{$}}
// CHECK:           adj.mul %{{.*}}, %[[R]] : tensor<f32>, tensor<f32>
// CHECK-NOT:     adj.promoted
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
adj.func @main(%x: tensor<f32>) -> !adj.any {
  %ff = adj.func_ref @fact : !adj.any
  %r = adj.call %ff(%x) : !adj.any (tensor<f32>) -> (!adj.any)
  adj.return %r : !adj.any
}

// -----

// Loop-carried values: an i64 scalar that the body adds a vector of f32 to
// is carried as that vector type (its initial value cast and broadcast); a
// while loop's i32 counter that meets an i64 is carried as an i64.
// CHECK-LABEL: adj.func @loops(
// CHECK-SAME:      -> (tensor<3xf32>, tensor<i64>)
// CHECK:         %[[ZERO:.*]] = adj.constant dense<0> : tensor<i64>
// CHECK:         %[[Z32:.*]] = adj.cast %[[ZERO]] : tensor<i64> to tensor<f32>
// CHECK:         %[[INIT:.*]] = adj.broadcast_to %[[Z32]] : tensor<f32> to tensor<3xf32>
// CHECK:         adj.for %{{.*}} iter_args(%[[INIT]] : tensor<3xf32>) -> tensor<3xf32> {
// CHECK:         ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<3xf32>):
// CHECK:         %[[K:.*]] = adj.cast %{{.*}} : tensor<i32> to tensor<i64>
// CHECK:         adj.while(%[[K]] : tensor<i64>) -> tensor<i64> cond {
// CHECK-NOT:     adj.promoted
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
