// RUN: ir-opt %s -adj-grad | ir-run - -f grad --arg 0.5 --arg 2.0 | FileCheck %s --check-prefix=VALUE
// RUN: ir-opt %s -adj-grad -adj-optimize | FileCheck %s
// RUN: ir-opt %s -adj-grad -adj-optimize | ir-run - -f grad --arg 0.5 --arg 2.0 | FileCheck %s --check-prefix=VALUE
// RUN: ir-opt %s -adj-grad -adj-optimize | ir-run - -f grad --compile --no-cache --arg 0.5 --arg 2.0 | FileCheck %s --check-prefix=VALUE

// `while i < 10: x = sin(x) * w; i += 1`, differentiated: the closure chain
// that -adj-grad builds (run as is by the first RUN line) and the stacked
// residuals with one reverse loop that -adj-optimize makes of it
// (-adj-reverse-loops) give the same gradient, interpreted and compiled.
// CHECK-LABEL: adj.func @grad(
// CHECK:         adj.while
// CHECK:         adj.scatter set
// CHECK:         adj.for
// CHECK:         adj.gather
// CHECK-NOT:     adj.closure
// CHECK-NOT:     adj.call
// CHECK:         adj.return
// VALUE: tensor<f64> 0.01235275691749
// VALUE-NEXT: tensor<f64> 0.4976968591273
adj.func private @f(%x: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %n = adj.constant dense<10> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r:2 = adj.while(%zero, %x : tensor<i64>, tensor<f64>) -> tensor<i64>, tensor<f64> cond {
  ^bb0(%i: tensor<i64>, %v: tensor<f64>):
    %c = adj.cmp lt, %i, %n : tensor<i64>, tensor<i64>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %v: tensor<f64>):
    %s = adj.sin %v : tensor<f64>
    %m = adj.mul %s, %w : tensor<f64>, tensor<f64>
    %j = adj.add %i, %one : tensor<i64>, tensor<i64>
    adj.yield %j, %m : tensor<i64>, tensor<f64>
  }
  adj.return %r#1 : tensor<f64>
}
adj.func @grad(%x: tensor<f64>, %w: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %w) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %d#0, %d#1 : tensor<f64>, tensor<f64>
}
