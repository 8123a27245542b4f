// RUN: ir-opt %s -adj-grad | FileCheck %s

// f = log(1 + exp(x)) with the stable rule (y, t * sigmoid(x)).

// Reverse mode: the rule's forward function runs at zero tangents; the
// backpropagator feeds zero to the rule's primal result and dy to its
// tangent result, and returns the sensitivity of the tangent argument.

// CHECK-LABEL: adj.func private @main_fprop(
// CHECK:         %[[RULE:.*]] = adj.func_ref @rule_fprop
// CHECK:         adj.lambda (%[[A:.*]]: tensor<f32>) -> (tensor<f32>, !adj.fn<(tensor<f32>) -> (!adj.env, tensor<f32>)>) {
// CHECK-NEXT:      %[[Z:.*]] = adj.zeros_like %[[A]] : tensor<f32>
// CHECK-NEXT:      %[[O:.*]]:3 = adj.call %[[RULE]](%[[A]], %[[Z]])
// CHECK-NEXT:      %[[BP:.*]] = adj.lambda (%[[D:.*]]: tensor<f32>) -> (!adj.env, tensor<f32>) {
// CHECK-NEXT:        %[[ZY:.*]] = adj.zeros_like %[[O]]#0 : tensor<f32>
// CHECK-NEXT:        %[[B:.*]]:3 = adj.call %[[O]]#2(%[[ZY]], %[[D]])
// CHECK-NEXT:        %[[E:.*]] = adj.env_new
// CHECK-NEXT:        adj.return %[[E]], %[[B]]#2 : !adj.env, tensor<f32>
// CHECK:           adj.return %[[O]]#0, %[[BP]]

// Forward mode: the rule's jvp function with zero tangents for its own
// arguments; its first two results are the value and the tangent.

// CHECK-LABEL: adj.func private @main_jvp(
// CHECK:         %[[RULE:.*]] = adj.func_ref @rule_jvp
// CHECK:         adj.lambda (%[[A:.*]]: tensor<f32>, %[[T:.*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
// CHECK-NEXT:      %[[ZA:.*]] = adj.zeros_like %[[A]] : tensor<f32>
// CHECK-NEXT:      %[[ZT:.*]] = adj.zeros_like %[[T]] : tensor<f32>
// CHECK-NEXT:      %[[O:.*]]:4 = adj.call %[[RULE]](%[[A]], %[[T]], %[[ZA]], %[[ZT]])
// CHECK-NEXT:      adj.return %[[O]]#0, %[[O]]#1 : tensor<f32>, tensor<f32>
adj.func private @f(%x: tensor<f32>) -> tensor<f32> {
  %e = adj.exp %x : tensor<f32>
  %one = adj.constant dense<1.0> : tensor<f32>
  %s = adj.add %e, %one : tensor<f32>, tensor<f32>
  %y = adj.log %s : tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func private @rule(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %s = adj.sigmoid %x : tensor<f32>
  %ty = adj.mul %t, %s : tensor<f32>, tensor<f32>
  adj.return %y, %ty : tensor<f32>, tensor<f32>
}
adj.func @main(%x: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %r = adj.func_ref @rule : !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %g = adj.custom_jvp %f, %r : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %y = adj.call %g(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}
adj.func @grad(%x: tensor<f32>) -> tensor<f32> {
  %m = adj.func_ref @main : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %g = adj.grad %m : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %d : tensor<f32>
}
adj.func @tangent(%x: tensor<f32>, %t: tensor<f32>) -> tensor<f32> {
  %m = adj.func_ref @main : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %j = adj.jvp %m : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %r:2 = adj.call %j(%x, %t) : !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  adj.return %r#1 : tensor<f32>
}
