// RUN: ir-opt %s -adj-specialize | FileCheck %s
// RUN: ir-opt %s -adj-specialize -adj-inline | ir-run - -f main --arg 0.5 --arg 2 --arg 3 | FileCheck %s --check-prefix=VALUE
// RUN: ir-run %s -f main --arg 0.5 --arg 2 --arg 3 | FileCheck %s --check-prefix=VALUE

// A recursive higher-order function called with a closure gets a copy that
// takes the closure's free variable instead; the recursive call inside the
// copy passes the same closure and reuses the copy.
// CHECK-LABEL: adj.func private @apply_spec(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[N:[^:]*]]: tensor<i64>, %[[W:[^:]*]]: tensor<f64>)
// CHECK:         %[[G:.*]] = adj.lambda
// CHECK:           adj.mul %{{.*}}, %[[W]]
// CHECK:         %[[Y:.*]] = adj.call %[[G]](%[[X]])
// CHECK:         %[[SELF:.*]] = adj.func_ref @apply_spec
// CHECK:         adj.call %[[SELF]](%[[Y]], %{{.*}}, %[[W]])
// CHECK-LABEL: adj.func @main(
// CHECK:         %[[S:.*]] = adj.func_ref @apply_spec
// CHECK:         adj.call %[[S]](%arg0, %arg2, %arg1)
// VALUE: tensor<f64> 1.99561017644

// apply(f, x, n) = n == 0 ? x : apply(f, f(x), n - 1)
adj.func @apply(%f: !adj.fn<(tensor<f64>) -> tensor<f64>>, %x: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    adj.yield %x : tensor<f64>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %y = adj.call %f(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
    %self = adj.func_ref @apply : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>, tensor<i64>) -> tensor<f64>>
    %s = adj.call %self(%f, %y, %m) : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>, tensor<i64>) -> tensor<f64>>
    adj.yield %s : tensor<f64>
  }
  adj.return %r : tensor<f64>
}
adj.func @main(%x: tensor<f64>, %w: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %g = adj.lambda (%z: tensor<f64>) -> tensor<f64> {
    %s = adj.sin %z : tensor<f64>
    %m = adj.mul %s, %w : tensor<f64>, tensor<f64>
    adj.return %m : tensor<f64>
  }
  %ap = adj.func_ref @apply : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>, tensor<i64>) -> tensor<f64>>
  %r = adj.call %ap(%g, %x, %n) : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>, tensor<i64>) -> tensor<f64>>
  adj.return %r : tensor<f64>
}
