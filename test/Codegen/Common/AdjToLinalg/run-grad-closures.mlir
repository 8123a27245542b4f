// Gradients that keep closures after -adj-optimize (recursion and loops
// with run-time trip counts carry backpropagator chains), compiled for the
// CPU and run by mlir-runner; the interpreter gives the same numbers.
// RUN: ir-opt %s -adj-grad -adj-optimize | FileCheck %s
// RUN: ir-opt %s -adj-grad -adj-optimize -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=EXEC
// RUN: ir-opt %s -adj-grad | ir-run - -f pow_grad --arg 1.5 --arg 4 | FileCheck %s --check-prefix=POW
// RUN: ir-opt %s -adj-grad | ir-run - -f grow_grad --arg 1.5 --arg 2 | FileCheck %s --check-prefix=GROW
// RUN: ir-opt %s -adj-grad | ir-run - -f scan_grad --arg 3 --arg 0.5 --arg 4 | FileCheck %s --check-prefix=SCAN

// The optimizer leaves closures here, which is what this test is about.
// CHECK: adj.closure

// POW: tensor<f64> 13.5
adj.func private @pow(%b: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %o = adj.constant dense<1.0> : tensor<f64>
    adj.yield %o : tensor<f64>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %pw = adj.func_ref @pow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %s = adj.call %pw(%b, %m) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %t = adj.mul %s, %b : tensor<f64>, tensor<f64>
    adj.yield %t : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

adj.func @pow_grad(%b: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %f = adj.func_ref @pow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %g = adj.grad %f wrt = [0] : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %d = adj.call %g(%b, %n) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}

// x = x * w while x < 100: 1.5 * 2^7 = 192, d/dx = 2^7, d/dw = 7 * 1.5 * 2^6.
// GROW: tensor<f64> 128
// GROW-NEXT: tensor<f64> 672
adj.func private @grow(%x: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %limit = adj.constant dense<100.0> : tensor<f64>
  %r = adj.while (%x : tensor<f64>) -> tensor<f64> cond {
  ^bb0(%a: tensor<f64>):
    %c = adj.cmp lt, %a, %limit : tensor<f64>, tensor<f64>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<f64>):
    %y = adj.mul %a, %w : tensor<f64>, tensor<f64>
    adj.yield %y : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

// Reached through recursion (k levels), so that the backpropagators of the
// loop stay closures in a function rather than being inlined into @main.
adj.func private @grow_rec(%x: tensor<f64>, %w: tensor<f64>, %k: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %k, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %f = adj.func_ref @grow : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
    %y = adj.call %f(%x, %w) : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
    adj.yield %y : tensor<f64>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %k, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @grow_rec : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> tensor<f64>>
    %y = adj.call %f(%x, %w, %m) : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> tensor<f64>>
    adj.yield %y : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

adj.func @grow_grad(%x: tensor<f64>, %w: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %k = adj.constant dense<2> : tensor<i64>
  %f = adj.func_ref @grow_rec : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> tensor<f64>>
  %g = adj.grad %f wrt = [0, 1] : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %w, %k) : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}

// y = (y + x) * w, n times from y = x: a loop with a run-time trip count.
// x = 3, w = 0.5, n = 4: y stays 3; dy/dx = w (dy/dx + 1) stays 1, and
// dy/dw = (y + x) + w dy/dw goes 6, 9, 10.5, 11.25.
// SCAN: tensor<f64> 3
// SCAN-NEXT: tensor<f64> 1
// SCAN-NEXT: tensor<f64> 11.25
adj.func private @scan(%x: tensor<f64>, %w: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %y: tensor<f64>):
    %s = adj.add %y, %x : tensor<f64>, tensor<f64>
    %t = adj.mul %s, %w : tensor<f64>, tensor<f64>
    adj.yield %t : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

adj.func @scan_grad(%x: tensor<f64>, %w: tensor<f64>, %n: tensor<i64>) -> (tensor<f64>, tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @scan : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> tensor<f64>>
  %g = adj.value_and_grad %f wrt = [0, 1] : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> tensor<f64>>
  %d:3 = adj.call %g(%x, %w, %n) : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1, %d#2 : tensor<f64>, tensor<f64>, tensor<f64>
}

// EXEC: 13.5
// EXEC-NEXT: 128
// EXEC-NEXT: 672
// EXEC-NEXT: 3
// EXEC-NEXT: 1
// EXEC-NEXT: 11.25
func.func @main() {
  %b = arith.constant dense<1.5> : tensor<f64>
  %n4 = arith.constant dense<4> : tensor<i64>
  %pow = adj.func_ref @pow_grad : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %p = adj.call %pow(%b, %n4) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  call @printScalar(%p) : (tensor<f64>) -> ()

  %two = arith.constant dense<2.0> : tensor<f64>
  %grow = adj.func_ref @grow_grad : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %g:2 = adj.call %grow(%b, %two) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  call @printScalar(%g#0) : (tensor<f64>) -> ()
  call @printScalar(%g#1) : (tensor<f64>) -> ()

  %three = arith.constant dense<3.0> : tensor<f64>
  %half = arith.constant dense<0.5> : tensor<f64>
  %scan = adj.func_ref @scan_grad : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<f64>, tensor<f64>)>
  %s:3 = adj.call %scan(%three, %half, %n4) : !adj.fn<(tensor<f64>, tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<f64>, tensor<f64>)>
  call @printScalar(%s#0) : (tensor<f64>) -> ()
  call @printScalar(%s#1) : (tensor<f64>) -> ()
  call @printScalar(%s#2) : (tensor<f64>) -> ()
  return
}

func.func @printScalar(%t: tensor<f64>) {
  %v = tensor.extract %t[] : tensor<f64>
  call @printF64(%v) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}

// From libmlir_c_runner_utils.
func.func private @printF64(f64)
func.func private @printNewline()
