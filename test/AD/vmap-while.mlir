// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg "[1,5,20]" | FileCheck %s --check-prefix=VALUE

// A while whose condition depends on the batch runs while any example's
// condition holds (the count of running examples is positive); its body
// computes each example's condition again and keeps the values of the
// examples that are done (JAX's batching rule of while_loop). Every
// carried value is batched, the shared counter included.

// CHECK-LABEL: adj.func private @halvings_vmap3_{{[0-9]+}}(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<3xf64>) -> tensor<3xf64>
// CHECK:         %[[INIT:.*]] = adj.broadcast_to %{{.*}} : tensor<f64> to tensor<3xf64>
// CHECK:         adj.while(%[[X]], %[[INIT]] : tensor<3xf64>, tensor<3xf64>)
// CHECK:           %[[C:.*]] = adj.cmp gt, %{{.*}}, %{{.*}} : tensor<3xf64>, tensor<f64>
// CHECK:           %[[LIVE:.*]] = adj.cast %[[C]] : tensor<3xi1> to tensor<3xf32>
// CHECK:           %[[COUNT:.*]] = adj.reduce_sum %[[LIVE]] axes = [0] : tensor<3xf32>
// CHECK:           %[[ANY:.*]] = adj.cmp gt, %[[COUNT]], %{{.*}} : tensor<f32>, tensor<f32>
// CHECK:           adj.yield %[[ANY]] : tensor<i1>
// CHECK:         } do {
// CHECK:         ^bb0(%[[V:.*]]: tensor<3xf64>, %[[K:.*]]: tensor<3xf64>):
// CHECK:           %[[GOING:.*]] = adj.cmp gt, %[[V]], %{{.*}} : tensor<3xf64>, tensor<f64>
// CHECK:           adj.mul %[[V]], %{{.*}}
// CHECK:           adj.select %[[GOING]], %{{.*}}, %{{.*}} : tensor<3xi1>
// CHECK:           adj.select %[[GOING]], %{{.*}}, %{{.*}} : tensor<3xi1>
// CHECK:           adj.yield

// The number of halvings that bring x to 1 or below: 0, 3 and 5.
// VALUE: tensor<3xf64> [0, 3, 5]
adj.func @halvings(%x: tensor<f64>) -> tensor<f64> {
  %one = adj.constant dense<1.0> : tensor<f64>
  %half = adj.constant dense<0.5> : tensor<f64>
  %zero = adj.constant dense<0.0> : tensor<f64>
  %r:2 = adj.while(%x, %zero : tensor<f64>, tensor<f64>) -> tensor<f64>, tensor<f64> cond {
  ^bb0(%v: tensor<f64>, %k: tensor<f64>):
    %c = adj.cmp gt, %v, %one : tensor<f64>, tensor<f64>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%v: tensor<f64>, %k: tensor<f64>):
    %h = adj.mul %v, %half : tensor<f64>, tensor<f64>
    %n = adj.add %k, %one : tensor<f64>, tensor<f64>
    adj.yield %h, %n : tensor<f64>, tensor<f64>
  }
  adj.return %r#1 : tensor<f64>
}
adj.func @main(%xs: tensor<3xf64>) -> tensor<3xf64> {
  %f = adj.func_ref @halvings : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %v = adj.vmap %f in_axes = [0] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %r = adj.call %v(%xs) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  adj.return %r : tensor<3xf64>
}
