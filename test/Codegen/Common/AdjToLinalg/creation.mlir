// iota becomes a linalg.generic without data inputs that computes each
// element from linalg.index; run-creation.mlir checks its numbers.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @iota_f32(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x3xf32>)
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[F:.*]] = arith.sitofp %[[I64]] : i64 to f32
// CHECK: linalg.yield %[[F]] : f32
adj.func @iota_f32() -> tensor<2x3xf32> {
  %y = adj.iota axis = 1 : tensor<2x3xf32>
  adj.return %y : tensor<2x3xf32>
}

// i1 is "index != 0".
// CHECK-LABEL: func.func @iota_i1(
// CHECK: %[[I64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[B:.*]] = arith.cmpi ne, %[[I64]], %[[Z]] : i64
// CHECK: linalg.yield %[[B]] : i1
adj.func @iota_i1() -> tensor<3xi1> {
  %y = adj.iota axis = 0 : tensor<3xi1>
  adj.return %y : tensor<3xi1>
}

// CHECK-LABEL: func.func @iota_i32(
// CHECK: %[[T:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: linalg.yield %[[T]] : i32
adj.func @iota_i32() -> tensor<3xi32> {
  %y = adj.iota axis = 0 : tensor<3xi32>
  adj.return %y : tensor<3xi32>
}

// bf16 goes through f32, as the interpreter converts integers.
// CHECK-LABEL: func.func @iota_bf16(
// CHECK: %[[F:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: %[[H:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK: linalg.yield %[[H]] : bf16
adj.func @iota_bf16() -> tensor<3xbf16> {
  %y = adj.iota axis = 0 : tensor<3xbf16>
  adj.return %y : tensor<3xbf16>
}

// constant stays arith.constant (later passes fold it); fill is linalg.fill.
// CHECK-LABEL: func.func @creation(
// CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[V:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.constant 3 : i64
adj.func @creation() -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2xi64>) {
  %c = adj.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %f = adj.fill 0.5 : tensor<2xf32>
  %i = adj.fill 3.0 : tensor<2x2xi64>
  adj.return %c, %f, %i : tensor<2xf32>, tensor<2xf32>, tensor<2x2xi64>
}
