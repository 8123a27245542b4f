// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg 0.3 | FileCheck %s --check-prefix=VALUE

// Forward mode: @f_jvp takes and returns tangents next to the values; the
// closure it builds captures the tangent of its free variable with it.
// hvp = jvp(grad(f)) is forward over reverse: it transforms @f_fprop.

// CHECK-LABEL: adj.func private @f_jvp(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[TX:[^:]*]]: tensor<f64>) -> (tensor<f64>, tensor<f64>)
// CHECK:         %[[G:.*]] = adj.lambda (%[[Z:.*]]: tensor<f64>, %[[TZ:.*]]: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
// CHECK:           %[[P:.*]] = adj.mul %[[Z]], %[[X]]
// CHECK:           adj.return %[[P]], %{{.*}} : tensor<f64>, tensor<f64>
// CHECK:         adj.call %[[G]](%[[X]], %[[TX]])
// CHECK-LABEL: adj.func private @f_fprop_jvp(

// f(x) = x * x * x: f'(0.3) = 0.27, f''(0.3) = 1.8.
// VALUE: tensor<f64> 0.027
// VALUE-NEXT: tensor<f64> 0.27
// VALUE-NEXT: tensor<f64> 0.27
// VALUE-NEXT: tensor<f64> {{1\.8|1\.79999999}}
adj.func @f(%x: tensor<f64>) -> tensor<f64> {
  %g = adj.lambda (%z: tensor<f64>) -> tensor<f64> {
    %p = adj.mul %z, %x : tensor<f64>, tensor<f64>
    adj.return %p : tensor<f64>
  }
  %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %c = adj.mul %y, %x : tensor<f64>, tensor<f64>
  adj.return %c : tensor<f64>
}
adj.func @main(%x: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %j = adj.jvp %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %one = adj.constant dense<1.0> : tensor<f64>
  %v:2 = adj.call %j(%x, %one) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %h = adj.jvp %g : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %w:2 = adj.call %h(%x, %one) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %v#0, %v#1, %w#0, %w#1 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}
