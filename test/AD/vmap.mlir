// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg "[[1,2],[3,4],[5,6]]" --arg "[[1,0,0,1],[0,1,0,1],[0,0,1,1]]" | FileCheck %s --check-prefix=VALUE
// RUN: ir-opt %s -adj-grad | ir-run - -f per_example --arg "[[1,2],[3,4],[5,6]]" --arg "[[1,0,0],[0,0,2]]" | FileCheck %s --check-prefix=GRADS
// RUN: ir-opt %s -adj-grad | ir-run - -f per_example --arg "[[1,2],[3,4],[5,6]]" --arg "[[1,0,0],[0,0,2]]" --compile --no-cache | FileCheck %s --check-prefix=GRADS

// vmap moves the batch axis of each batched argument to the front and calls
// @layer specialised for (shared, batched) arguments. In the specialised
// body the shared weights stay unbatched: the matmul flattens the batch into
// the rows (one [4, 3] x [3, 2] matmul, no copy of %w), reductions shift
// their axes, and an elementwise op raises the batched operand's rank so
// that it broadcasts as per example.

// CHECK-LABEL: adj.func @main(
// CHECK:         adj.lambda (%[[W:.*]]: tensor<3x2xf32>, %[[XS:.*]]: tensor<3x4xf32>) -> tensor<2x4xf32> {
// CHECK:           %[[T:.*]] = adj.transpose %[[XS]] perm = [1, 0] : tensor<3x4xf32>
// CHECK:           %[[F:.*]] = adj.func_ref @layer_vmap4_01
// CHECK:           %[[R:.*]] = adj.call %[[F]](%[[W]], %[[T]]) : !adj.fn<(tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<4x2xf32>>
// CHECK:           adj.transpose %[[R]] perm = [1, 0] : tensor<4x2xf32>

// CHECK-LABEL: adj.func private @layer_vmap4_01(
// CHECK-SAME:      %[[W:[^:]*]]: tensor<3x2xf32>, %[[X:[^:]*]]: tensor<4x3xf32>) -> tensor<4x2xf32>
// CHECK-NOT:     adj.broadcast_to
// CHECK:         %[[FLAT:.*]] = adj.reshape %{{.*}} : tensor<4x1x3xf32> to tensor<4x3xf32>
// CHECK:         adj.matmul %[[FLAT]], %[[W]] : tensor<4x3xf32>, tensor<3x2xf32>
// CHECK:         %[[S:.*]] = adj.reduce_sum %[[X]] axes = [1] : tensor<4x3xf32>
// CHECK:         %[[S2:.*]] = adj.reshape %[[S]] : tensor<4xf32> to tensor<4x1xf32>
// CHECK:         adj.mul %{{.*}}, %[[S2]] : tensor<4x2xf32>, tensor<4x1xf32>

// Per-example gradients: vmap(grad(layer_loss)) batches @layer_loss_fprop
// (the weights shared) and the backpropagator closure it returns, which
// takes the uniform batched form (every argument and result batched).
// CHECK-LABEL: adj.func private @layer_loss_fprop_vmap2_01(
// CHECK-SAME:      tensor<3x2xf32>, %{{.*}}: tensor<2x3xf32>) -> (tensor<2xf32>, !adj.fn<(tensor<2xf32>) -> (!adj.env, tensor<2x3x2xf32>, tensor<2x3xf32>)>)

// x = columns [1,0,0], [0,1,0], [0,0,1], [1,1,1]; sum(x) = 1, 1, 1, 3.
// VALUE: tensor<2x4xf32> {{\[}}[1, 3, 5, 27], [2, 4, 6, 36]]
// d/dw sum(x @ w) = x outer ones, per example.
// GRADS: tensor<2x3x2xf32> {{\[}}{{\[}}[1, 1], [0, 0], [0, 0]], {{\[}}[0, 0], [0, 0], [2, 2]]]
adj.func @layer(%w: tensor<3x2xf32>, %x: tensor<3xf32>) -> tensor<2xf32> {
  %x2 = adj.reshape %x : tensor<3xf32> to tensor<1x3xf32>
  %m = adj.matmul %x2, %w : tensor<1x3xf32>, tensor<3x2xf32>
  %r = adj.reshape %m : tensor<1x2xf32> to tensor<2xf32>
  %s = adj.reduce_sum %x axes = [0] : tensor<3xf32>
  %y = adj.mul %r, %s : tensor<2xf32>, tensor<f32>
  adj.return %y : tensor<2xf32>
}
adj.func @main(%w: tensor<3x2xf32>, %xs: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %f = adj.func_ref @layer : !adj.fn<(tensor<3x2xf32>, tensor<3xf32>) -> tensor<2xf32>>
  %v = adj.vmap %f in_axes = [-1, 1] out_axes = [1] batch_size = 4 : !adj.fn<(tensor<3x2xf32>, tensor<3xf32>) -> tensor<2xf32>>
  %r = adj.call %v(%w, %xs) : !adj.fn<(tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>>
  adj.return %r : tensor<2x4xf32>
}
adj.func @layer_loss(%w: tensor<3x2xf32>, %x: tensor<3xf32>) -> tensor<f32> {
  %x2 = adj.reshape %x : tensor<3xf32> to tensor<1x3xf32>
  %m = adj.matmul %x2, %w : tensor<1x3xf32>, tensor<3x2xf32>
  %s = adj.reduce_sum %m axes = [0, 1] : tensor<1x2xf32>
  adj.return %s : tensor<f32>
}
adj.func @per_example(%w: tensor<3x2xf32>, %xs: tensor<2x3xf32>) -> tensor<2x3x2xf32> {
  %f = adj.func_ref @layer_loss : !adj.fn<(tensor<3x2xf32>, tensor<3xf32>) -> tensor<f32>>
  %g = adj.grad %f wrt = [0] : !adj.fn<(tensor<3x2xf32>, tensor<3xf32>) -> tensor<f32>>
  %v = adj.vmap %g in_axes = [-1, 0] out_axes = [0] batch_size = 2 : !adj.fn<(tensor<3x2xf32>, tensor<3xf32>) -> tensor<3x2xf32>>
  %r = adj.call %v(%w, %xs) : !adj.fn<(tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<2x3x2xf32>>
  adj.return %r : tensor<2x3x2xf32>
}
