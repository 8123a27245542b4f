// adj.scatter lowers as scatter_add does (a sequential scf.for over the
// index positions, one row per step, indices clamped), with its mode's
// combination in the row's linalg.generic.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// set: the row becomes the update (the generic yields its input).
// CHECK-LABEL: func.func @set(
// CHECK-SAME: %{{.*}}: tensor<3x4xf32>, %[[I:.*]]: tensor<2xi64>, %[[U:.*]]: tensor<2x4xf32>
// CHECK: %[[VIEW:.*]] = tensor.expand_shape {{.*}} into tensor<1x3x4xf32>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[VIEW]]) -> (tensor<1x3x4xf32>) {
// CHECK: %[[RAW:.*]] = tensor.extract %[[I]][%[[J]]] : tensor<2xi64>
// CHECK: arith.minsi
// CHECK: %[[N:.*]] = arith.maxsi
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[ACC]][%{{.*}}, %[[N]], 0] [1, 1, 4] [1, 1, 1]
// CHECK: linalg.generic {{.*}} outs(%[[ROW]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: tensor.insert_slice {{.*}} into %[[ACC]]
adj.func @set(%t: tensor<3x4xf32>, %i: tensor<2xi64>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %y = adj.scatter set %t[%i], %u axis = 0 : tensor<3x4xf32>, tensor<2xi64>, tensor<2x4xf32>
  adj.return %y : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @mul_f32(
// CHECK: linalg.generic
// CHECK: arith.mulf
adj.func @mul_f32(%t: tensor<3xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<3xf32> {
  %y = adj.scatter mul %t[%i], %u axis = 0 : tensor<3xf32>, tensor<2xi64>, tensor<2xf32>
  adj.return %y : tensor<3xf32>
}

// CHECK-LABEL: func.func @min_f32(
// CHECK: linalg.generic
// CHECK: arith.minimumf
adj.func @min_f32(%t: tensor<3xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<3xf32> {
  %y = adj.scatter min %t[%i], %u axis = 0 : tensor<3xf32>, tensor<2xi64>, tensor<2xf32>
  adj.return %y : tensor<3xf32>
}

// Integers: muli, minsi/maxsi.
// CHECK-LABEL: func.func @max_i32(
// CHECK: linalg.generic
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i32
adj.func @max_i32(%t: tensor<3xi32>, %i: tensor<2xi64>, %u: tensor<2xi32>) -> tensor<3xi32> {
  %y = adj.scatter max %t[%i], %u axis = 0 : tensor<3xi32>, tensor<2xi64>, tensor<2xi32>
  adj.return %y : tensor<3xi32>
}

// CHECK-LABEL: func.func @mul_i64(
// CHECK: linalg.generic
// CHECK: arith.muli
adj.func @mul_i64(%t: tensor<3xi64>, %i: tensor<2xi64>, %u: tensor<2xi64>) -> tensor<3xi64> {
  %y = adj.scatter mul %t[%i], %u axis = 0 : tensor<3xi64>, tensor<2xi64>, tensor<2xi64>
  adj.return %y : tensor<3xi64>
}
