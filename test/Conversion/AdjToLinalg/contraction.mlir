// adj.matmul becomes linalg.matmul or linalg.batch_matmul on a zero-filled
// init.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @mm(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x4xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[F]] : tensor<2x4xf32>)
// CHECK: return %[[R]]
adj.func @mm(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %c = adj.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32>
  adj.return %c : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @bmm(
// CHECK: linalg.fill
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<5x2x3xf32>, tensor<5x3x4xf32>) outs(%{{.*}} : tensor<5x2x4xf32>)
adj.func @bmm(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %c = adj.matmul %a, %b : tensor<5x2x3xf32>, tensor<5x3x4xf32>
  adj.return %c : tensor<5x2x4xf32>
}

// Several batch dimensions are collapsed into one and expanded back.
// CHECK-LABEL: func.func @bmm4(
// CHECK: arith.constant 0 : i32
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x5x2x3xi32> into tensor<10x2x3xi32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x5x3x4xi32> into tensor<10x3x4xi32>
// CHECK: linalg.batch_matmul
// CHECK: -> tensor<10x2x4xi32>
// CHECK: tensor.expand_shape
// CHECK-SAME: tensor<2x5x2x4xi32>
adj.func @bmm4(%a: tensor<2x5x2x3xi32>, %b: tensor<2x5x3x4xi32>) -> tensor<2x5x2x4xi32> {
  %c = adj.matmul %a, %b : tensor<2x5x2x3xi32>, tensor<2x5x3x4xi32>
  adj.return %c : tensor<2x5x2x4xi32>
}
