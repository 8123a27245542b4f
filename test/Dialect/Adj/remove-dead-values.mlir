// RUN: ir-opt %s -split-input-file -adj-remove-dead-values | FileCheck %s
// The same values before and after:
// RUN: ir-opt %s -adj-remove-dead-values > %t.mlir
// RUN: ir-run %s -f main --arg 3 | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %t.mlir -f main --arg 3 | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %s -f kept --arg 3 | FileCheck %s --check-prefix=KEPT
// RUN: ir-run %t.mlir -f kept --arg 3 | FileCheck %s --check-prefix=KEPT

// MAIN: tensor<f32> 51
// CHECK-LABEL: adj.func private @helper(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<f32>) -> tensor<f32> {
// CHECK-NEXT:    %[[M:.*]] = adj.mul %[[A]], %[[A]]
// CHECK-NEXT:    adj.return %[[M]] : tensor<f32>
adj.func private @helper(%a: tensor<f32>, %unused: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %m = adj.mul %a, %a : tensor<f32>, tensor<f32>
  %n = adj.add %a, %a : tensor<f32>, tensor<f32>
  adj.return %m, %n : tensor<f32>, tensor<f32>
}

// CHECK-NOT: @nouse
adj.func private @nouse(%a: tensor<f32>) -> tensor<f32> {
  adj.return %a : tensor<f32>
}

// CHECK-LABEL: adj.func @main(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f32>)
// CHECK-NOT:     adj.lambda
// CHECK:         %[[F:.*]] = adj.func_ref @helper : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK:         %[[H:.*]] = adj.call %[[F]](%[[X]]) : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK:         %[[R:.*]] = adj.if %{{.*}} : tensor<i1> -> (tensor<f32>) {
// CHECK-NEXT:      adj.yield %[[H]] : tensor<f32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      adj.yield %[[X]] : tensor<f32>
// CHECK-NEXT:    }
// CHECK:         %[[L:.*]] = adj.for {{.*}} iter_args(%[[R]] : tensor<f32>) -> tensor<f32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<i64>, %[[ACC:.*]]: tensor<f32>):
// CHECK-NEXT:      %[[N:.*]] = adj.add %[[ACC]], %[[ACC]]
// CHECK-NEXT:      adj.yield %[[N]] : tensor<f32>
// CHECK:         %[[W:.*]] = adj.while(%[[L]] : tensor<f32>) -> tensor<f32> cond {
// CHECK:         ^bb0(%{{.*}}: tensor<f32>):
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<f32>):
// CHECK-NOT:       adj.sub
// CHECK:           adj.yield %{{.*}} : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    adj.return %[[W]] : tensor<f32>
adj.func @main(%x: tensor<f32>) -> tensor<f32> {
  %dead = adj.mul %x, %x : tensor<f32>, tensor<f32>
  %closure = adj.lambda (%y: tensor<f32>) -> tensor<f32> {
    %z = adj.mul %y, %x : tensor<f32>, tensor<f32>
    adj.return %z : tensor<f32>
  }
  %f = adj.func_ref @helper : !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %h:2 = adj.call %f(%x, %dead) : !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %zero = adj.fill 0.0 : tensor<f32>
  %c = adj.cmp gt, %x, %zero : tensor<f32>, tensor<f32>
  // Result #1 is never used.
  %r:2 = adj.if %c : tensor<i1> -> (tensor<f32>, tensor<f32>) {
    adj.yield %h#0, %x : tensor<f32>, tensor<f32>
  } else {
    %neg = adj.neg %x : tensor<f32>
    adj.yield %x, %neg : tensor<f32>, tensor<f32>
  }
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<2> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  // %junk is carried along but nothing reads it.
  %l:2 = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%r#0, %x : tensor<f32>, tensor<f32>) -> tensor<f32>, tensor<f32> {
  ^bb0(%i: tensor<i64>, %acc: tensor<f32>, %junk: tensor<f32>):
    %n = adj.add %acc, %acc : tensor<f32>, tensor<f32>
    %j = adj.mul %acc, %n : tensor<f32>, tensor<f32>
    adj.yield %n, %j : tensor<f32>, tensor<f32>
  }
  %limit = adj.fill 50.0 : tensor<f32>
  // %k only feeds itself.
  %w:2 = adj.while (%l#0, %x : tensor<f32>, tensor<f32>) -> tensor<f32>, tensor<f32> cond {
  ^bb0(%v: tensor<f32>, %k: tensor<f32>):
    %go = adj.cmp lt, %v, %limit : tensor<f32>, tensor<f32>
    adj.yield %go : tensor<i1>
  } do {
  ^bb0(%v: tensor<f32>, %k: tensor<f32>):
    %v2 = adj.add %v, %x : tensor<f32>, tensor<f32>
    adj.yield %v2, %k : tensor<f32>, tensor<f32>
  }
  adj.return %w#0 : tensor<f32>
}

// -----

// Negative cases: a public function keeps its signature; a private function
// whose reference escapes (returned, not only called) keeps its signature;
// a carried value that the body reads is kept.

// KEPT: tensor<f32> 27
// CHECK-LABEL: adj.func @public(
// CHECK-SAME:      %{{[^:]*}}: tensor<f32>, %{{[^:]*}}: tensor<f32>) -> tensor<f32>
adj.func @public(%a: tensor<f32>, %unused: tensor<f32>) -> tensor<f32> {
  adj.return %a : tensor<f32>
}

// CHECK-LABEL: adj.func private @escapes(
// CHECK-SAME:      %{{[^:]*}}: tensor<f32>, %{{[^:]*}}: tensor<f32>) -> (tensor<f32>, tensor<f32>)
adj.func private @escapes(%a: tensor<f32>, %unused: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  adj.return %a, %a : tensor<f32>, tensor<f32>
}

// CHECK-LABEL: adj.func @kept(
// CHECK:         adj.for {{.*}} iter_args(%{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>)
adj.func @kept(%x: tensor<f32>) -> (tensor<f32>, !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>) {
  %f = adj.func_ref @escapes : !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<2> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %l:2 = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x, %x : tensor<f32>, tensor<f32>) -> tensor<f32>, tensor<f32> {
  ^bb0(%i: tensor<i64>, %acc: tensor<f32>, %other: tensor<f32>):
    %n = adj.mul %acc, %other : tensor<f32>, tensor<f32>
    adj.yield %n, %other : tensor<f32>, tensor<f32>
  }
  adj.return %l#0, %f : tensor<f32>, !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
}
