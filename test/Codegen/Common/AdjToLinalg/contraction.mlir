// adj.matmul becomes linalg.matmul or linalg.batch_matmul on a zero-filled
// init. Broadcast batch dimensions fold into the rows of a matmul or are
// materialized by broadcasting both operands.
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

// A batched lhs times one matrix: the batch folds into the rows of one
// linalg.matmul (no copy of the rhs per batch).
// CHECK-LABEL: func.func @lhs_batched(
// CHECK-SAME: %[[A:.*]]: tensor<2x3x4x5xf32>, %[[B:.*]]: tensor<5x6xf32>
// CHECK: %[[L:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1, 2], [3]] : tensor<2x3x4x5xf32> into tensor<24x5xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<24x6xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[L]], %[[B]] : tensor<24x5xf32>, tensor<5x6xf32>) outs(%[[F]] : tensor<24x6xf32>)
// CHECK: %[[R:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 3, 4, 6] : tensor<24x6xf32> into tensor<2x3x4x6xf32>
// CHECK: return %[[R]]
adj.func @lhs_batched(%a: tensor<2x3x4x5xf32>, %b: tensor<5x6xf32>) -> tensor<2x3x4x6xf32> {
  %c = adj.matmul %a, %b : tensor<2x3x4x5xf32>, tensor<5x6xf32>
  adj.return %c : tensor<2x3x4x6xf32>
}

// An rhs batch of ones is one matrix too.
// CHECK-LABEL: func.func @rhs_batch_of_ones(
// CHECK: %[[R:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : tensor<1x1x5x6xf32> into tensor<5x6xf32>
// CHECK: linalg.matmul ins(%arg0, %[[R]] : tensor<4x5xf32>, tensor<5x6xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 4, 6]
adj.func @rhs_batch_of_ones(%a: tensor<4x5xf32>, %b: tensor<1x1x5x6xf32>) -> tensor<1x1x4x6xf32> {
  %c = adj.matmul %a, %b : tensor<4x5xf32>, tensor<1x1x5x6xf32>
  adj.return %c : tensor<1x1x4x6xf32>
}

// Otherwise both operands are broadcast to the batch [5, 3] (a copy that
// reads index 0 of the size-1 dimension), which then collapses into one.
// CHECK-LABEL: func.func @broadcast_batches(
// CHECK: %[[LB:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x3x2x4xf64>) outs(%{{.*}} : tensor<5x3x2x4xf64>)
// CHECK: %[[RB:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<5x1x4x2xf64>) outs(%{{.*}} : tensor<5x3x4x2xf64>)
// CHECK: %[[L:.*]] = tensor.collapse_shape %[[LB]] {{\[\[}}0, 1], [2], [3]] : tensor<5x3x2x4xf64> into tensor<15x2x4xf64>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[RB]] {{\[\[}}0, 1], [2], [3]] : tensor<5x3x4x2xf64> into tensor<15x4x2xf64>
// CHECK: %[[M:.*]] = linalg.batch_matmul ins(%[[L]], %[[R]] : tensor<15x2x4xf64>, tensor<15x4x2xf64>) outs(%{{.*}} : tensor<15x2x2xf64>)
// CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2], [3]] output_shape [5, 3, 2, 2] : tensor<15x2x2xf64> into tensor<5x3x2x2xf64>
adj.func @broadcast_batches(%a: tensor<1x3x2x4xf64>, %b: tensor<5x1x4x2xf64>) -> tensor<5x3x2x2xf64> {
  %c = adj.matmul %a, %b : tensor<1x3x2x4xf64>, tensor<5x1x4x2xf64>
  adj.return %c : tensor<5x3x2x2xf64>
}

// f16 accumulates in f32 (the interpreter's compute type) and rounds once.
// CHECK-LABEL: func.func @mm_f16(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf16>, tensor<3x4xf16>) outs(%[[F]] : tensor<2x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[M]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
adj.func @mm_f16(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>) -> tensor<2x4xf16> {
  %c = adj.matmul %a, %b : tensor<2x3xf16>, tensor<3x4xf16>
  adj.return %c : tensor<2x4xf16>
}
