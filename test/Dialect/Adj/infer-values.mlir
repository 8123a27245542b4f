// Inferred programs compute what the untyped ones compute (the reference
// interpreter runs both), and -adj-grad works on the inferred program.
// RUN: ir-run %s -f poly --arg "[1,2,3]" --arg "[[1,2],[3,4]]" | FileCheck %s --check-prefix=POLY
// RUN: ir-opt %s -adj-infer | ir-run - -f poly --arg "[1,2,3]" --arg "[[1,2],[3,4]]" | FileCheck %s --check-prefix=POLY
// RUN: ir-run %s -f closures --arg "[1,2,3]" --arg 5 | FileCheck %s --check-prefix=CLOSURES
// RUN: ir-opt %s -adj-infer | ir-run - -f closures --arg "[1,2,3]" --arg 5 | FileCheck %s --check-prefix=CLOSURES
// RUN: ir-run %s -f recursion --arg 5 --arg 7 | FileCheck %s --check-prefix=RECURSION
// RUN: ir-opt %s -adj-infer | ir-run - -f recursion --arg 5 --arg 7 | FileCheck %s --check-prefix=RECURSION
// RUN: ir-run %s -f loops --arg "[1,2,3]" --arg 2 | FileCheck %s --check-prefix=LOOPS
// RUN: ir-opt %s -adj-infer | ir-run - -f loops --arg "[1,2,3]" --arg 2 | FileCheck %s --check-prefix=LOOPS
// RUN: ir-opt %s -adj-infer -adj-check-typed -adj-grad | ir-run - -f graded --arg "[1,2,3]" --arg 2 | FileCheck %s --check-prefix=GRAD

// POLY: tensor<3xf32> [1, 4, 9]
// POLY-NEXT: tensor<2x2xf32> {{\[\[}}1, 4], [9, 16]]
// CLOSURES: tensor<3xf32> [6, 7, 8]
// CLOSURES-NEXT: (tensor<3xf32> [1, 2, 3], tensor<f32> 5)
// RECURSION: tensor<f32> 120
// RECURSION-NEXT: tensor<i1> false
// LOOPS: tensor<3xf32> [4, 8, 12]
// LOOPS-NEXT: tensor<3xf32> [1, 256, 6561]
// d/dw sum(w * x) = x, with x = 4 * [1, 2, 3]:
// GRAD: tensor<3xf32> [4, 8, 12]
adj.func @sq(%x: !adj.any) -> !adj.any {
  %y = adj.mul %x, %x : !adj.any, !adj.any
  adj.return %y : !adj.any
}
adj.func @poly(%a: tensor<3xf32>, %b: tensor<2x2xf32>) -> (!adj.any, !adj.any) {
  %f = adj.func_ref @sq : !adj.fn<(!adj.any) -> !adj.any>
  %r = adj.call %f(%a) : !adj.fn<(!adj.any) -> !adj.any> (tensor<3xf32>) -> !adj.any
  %s = adj.call %f(%b) : !adj.fn<(!adj.any) -> !adj.any> (tensor<2x2xf32>) -> !adj.any
  adj.return %r, %s : !adj.any, !adj.any
}

adj.func @apply(%f: !adj.any, %x: !adj.any) -> !adj.any {
  %r = adj.call %f(%x) : !adj.any (!adj.any) -> (!adj.any)
  adj.return %r : !adj.any
}
adj.func @closures(%a: tensor<3xf32>, %s: tensor<f32>) -> (!adj.any, !adj.tuple<!adj.any, !adj.any>) {
  %k = adj.lambda (%y: !adj.any) -> !adj.any {
    %z = adj.add %y, %a : !adj.any, tensor<3xf32>
    adj.return %z : !adj.any
  }
  %ap = adj.func_ref @apply : !adj.any
  %r0 = adj.call %ap(%k, %s) : !adj.any (!adj.fn<(!adj.any) -> !adj.any>, tensor<f32>) -> (!adj.any)
  %id = adj.lambda (%y: !adj.any) -> !adj.any {
    adj.return %y : !adj.any
  }
  %i1 = adj.call %id(%a) : !adj.fn<(!adj.any) -> !adj.any> (tensor<3xf32>) -> !adj.any
  %i2 = adj.call %id(%s) : !adj.fn<(!adj.any) -> !adj.any> (tensor<f32>) -> !adj.any
  %t = adj.tuple %i1, %i2 : !adj.any, !adj.any
  adj.return %r0, %t : !adj.any, !adj.tuple<!adj.any, !adj.any>
}

adj.func @fact(%n: !adj.any) -> !adj.any {
  %one = adj.constant dense<1.0> : tensor<f32>
  %c = adj.cmp le, %n, %one : !adj.any, tensor<f32>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    adj.yield %one : tensor<f32>
  } else {
    %m = adj.sub %n, %one : !adj.any, tensor<f32>
    %f = adj.func_ref @fact : !adj.any
    %r1 = adj.call %f(%m) : !adj.any (!adj.any) -> (!adj.any)
    %p = adj.mul %n, %r1 : !adj.any, !adj.any
    adj.yield %p : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @even(%n: !adj.any) -> !adj.any {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : !adj.any, tensor<i64>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    %t = adj.constant dense<true> : tensor<i1>
    adj.yield %t : tensor<i1>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : !adj.any, tensor<i64>
    %f = adj.func_ref @odd : !adj.any
    %r1 = adj.call %f(%m) : !adj.any (!adj.any) -> (!adj.any)
    adj.yield %r1 : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @odd(%n: !adj.any) -> !adj.any {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : !adj.any, tensor<i64>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    %t = adj.constant dense<false> : tensor<i1>
    adj.yield %t : tensor<i1>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : !adj.any, tensor<i64>
    %f = adj.func_ref @even : !adj.any
    %r1 = adj.call %f(%m) : !adj.any (!adj.any) -> (!adj.any)
    adj.yield %r1 : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @recursion(%s: tensor<f32>, %n: tensor<i64>) -> (!adj.any, !adj.any) {
  %ff = adj.func_ref @fact : !adj.any
  %f5 = adj.call %ff(%s) : !adj.any (tensor<f32>) -> (!adj.any)
  %ev = adj.func_ref @even : !adj.any
  %e = adj.call %ev(%n) : !adj.any (tensor<i64>) -> (!adj.any)
  adj.return %f5, %e : !adj.any, !adj.any
}

adj.func @loss(%w: !adj.any, %x: !adj.any) -> !adj.any {
  %p = adj.mul %w, %x : !adj.any, !adj.any
  %s = adj.reduce_sum %p axes = [0] : !adj.any
  adj.return %s : !adj.any
}
adj.func @loops(%x: tensor<3xf32>, %n: tensor<i64>) -> (!adj.any, !adj.any) {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%x : tensor<3xf32>) -> !adj.any {
  ^bb0(%i: !adj.any, %a: !adj.any):
    %y = adj.add %a, %a : !adj.any, !adj.any
    adj.yield %y : !adj.any
  }
  %hundred = adj.constant dense<100.0> : tensor<f32>
  %w = adj.while (%x : tensor<3xf32>) -> !adj.any cond {
  ^bb0(%a: !adj.any):
    %s = adj.reduce_sum %a axes = [0] : !adj.any
    %c = adj.cmp lt, %s, %hundred : !adj.any, tensor<f32>
    adj.yield %c : !adj.any
  } do {
  ^bb0(%a: !adj.any):
    %y = adj.mul %a, %a : !adj.any, !adj.any
    adj.yield %y : !adj.any
  }
  adj.return %r, %w : !adj.any, !adj.any
}

adj.func @graded(%x: tensor<3xf32>, %n: tensor<i64>) -> !adj.any {
  %f = adj.func_ref @loops : !adj.any
  %r:2 = adj.call %f(%x, %n) : !adj.any (tensor<3xf32>, tensor<i64>) -> (!adj.any, !adj.any)
  %l = adj.func_ref @loss : !adj.any
  %g = adj.grad %l wrt = [0] : !adj.any
  %d = adj.call %g(%x, %r#0) : !adj.any (tensor<3xf32>, !adj.any) -> (!adj.any)
  adj.return %d : !adj.any
}
