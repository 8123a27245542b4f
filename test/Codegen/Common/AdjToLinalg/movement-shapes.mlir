// Movement ops that change shapes: transpose, reshape, broadcast_to
// (movement.mlir has slicing, padding, gather and scatter_add).
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @transpose(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
adj.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %t = adj.transpose %x perm = [2, 0, 1] : tensor<2x3x4xf32>
  adj.return %t : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @reshape(
// CHECK: %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x6xf32> into tensor<12xf32>
// CHECK: tensor.expand_shape %[[C]] {{\[\[}}0, 1, 2]] output_shape [3, 2, 2] : tensor<12xf32> into tensor<3x2x2xf32>
adj.func @reshape(%x: tensor<2x6xf32>) -> tensor<3x2x2xf32> {
  %r = adj.reshape %x : tensor<2x6xf32> to tensor<3x2x2xf32>
  adj.return %r : tensor<3x2x2xf32>
}

// CHECK-LABEL: func.func @to_scalar(
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
adj.func @to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %r = adj.reshape %x : tensor<1x1xf32> to tensor<f32>
  adj.return %r : tensor<f32>
}

// CHECK-LABEL: func.func @broadcast(
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]]
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[A]] : f32
adj.func @broadcast(%x: tensor<1x4xf32>) -> tensor<2x3x4xf32> {
  %b = adj.broadcast_to %x : tensor<1x4xf32> to tensor<2x3x4xf32>
  adj.return %b : tensor<2x3x4xf32>
}
