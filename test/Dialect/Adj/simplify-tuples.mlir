// RUN: ir-opt %s -split-input-file -adj-simplify-tuples | FileCheck %s
// The same values before and after:
// RUN: ir-opt %s -adj-simplify-tuples > %t.mlir
// RUN: ir-run %s -f main --arg 3 --arg 4 | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %t.mlir -f main --arg 3 --arg 4 | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %s -f fib --arg 3 --arg 4 | FileCheck %s --check-prefix=FIB
// RUN: ir-run %t.mlir -f fib --arg 3 --arg 4 | FileCheck %s --check-prefix=FIB
// RUN: ir-run %s -f doubling --arg 3 | FileCheck %s --check-prefix=DOUBLING
// RUN: ir-run %t.mlir -f doubling --arg 3 | FileCheck %s --check-prefix=DOUBLING
// RUN: ir-run %s -f kept --arg 3 --arg 4 | FileCheck %s --check-prefix=KEPT
// RUN: ir-run %t.mlir -f kept --arg 3 --arg 4 | FileCheck %s --check-prefix=KEPT

// get(tuple(a, b), 1) => b; tuple(get(t, 0), get(t, 1)) => t.

// MAIN: tensor<f32> 11
// CHECK-LABEL: adj.func @main(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<f32>, %[[B:[^:]*]]: tensor<f32>)
// CHECK-NOT:     adj.tuple
// CHECK-NOT:     adj.get
// CHECK:         %[[C:.*]] = adj.add %[[B]], %[[A]]
// CHECK:         %[[S:.*]] = adj.add %[[C]], %[[B]]
// CHECK:         %[[R:[0-9]+]]:2 = adj.if
// CHECK-NOT:     adj.tuple
// CHECK:         adj.return %[[R]]#0
adj.func @main(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %t = adj.tuple %a, %b : tensor<f32>, tensor<f32>
  %x = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<f32>>
  %y = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<f32>>
  %s0 = adj.add %x, %y : tensor<f32>, tensor<f32>
  %s = adj.add %s0, %x : tensor<f32>, tensor<f32>
  %c = adj.cmp lt, %a, %b : tensor<f32>, tensor<f32>
  // A tuple through both branches: split into two results.
  %u = adj.if %c : tensor<i1> -> (!adj.tuple<tensor<f32>, tensor<f32>>) {
    %p = adj.tuple %s, %a : tensor<f32>, tensor<f32>
    adj.yield %p : !adj.tuple<tensor<f32>, tensor<f32>>
  } else {
    %q = adj.tuple %b, %b : tensor<f32>, tensor<f32>
    adj.yield %q : !adj.tuple<tensor<f32>, tensor<f32>>
  }
  %r = adj.get %u[0] : !adj.tuple<tensor<f32>, tensor<f32>>
  adj.return %r : tensor<f32>
}

// CHECK-LABEL: adj.func @rebuild(
// CHECK-SAME:      %[[T:[^:]*]]: !adj.tuple<tensor<f32>, tensor<2xf32>>)
// CHECK-NEXT:    adj.return %[[T]]
adj.func @rebuild(%t: !adj.tuple<tensor<f32>, tensor<2xf32>>) -> !adj.tuple<tensor<f32>, tensor<2xf32>> {
  %a = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<2xf32>>
  %b = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<2xf32>>
  %u = adj.tuple %a, %b : tensor<f32>, tensor<2xf32>
  adj.return %u : !adj.tuple<tensor<f32>, tensor<2xf32>>
}

// -----

// A tuple-typed carried value of adj.for becomes one carried value per
// element: (x, y) -> (x + y, x) Fibonacci-style, four times from (3, 4).

// FIB: tensor<f32> 27
// CHECK-LABEL: adj.func @fib(
// CHECK-NOT:     adj.tuple
// CHECK:         %[[R:.*]]:2 = adj.for {{.*}} iter_args(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>) -> tensor<f32>, tensor<f32> {
// CHECK:         ^bb0(%{{.*}}: tensor<i64>, %[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<f32>):
// CHECK-NEXT:      %[[S:.*]] = adj.add %[[X]], %[[Y]]
// CHECK-NEXT:      adj.yield %[[S]], %[[X]] : tensor<f32>, tensor<f32>
// CHECK-NOT:     adj.get
// CHECK:         adj.return %[[R]]#0
adj.func @fib(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<4> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %t0 = adj.tuple %a, %b : tensor<f32>, tensor<f32>
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%t0 : !adj.tuple<tensor<f32>, tensor<f32>>) -> !adj.tuple<tensor<f32>, tensor<f32>> {
  ^bb0(%i: tensor<i64>, %t: !adj.tuple<tensor<f32>, tensor<f32>>):
    %x = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<f32>>
    %y = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<f32>>
    %s = adj.add %x, %y : tensor<f32>, tensor<f32>
    %n = adj.tuple %s, %x : tensor<f32>, tensor<f32>
    adj.yield %n : !adj.tuple<tensor<f32>, tensor<f32>>
  }
  %out = adj.get %r[0] : !adj.tuple<tensor<f32>, tensor<f32>>
  adj.return %out : tensor<f32>
}

// -----

// adj.while: the condition and the body both see the split values. Doubles
// (x, n) while n < 3: from (3, 0) to (24, 3).

// DOUBLING: tensor<f32> 24
// CHECK-LABEL: adj.func @doubling(
// CHECK-NOT:     adj.tuple
// CHECK:         %[[R:.*]]:2 = adj.while(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>) -> tensor<f32>, tensor<f32> cond {
// CHECK:         ^bb0(%{{.*}}: tensor<f32>, %[[N:.*]]: tensor<f32>):
// CHECK:           adj.cmp lt, %[[N]]
// CHECK:         } do {
// CHECK:         ^bb0(%[[X:.*]]: tensor<f32>, %[[M:.*]]: tensor<f32>):
// CHECK:           adj.yield %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>
// CHECK-NOT:     adj.get
// CHECK:         adj.return %[[R]]#0
adj.func @doubling(%a: tensor<f32>) -> tensor<f32> {
  %zero = adj.fill 0.0 : tensor<f32>
  %one = adj.fill 1.0 : tensor<f32>
  %three = adj.fill 3.0 : tensor<f32>
  %t0 = adj.tuple %a, %zero : tensor<f32>, tensor<f32>
  %r = adj.while (%t0 : !adj.tuple<tensor<f32>, tensor<f32>>) -> !adj.tuple<tensor<f32>, tensor<f32>> cond {
  ^bb0(%t: !adj.tuple<tensor<f32>, tensor<f32>>):
    %n = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<f32>>
    %c = adj.cmp lt, %n, %three : tensor<f32>, tensor<f32>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%t: !adj.tuple<tensor<f32>, tensor<f32>>):
    %x = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<f32>>
    %n = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<f32>>
    %y = adj.add %x, %x : tensor<f32>, tensor<f32>
    %m = adj.add %n, %one : tensor<f32>, tensor<f32>
    %u = adj.tuple %y, %m : tensor<f32>, tensor<f32>
    adj.yield %u : !adj.tuple<tensor<f32>, tensor<f32>>
  }
  %out = adj.get %r[0] : !adj.tuple<tensor<f32>, tensor<f32>>
  adj.return %out : tensor<f32>
}

// -----

// Negative cases: an adj.if whose branches both pass a tuple through that
// is built elsewhere (here, by the caller), the wrong index, and another
// tuple's elements.

// KEPT: tensor<f32> 4
// CHECK-LABEL: adj.func @kept(
// CHECK:         adj.call
// CHECK-LABEL: adj.func @choose(
// CHECK:         %[[W:.*]] = adj.if %{{.*}} : tensor<i1> -> (!adj.tuple<tensor<f32>, tensor<f32>>)
// CHECK:         adj.get %[[W]][1]
adj.func @kept(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %t = adj.tuple %a, %b : tensor<f32>, tensor<f32>
  %u = adj.tuple %b, %a : tensor<f32>, tensor<f32>
  %f = adj.func_ref @choose : !adj.fn<(!adj.tuple<tensor<f32>, tensor<f32>>, !adj.tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>>
  %r = adj.call %f(%t, %u) : !adj.fn<(!adj.tuple<tensor<f32>, tensor<f32>>, !adj.tuple<tensor<f32>, tensor<f32>>) -> tensor<f32>>
  adj.return %r : tensor<f32>
}

adj.func @choose(%t: !adj.tuple<tensor<f32>, tensor<f32>>, %u: !adj.tuple<tensor<f32>, tensor<f32>>) -> tensor<f32> {
  %a = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<f32>>
  %b = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<f32>>
  %c = adj.cmp lt, %a, %b : tensor<f32>, tensor<f32>
  %w = adj.if %c : tensor<i1> -> (!adj.tuple<tensor<f32>, tensor<f32>>) {
    adj.yield %t : !adj.tuple<tensor<f32>, tensor<f32>>
  } else {
    adj.yield %u : !adj.tuple<tensor<f32>, tensor<f32>>
  }
  %x = adj.get %w[1] : !adj.tuple<tensor<f32>, tensor<f32>>
  adj.return %x : tensor<f32>
}

// CHECK-LABEL: adj.func @swapped(
// CHECK:         %[[A:.*]] = adj.get %{{.*}}[1]
// CHECK:         %[[B:.*]] = adj.get %{{.*}}[0]
// CHECK:         %[[U:.*]] = adj.tuple %[[A]], %[[B]]
// CHECK:         adj.return %[[U]]
adj.func @swapped(%t: !adj.tuple<tensor<f32>, tensor<f32>>) -> !adj.tuple<tensor<f32>, tensor<f32>> {
  %a = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<f32>>
  %b = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<f32>>
  %u = adj.tuple %a, %b : tensor<f32>, tensor<f32>
  adj.return %u : !adj.tuple<tensor<f32>, tensor<f32>>
}

// CHECK-LABEL: adj.func @prefix(
// CHECK:         adj.get %{{.*}}[0]
// CHECK:         %[[U:.*]] = adj.tuple
// CHECK:         adj.return %[[U]]
adj.func @prefix(%t: !adj.tuple<tensor<f32>, tensor<f32>>) -> !adj.tuple<tensor<f32>> {
  %a = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<f32>>
  %u = adj.tuple %a : tensor<f32>
  adj.return %u : !adj.tuple<tensor<f32>>
}
