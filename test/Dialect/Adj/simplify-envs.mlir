// RUN: ir-opt %s -split-input-file -adj-simplify-envs | FileCheck %s
// The same values before and after:
// RUN: ir-opt %s -adj-simplify-envs > %t.mlir
// RUN: ir-run %s -f main --arg 3 --arg "[1, 2]" | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %t.mlir -f main --arg 3 --arg "[1, 2]" | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %s -f kept --arg 3 | FileCheck %s --check-prefix=KEPT
// RUN: ir-run %t.mlir -f kept --arg 3 | FileCheck %s --check-prefix=KEPT

// Every read meets the write that made its environment: no env op is left.

// MAIN: tensor<f32> 3
// MAIN-NEXT: tensor<2xf32> [1, 2]
// MAIN-NEXT: tensor<f32> 0
// MAIN-NEXT: (tensor<f32> 0, tensor<2xf32> [0, 0])
// MAIN-NEXT: tensor<f32> 6
// MAIN-NEXT: tensor<2xf32> [1, 2]
// CHECK-LABEL: adj.func @main(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f32>, %[[Y:[^:]*]]: tensor<2xf32>)
// CHECK-NOT:     adj.env
// CHECK-DAG:     %[[Z:.*]] = adj.fill 0.000000e+00 : tensor<f32>
// CHECK-DAG:     %[[ZT0:.*]] = adj.fill 0.000000e+00 : tensor<f32>
// CHECK-DAG:     %[[ZT1:.*]] = adj.fill 0.000000e+00 : tensor<2xf32>
// CHECK-DAG:     %[[ZT:.*]] = adj.tuple %[[ZT0]], %[[ZT1]]
// CHECK-DAG:     %[[S:.*]] = adj.grad_add %[[X]], %[[X]] : tensor<f32>, tensor<f32>
// CHECK-NOT:     adj.env
// CHECK:         adj.return %[[X]], %[[Y]], %[[Z]], %[[ZT]], %[[S]], %[[Y]]
adj.func @main(%x: tensor<f32>, %y: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>, !adj.tuple<tensor<f32>, tensor<2xf32>>, tensor<f32>, tensor<2xf32>) {
  %e0 = adj.env_new
  %e1 = adj.env_set %e0[1], %x : !adj.env, tensor<f32>
  %e2 = adj.env_set %e1[2], %y : !adj.env, tensor<2xf32>
  // A set under another key is skipped.
  %a = adj.env_get %e2[1] : !adj.env -> tensor<f32>
  %b = adj.env_get %e2[2] : !adj.env -> tensor<2xf32>
  // An absent key reads as zero, of any type.
  %c = adj.env_get %e2[3] : !adj.env -> tensor<f32>
  %d = adj.env_get %e2[4] : !adj.env -> !adj.tuple<tensor<f32>, tensor<2xf32>>
  // Reading a sum is the sum of the reads.
  %s = adj.env_add %e2, %e1 : !adj.env, !adj.env
  %f = adj.env_get %s[1] : !adj.env -> tensor<f32>
  // grad_add of environments is env_add; adding the empty one is nothing.
  %g = adj.grad_add %e0, %e2 : !adj.env, !adj.env
  %h = adj.env_add %g, %e0 : !adj.env, !adj.env
  %i = adj.env_get %h[2] : !adj.env -> tensor<2xf32>
  adj.return %a, %b, %c, %d, %f, %i : tensor<f32>, tensor<2xf32>, tensor<f32>, !adj.tuple<tensor<f32>, tensor<2xf32>>, tensor<f32>, tensor<2xf32>
}

// An environment read as an environment: the zero of !adj.env is env_new.
// CHECK-LABEL: adj.func @nested(
// CHECK-NEXT:    %[[E:.*]] = adj.env_new
// CHECK-NEXT:    adj.return %[[E]] : !adj.env
adj.func @nested() -> !adj.env {
  %e0 = adj.env_new
  %e = adj.env_get %e0[7] : !adj.env -> !adj.env
  adj.return %e : !adj.env
}

// -----

// A sum of an environment with itself reads as a sum.
// KEPT: tensor<f32> 6
// CHECK-LABEL: adj.func @kept(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f32>)
// CHECK-NOT:     adj.env
// CHECK:         %[[S:.*]] = adj.grad_add %[[X]], %[[X]]
// CHECK-NEXT:    adj.return %[[S]]
adj.func @kept(%x: tensor<f32>) -> tensor<f32> {
  %e0 = adj.env_new
  %e1 = adj.env_set %e0[1], %x : !adj.env, tensor<f32>
  %s = adj.env_add %e1, %e1 : !adj.env, !adj.env
  %r = adj.env_get %s[1] : !adj.env -> tensor<f32>
  adj.return %r : tensor<f32>
}

// Negative cases: an environment that comes from outside, and a write read
// back at another type, are left alone.

// CHECK-LABEL: adj.func @opaque(
// CHECK-SAME:      %[[E:[^:]*]]: !adj.env
// CHECK:         %[[R:.*]] = adj.env_get %[[E]][1] : !adj.env -> tensor<f32>
// CHECK:         adj.return %[[R]]
adj.func @opaque(%e: !adj.env) -> tensor<f32> {
  %r = adj.env_get %e[1] : !adj.env -> tensor<f32>
  adj.return %r : tensor<f32>
}

// CHECK-LABEL: adj.func @retyped(
// CHECK:         %[[S:.*]] = adj.env_set
// CHECK:         adj.env_get %[[S]][1] : !adj.env -> tensor<2xf32>
adj.func @retyped(%x: tensor<f32>) -> tensor<2xf32> {
  %e0 = adj.env_new
  %e1 = adj.env_set %e0[1], %x : !adj.env, tensor<f32>
  %r = adj.env_get %e1[1] : !adj.env -> tensor<2xf32>
  adj.return %r : tensor<2xf32>
}

// -----

// A read of an environment chosen by a conditional moves into the branches,
// where it meets the writes.
// CHECK-LABEL: adj.func @get_through_if
// CHECK:         %[[IF:.*]]:2 = adj.if %arg0 : tensor<i1> -> (!adj.env, tensor<f32>) {
// CHECK:           adj.yield %{{.*}}, %arg1 : !adj.env, tensor<f32>
// CHECK:         } else {
// CHECK:           %[[Z:.*]] = adj.fill 0.000000e+00 : tensor<f32>
// CHECK:           adj.yield %{{.*}}, %[[Z]] : !adj.env, tensor<f32>
// CHECK-NOT:     adj.env_get
// CHECK:         adj.return %[[IF]]#1
adj.func @get_through_if(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %e = adj.if %c : tensor<i1> -> (!adj.env) {
    %n = adj.env_new
    %s = adj.env_set %n[7], %x : !adj.env, tensor<f32>
    adj.yield %s : !adj.env
  } else {
    %n = adj.env_new
    adj.yield %n : !adj.env
  }
  %v = adj.env_get %e[7] : !adj.env -> tensor<f32>
  adj.return %v : tensor<f32>
}
