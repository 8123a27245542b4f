// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f run --arg "[1,2,3,4]" --arg 3 | FileCheck %s --check-prefix=VALUE

// A function received from outside (%h, a parameter of @main) is passed
// shared to the top-level @scale, which calls it only on the shared %w: it
// has no batched form, so it goes in as it is (mask 100) and the call
// proceeds, with no diagnostic.

// CHECK-LABEL: adj.func @main(
// CHECK:         adj.lambda (%{{[^:]*}}: tensor<4xf32>, %[[H:[^:]*]]: !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK:         %[[F:.*]] = adj.func_ref @scale_vmap4_100
// CHECK:         adj.call %[[F]](%{{.*}}, %[[H]], %{{.*}})

// CHECK-LABEL: adj.func private @scale_vmap4_100(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>, %[[G:[^:]*]]: !adj.fn<(tensor<f32>) -> tensor<f32>>, %[[W:[^:]*]]: tensor<f32>) -> tensor<4xf32>
// CHECK:         %[[S:.*]] = adj.call %[[G]](%[[W]]) : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK:         adj.mul %[[X]], %[[S]] : tensor<4xf32>, tensor<f32>

// x * w^2 with w = 3.
// VALUE: tensor<4xf32> [9, 18, 27, 36]
adj.func @scale(%x: tensor<f32>, %g: !adj.fn<(tensor<f32>) -> tensor<f32>>, %w: tensor<f32>) -> tensor<f32> {
  %s = adj.call %g(%w) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %y = adj.mul %x, %s : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func @main(%xs: tensor<4xf32>, %h: !adj.fn<(tensor<f32>) -> tensor<f32>>, %w: tensor<f32>) -> tensor<4xf32> {
  %f = adj.func_ref @scale : !adj.fn<(tensor<f32>, !adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
  %v = adj.vmap %f in_axes = [0, -1, -1] out_axes = [0] batch_size = 4 : !adj.fn<(tensor<f32>, !adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
  %r = adj.call %v(%xs, %h, %w) : !adj.fn<(tensor<4xf32>, !adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<4xf32>>
  adj.return %r : tensor<4xf32>
}
adj.func @square(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func @run(%xs: tensor<4xf32>, %w: tensor<f32>) -> tensor<4xf32> {
  %sq = adj.func_ref @square : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %m = adj.func_ref @main : !adj.fn<(tensor<4xf32>, !adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<4xf32>>
  %r = adj.call %m(%xs, %sq, %w) : !adj.fn<(tensor<4xf32>, !adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<4xf32>>
  adj.return %r : tensor<4xf32>
}
