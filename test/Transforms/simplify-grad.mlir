// The simplification passes on real -adj-grad output (closures, environments,
// tuples, a branch and a loop): the gradient is the same with and without
// them, and the hand-derived one.
// RUN: ir-opt %s -adj-grad > %t.grad.mlir
// RUN: ir-run %t.grad.mlir -f main --arg "[1, 2, 3]" --arg 2 | FileCheck %s
// RUN: ir-opt %t.grad.mlir -adj-simplify-algebra | ir-run - -f main --arg "[1, 2, 3]" --arg 2 | FileCheck %s
// RUN: ir-opt %t.grad.mlir -adj-simplify-envs | ir-run - -f main --arg "[1, 2, 3]" --arg 2 | FileCheck %s
// RUN: ir-opt %t.grad.mlir -adj-simplify-tuples | ir-run - -f main --arg "[1, 2, 3]" --arg 2 | FileCheck %s
// RUN: ir-opt %t.grad.mlir -adj-fold-constants | ir-run - -f main --arg "[1, 2, 3]" --arg 2 | FileCheck %s
// RUN: ir-opt %t.grad.mlir -adj-remove-dead-values | ir-run - -f main --arg "[1, 2, 3]" --arg 2 | FileCheck %s
// RUN: ir-opt %t.grad.mlir -adj-simplify-algebra -adj-simplify-envs -adj-simplify-tuples -adj-fold-constants -adj-remove-dead-values > %t.opt.mlir
// RUN: ir-run %t.opt.mlir -f main --arg "[1, 2, 3]" --arg 2 | FileCheck %s
// RUN: FileCheck %s --check-prefix=OPT < %t.opt.mlir

// f = (sum(x * y) ** 2 if sum(x * y) > y else ...) then three times
// doubled in a loop: f = 8 s^2 with s = y sum(x) = 12, so
// df/dx = 16 s y = 384 and df/dy = 16 s sum(x) = 1152.
// CHECK: tensor<3xf64> [384, 384, 384]
// CHECK-NEXT: tensor<f64> 1152

// The passes removed what they can see without inlining:
// OPT-NOT: adj.zeros_like
// OPT-NOT: adj.grad_add
// OPT-NOT: adj.tuple
adj.func @f(%x: tensor<3xf64>, %y: tensor<f64>) -> tensor<f64> {
  %g = adj.lambda (%z: tensor<3xf64>) -> tensor<3xf64> {
    %a = adj.mul %z, %y : tensor<3xf64>, tensor<f64>
    adj.return %a : tensor<3xf64>
  }
  %r = adj.call %g(%x) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  %t = adj.tuple %r, %y : tensor<3xf64>, tensor<f64>
  %u = adj.get %t[0] : !adj.tuple<tensor<3xf64>, tensor<f64>>
  %s = adj.reduce_sum %u axes = [0] : tensor<3xf64>
  %c = adj.cmp gt, %s, %y : tensor<f64>, tensor<f64>
  %o = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %p = adj.mul %s, %s : tensor<f64>, tensor<f64>
    adj.yield %p : tensor<f64>
  } else {
    adj.yield %s : tensor<f64>
  }
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<3> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %l = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%o : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %v: tensor<f64>):
    %w = adj.add %v, %v : tensor<f64>, tensor<f64>
    adj.yield %w : tensor<f64>
  }
  adj.return %l : tensor<f64>
}

adj.func @main(%x: tensor<3xf64>, %y: tensor<f64>) -> (tensor<3xf64>, tensor<f64>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<3xf64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %y) : !adj.fn<(tensor<3xf64>, tensor<f64>) -> (tensor<3xf64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<3xf64>, tensor<f64>
}
