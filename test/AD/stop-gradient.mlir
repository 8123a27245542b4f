// RUN: ir-opt %s -adj-grad | FileCheck %s

// x * stop_gradient(x): the forward code keeps the stop_gradient (an outer
// request must see it too), and only the first operand of the product
// receives a sensitivity: d/dx = stop_gradient(x), not 2x.

// CHECK-LABEL: adj.func private @f_fprop(
// CHECK-SAME:      %[[X:.*]]: tensor<f64>)
// CHECK:         %[[S:.*]] = adj.stop_gradient %[[X]] : tensor<f64>
// CHECK:         %[[Y:.*]] = adj.mul %[[X]], %[[S]]
// CHECK:         adj.lambda (%[[D:.*]]: tensor<f64>) -> (!adj.env, tensor<f64>) {
// CHECK-NEXT:      %[[DX:.*]] = adj.mul %[[D]], %[[S]]
// CHECK-NEXT:      %[[DS:.*]] = adj.mul %[[D]], %[[X]]
// CHECK-NEXT:      %[[ENV:.*]] = adj.env_new
// CHECK-NEXT:      adj.return %[[ENV]], %[[DX]] : !adj.env, tensor<f64>
adj.func @f(%x: tensor<f64>) -> tensor<f64> {
  %s = adj.stop_gradient %x : tensor<f64>
  %y = adj.mul %x, %s : tensor<f64>, tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func @main(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}

// Forward mode: the tangent of stop_gradient(x) is zero, so only x's own
// tangent reaches the product.

// CHECK-LABEL: adj.func private @f_jvp(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[T:[^:]*]]: tensor<f64>)
// CHECK:         %[[S:.*]] = adj.stop_gradient %[[X]] : tensor<f64>
// CHECK:         %[[Y:.*]] = adj.mul %[[X]], %[[S]]
// CHECK-NEXT:    %[[TY:.*]] = adj.mul %[[T]], %[[S]]
// CHECK-NEXT:    adj.return %[[Y]], %[[TY]]
adj.func @tangent(%x: tensor<f64>, %t: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %j = adj.jvp %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %r:2 = adj.call %j(%x, %t) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %r#0, %r#1 : tensor<f64>, tensor<f64>
}
