// adj reductions become linalg.reduce on an init filled with the identity;
// keepdims is an expand_shape, mean divides by the element count.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @sum_rows(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[R:.*]] = linalg.reduce ins(%{{.*}} : tensor<2x3xf32>) outs(%[[F]] : tensor<2xf32>) dimensions = [1]
// f32 sums may be reassociated (so that they vectorize); f64 sums may not.
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: return %[[R]]
adj.func @sum_rows(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %s = adj.reduce_sum %x axes = [1] : tensor<2x3xf32>
  adj.return %s : tensor<2xf32>
}

// CHECK-LABEL: func.func @max_keepdims(
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.reduce ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3xf32>) dimensions = [0, 2]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
adj.func @max_keepdims(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %m = adj.reduce_max %x axes = [2, 0] keepdims : tensor<2x3x4xf32>
  adj.return %m : tensor<1x3x1xf32>
}

// CHECK-LABEL: func.func @int_max(
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
adj.func @int_max(%x: tensor<5xi32>) -> tensor<i32> {
  %m = adj.reduce_max %x axes = [0] : tensor<5xi32>
  adj.return %m : tensor<i32>
}

// CHECK-LABEL: func.func @mean_all(
// CHECK: linalg.reduce ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0, 1]
// CHECK: linalg.generic
// CHECK: arith.constant 6.000000e+00 : f32
// CHECK: arith.divf
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
adj.func @mean_all(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %m = adj.reduce_mean %x axes = [0, 1] keepdims : tensor<2x3xf32>
  adj.return %m : tensor<1x1xf32>
}

// CHECK-LABEL: func.func @sum_f64(
// CHECK: linalg.reduce
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
adj.func @sum_f64(%x: tensor<2x3xf64>) -> tensor<3xf64> {
  %s = adj.reduce_sum %x axes = [0] : tensor<2x3xf64>
  adj.return %s : tensor<3xf64>
}
