// RUN: ir-opt %s -adj-grad | FileCheck %s

// J(checkpoint(f)): the forward call keeps only the value (its
// backpropagator is dropped); the backpropagator calls f's forward function
// again on the arguments behind optimization barriers and returns what the
// recomputed backpropagator returns, f's environment included.

// CHECK-LABEL: adj.func private @main_fprop(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK:         %[[F:.*]] = adj.func_ref @f_fprop
// CHECK:         %[[C:.*]] = adj.lambda (%[[A:.*]]: tensor<4xf32>) -> (tensor<f32>, !adj.fn<(tensor<f32>) -> (!adj.env, tensor<4xf32>)>) {
// CHECK-NEXT:      %[[O:.*]]:2 = adj.call %[[F]](%[[A]])
// CHECK-NEXT:      %[[BP:.*]] = adj.lambda (%[[D:.*]]: tensor<f32>) -> (!adj.env, tensor<4xf32>) {
// CHECK-NEXT:        %[[B:.*]] = adj.optimization_barrier %[[A]] : tensor<4xf32>
// CHECK-NEXT:        %[[R:.*]]:2 = adj.call %[[F]](%[[B]])
// CHECK-NEXT:        %[[S:.*]]:2 = adj.call %[[R]]#1(%[[D]])
// CHECK-NEXT:        adj.return %[[S]]#0, %[[S]]#1 : !adj.env, tensor<4xf32>
// CHECK:           adj.return %[[O]]#0, %[[BP]]
// CHECK-NOT:     adj.checkpoint
adj.func private @f(%x: tensor<4xf32>) -> tensor<f32> {
  %s = adj.sin %x : tensor<4xf32>
  %c = adj.cos %s : tensor<4xf32>
  %y = adj.reduce_sum %c axes = [0] : tensor<4xf32>
  adj.return %y : tensor<f32>
}
adj.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  %f = adj.func_ref @f : !adj.fn<(tensor<4xf32>) -> tensor<f32>>
  %c = adj.checkpoint %f : !adj.fn<(tensor<4xf32>) -> tensor<f32>>
  %y = adj.call %c(%x) : !adj.fn<(tensor<4xf32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}
adj.func @grad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %m = adj.func_ref @main : !adj.fn<(tensor<4xf32>) -> tensor<f32>>
  %g = adj.grad %m : !adj.fn<(tensor<4xf32>) -> tensor<f32>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<4xf32>) -> tensor<4xf32>>
  adj.return %d : tensor<4xf32>
}
