// RUN: ir-opt %s -split-input-file -adj-strip-derivative-rules | FileCheck %s

// With no request left, each annotation is what it computes; the barrier
// stays.

// CHECK-LABEL: adj.func @f(
// CHECK-SAME:      %[[X:.*]]: tensor<f32>)
// CHECK:         %[[F:.*]] = adj.func_ref @sq
// CHECK-NOT:     adj.checkpoint
// CHECK-NOT:     adj.custom_jvp
// CHECK:         %[[Y:.*]] = adj.call %[[F]](%[[X]])
// CHECK-NEXT:    %[[B:.*]] = adj.optimization_barrier %[[Y]]
// CHECK-NEXT:    %[[Z:.*]] = adj.call %[[F]](%[[B]])
// CHECK-NEXT:    adj.return %[[Z]] : tensor<f32>
adj.func private @sq(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func private @rule(%x: tensor<f32>, %t: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y, %t : tensor<f32>, tensor<f32>
}
adj.func @f(%x: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @sq : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %r = adj.func_ref @rule : !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %c = adj.checkpoint %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %j = adj.custom_jvp %f, %r : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %s = adj.stop_gradient %x : tensor<f32>
  %y = adj.call %c(%s) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %b = adj.optimization_barrier %y : tensor<f32>
  %z = adj.call %j(%b) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %z : tensor<f32>
}

// -----

// A request is left (-adj-grad has not run): nothing changes.

// CHECK-LABEL: adj.func @g(
// CHECK:         adj.stop_gradient
// CHECK:         adj.grad
adj.func private @h(%x: tensor<f32>) -> tensor<f32> {
  %s = adj.stop_gradient %x : tensor<f32>
  %y = adj.mul %x, %s : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func @g(%x: tensor<f32>) -> tensor<f32> {
  %s = adj.stop_gradient %x : tensor<f32>
  %f = adj.func_ref @h : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %g = adj.grad %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %d = adj.call %g(%s) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %d : tensor<f32>
}
