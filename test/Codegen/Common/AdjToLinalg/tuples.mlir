// Tuples vanish: a tuple value becomes its tensor leaves, depth-first, in
// function signatures (the ABI of compiled functions), calls, adj.if
// results, loop-carried values and yields; adj.tuple and adj.get leave no
// op behind. The compiled code gives the interpreter's numbers.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=EXEC
// RUN: ir-run %s -f run --arg "[1.5, -2]" --arg 0.5 --arg 3 | FileCheck %s --check-prefix=INTERP

// CHECK-NOT: adj.

// Depth-first: (a, (s, m)) is a, s, m.
// CHECK-LABEL: func.func @pack(
// CHECK-SAME:      %[[A:.*]]: tensor<2xf64>, %[[S:.*]]: tensor<f64>) -> (tensor<2xf64>, tensor<f64>, tensor<2xf64>)
// CHECK:         %[[M:.*]] = linalg.generic
// CHECK:         return %[[A]], %[[S]], %[[M]] : tensor<2xf64>, tensor<f64>, tensor<2xf64>
adj.func @pack(%a: tensor<2xf64>, %s: tensor<f64>) -> !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>> {
  %m = adj.mul %a, %s : tensor<2xf64>, tensor<f64>
  %in = adj.tuple %s, %m : tensor<f64>, tensor<2xf64>
  %t = adj.tuple %a, %in : tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>
  adj.return %t : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
}

// adj.get is a slice of the leaves: [1][1] is the third.
// CHECK-LABEL: func.func private @weigh(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<2xf64>, %[[S:[^:]*]]: tensor<f64>, %[[M:[^:]*]]: tensor<2xf64>) -> tensor<f64>
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[M]] : tensor<2xf64>, tensor<2xf64>)
adj.func private @weigh(%t: !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>) -> tensor<f64> {
  %a = adj.get %t[0] : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  %in = adj.get %t[1] : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  %s = adj.get %in[0] : !adj.tuple<tensor<f64>, tensor<2xf64>>
  %m = adj.get %in[1] : !adj.tuple<tensor<f64>, tensor<2xf64>>
  %p = adj.mul %a, %m : tensor<2xf64>, tensor<2xf64>
  %r = adj.reduce_sum %p axes = [0] : tensor<2xf64>
  %y = adj.sub %r, %s : tensor<f64>, tensor<f64>
  adj.return %y : tensor<f64>
}

// An empty tuple has no leaf at all.
// CHECK-LABEL: func.func private @unit(
// CHECK-SAME:      %{{.*}}: tensor<f64>) -> tensor<f64>
adj.func private @unit(%e: !adj.tuple<>, %x: tensor<f64>, %f: !adj.tuple<>) -> (!adj.tuple<>, tensor<f64>) {
  %y = adj.neg %x : tensor<f64>
  adj.return %e, %y : !adj.tuple<>, tensor<f64>
}

// CHECK-LABEL: func.func @run(
// CHECK:         %[[P:.*]]:3 = call @pack(
// The loop carries the three leaves of the tuple.
// CHECK:         %[[L:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %[[P]]#0, %{{.*}} = %[[P]]#1, %{{.*}} = %[[P]]#2) -> (tensor<2xf64>, tensor<f64>, tensor<2xf64>)
// CHECK:         call @weigh(%[[L]]#0, %[[L]]#1, %[[L]]#2)
// CHECK:         scf.if %{{.*}} -> (tensor<f64>, tensor<f64>)
// CHECK:         scf.while ({{.*}}) : (tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<i64>)
// CHECK:         call @unit(%{{.*}}) : (tensor<f64>) -> tensor<f64>
adj.func @run(%a: tensor<2xf64>, %s: tensor<f64>, %n: tensor<i64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<i64>, tensor<f64>, tensor<2xf64>, tensor<f64>) {
  %pack = adj.func_ref @pack : !adj.fn<(tensor<2xf64>, tensor<f64>) -> !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>>
  %t = adj.call %pack(%a, %s) : !adj.fn<(tensor<2xf64>, tensor<f64>) -> !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>>
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %onef = adj.constant dense<1.0> : tensor<f64>
  // (a, (s, m)) -> (m, (s + 1, a)), n times.
  %r = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%t : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>) -> !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>> {
  ^bb0(%i: tensor<i64>, %acc: !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>):
    %a0 = adj.get %acc[0] : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
    %in = adj.get %acc[1] : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
    %s0 = adj.get %in[0] : !adj.tuple<tensor<f64>, tensor<2xf64>>
    %m0 = adj.get %in[1] : !adj.tuple<tensor<f64>, tensor<2xf64>>
    %s1 = adj.add %s0, %onef : tensor<f64>, tensor<f64>
    %in1 = adj.tuple %s1, %a0 : tensor<f64>, tensor<2xf64>
    %next = adj.tuple %m0, %in1 : tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>
    adj.yield %next : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  }
  %weigh = adj.func_ref @weigh : !adj.fn<(!adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>) -> tensor<f64>>
  %w = adj.call %weigh(%r) : !adj.fn<(!adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>) -> tensor<f64>>
  // A conditional that yields tuples.
  %zf = adj.constant dense<0.0> : tensor<f64>
  %c = adj.cmp gt, %s, %zf : tensor<f64>, tensor<f64>
  %u = adj.if %c : tensor<i1> -> (!adj.tuple<tensor<f64>, tensor<f64>>) {
    %p = adj.tuple %s, %w : tensor<f64>, tensor<f64>
    adj.yield %p : !adj.tuple<tensor<f64>, tensor<f64>>
  } else {
    %p = adj.tuple %w, %s : tensor<f64>, tensor<f64>
    adj.yield %p : !adj.tuple<tensor<f64>, tensor<f64>>
  }
  %u0 = adj.get %u[0] : !adj.tuple<tensor<f64>, tensor<f64>>
  %u1 = adj.get %u[1] : !adj.tuple<tensor<f64>, tensor<f64>>
  // A while loop over a tuple: double f while f < 50.
  %limit = adj.constant dense<50.0> : tensor<f64>
  %init = adj.tuple %onef, %zero : tensor<f64>, tensor<i64>
  %v = adj.while (%init : !adj.tuple<tensor<f64>, tensor<i64>>) -> !adj.tuple<tensor<f64>, tensor<i64>> cond {
  ^bb0(%q: !adj.tuple<tensor<f64>, tensor<i64>>):
    %f = adj.get %q[0] : !adj.tuple<tensor<f64>, tensor<i64>>
    %lt = adj.cmp lt, %f, %limit : tensor<f64>, tensor<f64>
    adj.yield %lt : tensor<i1>
  } do {
  ^bb0(%q: !adj.tuple<tensor<f64>, tensor<i64>>):
    %f = adj.get %q[0] : !adj.tuple<tensor<f64>, tensor<i64>>
    %k = adj.get %q[1] : !adj.tuple<tensor<f64>, tensor<i64>>
    %f2 = adj.add %f, %f : tensor<f64>, tensor<f64>
    %k2 = adj.add %k, %one : tensor<i64>, tensor<i64>
    %q2 = adj.tuple %f2, %k2 : tensor<f64>, tensor<i64>
    adj.yield %q2 : !adj.tuple<tensor<f64>, tensor<i64>>
  }
  %v0 = adj.get %v[0] : !adj.tuple<tensor<f64>, tensor<i64>>
  %v1 = adj.get %v[1] : !adj.tuple<tensor<f64>, tensor<i64>>
  // Sensitivities of tuples work leaf by leaf.
  %z = adj.zeros_like %r : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  %g = adj.grad_add %r, %z : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>, !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  %gg = adj.grad_add %g, %r : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>, !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  %g0 = adj.get %gg[0] : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  %gi = adj.get %gg[1] : !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>
  %g1 = adj.get %gi[0] : !adj.tuple<tensor<f64>, tensor<2xf64>>
  // Empty tuples.
  %e = adj.tuple()
  %unit = adj.func_ref @unit : !adj.fn<(!adj.tuple<>, tensor<f64>, !adj.tuple<>) -> (!adj.tuple<>, tensor<f64>)>
  %ur:2 = adj.call %unit(%e, %w, %e) : !adj.fn<(!adj.tuple<>, tensor<f64>, !adj.tuple<>) -> (!adj.tuple<>, tensor<f64>)>
  adj.return %w, %u0, %u1, %v1, %v0, %g0, %ur#1 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<i64>, tensor<f64>, tensor<2xf64>, tensor<f64>
}

// a = [1.5, -2], s = 0.5, m = [0.75, -1]. Three rotations give
// (m, (3.5, a)), so weigh = m . a - 3.5 = 1.125 + 2 - 3.5 = -0.375.
// INTERP: tensor<f64> -0.375
// INTERP-NEXT: tensor<f64> 0.5
// INTERP-NEXT: tensor<f64> -0.375
// INTERP-NEXT: tensor<i64> 6
// INTERP-NEXT: tensor<f64> 64
// INTERP-NEXT: tensor<2xf64> [1.5, -2]
// INTERP-NEXT: tensor<f64> 0.375
// EXEC: -0.375
// EXEC-NEXT: 0.5
// EXEC-NEXT: -0.375
// EXEC-NEXT: 6
// EXEC-NEXT: 64
// EXEC-NEXT: 1.5
// EXEC-NEXT: -2
// EXEC-NEXT: 0.375
func.func @main() {
  %a = arith.constant dense<[1.5, -2.0]> : tensor<2xf64>
  %s = arith.constant dense<0.5> : tensor<f64>
  %n = arith.constant dense<3> : tensor<i64>
  %run = adj.func_ref @run : !adj.fn<(tensor<2xf64>, tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<i64>, tensor<f64>, tensor<2xf64>, tensor<f64>)>
  %r:7 = adj.call %run(%a, %s, %n) : !adj.fn<(tensor<2xf64>, tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<i64>, tensor<f64>, tensor<2xf64>, tensor<f64>)>
  call @printScalarF64(%r#0) : (tensor<f64>) -> ()
  call @printScalarF64(%r#1) : (tensor<f64>) -> ()
  call @printScalarF64(%r#2) : (tensor<f64>) -> ()
  %k = tensor.extract %r#3[] : tensor<i64>
  call @printI64(%k) : (i64) -> ()
  call @printNewline() : () -> ()
  call @printScalarF64(%r#4) : (tensor<f64>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g0 = tensor.extract %r#5[%c0] : tensor<2xf64>
  %g1 = tensor.extract %r#5[%c1] : tensor<2xf64>
  call @printF64(%g0) : (f64) -> ()
  call @printNewline() : () -> ()
  call @printF64(%g1) : (f64) -> ()
  call @printNewline() : () -> ()
  call @printScalarF64(%r#6) : (tensor<f64>) -> ()
  return
}

func.func @printScalarF64(%t: tensor<f64>) {
  %v = tensor.extract %t[] : tensor<f64>
  call @printF64(%v) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}

// From libmlir_c_runner_utils.
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printNewline()
