// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg "[[1,2,3],[4,5,6]]" --arg "[1,10,100]" | FileCheck %s --check-prefix=VALUE

// out_axes = -1 (JAX's out_axes=None): the result is returned without the
// batch. @f is batched in place (not specialised, which would return every
// result batched), so the second result, which depends only on the shared
// %w, stays the unbatched reduce_sum of %w: no broadcast, no transpose.

// CHECK-LABEL: adj.func @main(
// CHECK:         adj.lambda (%[[XS:.*]]: tensor<2x3xf32>, %[[W:.*]]: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<f32>) {
// CHECK-NOT:       adj.func_ref
// CHECK:           %[[S:.*]] = adj.reduce_sum %[[W]] axes = [0] : tensor<3xf32>
// CHECK:           %[[T:.*]] = adj.transpose %{{.*}} perm = [1, 0] : tensor<2x3xf32>
// CHECK:           adj.return %[[T]], %[[S]] : tensor<3x2xf32>, tensor<f32>

// VALUE: tensor<3x2xf32> {{\[}}[1, 4], [20, 50], [300, 600]]
// VALUE: tensor<f32> 111
adj.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>) {
  %p = adj.mul %x, %w : tensor<3xf32>, tensor<3xf32>
  %s = adj.reduce_sum %w axes = [0] : tensor<3xf32>
  adj.return %p, %s : tensor<3xf32>, tensor<f32>
}
adj.func @main(%xs: tensor<2x3xf32>, %w: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<f32>) {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>)>
  %v = adj.vmap %f in_axes = [0, -1] out_axes = [1, -1] batch_size = 2 : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>)>
  %r:2 = adj.call %v(%xs, %w) : !adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> (tensor<3x2xf32>, tensor<f32>)>
  adj.return %r#0, %r#1 : tensor<3x2xf32>, tensor<f32>
}
