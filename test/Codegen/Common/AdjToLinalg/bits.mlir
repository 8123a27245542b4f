// The Bits ops become linalg.generic over integer arith ops that every
// target has; shifts select 0 where arith's shift would be poison.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @shift(
// CHECK: linalg.generic
// CHECK: %[[W:.*]] = arith.constant 32 : i32
// CHECK: %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %[[W]] : i32
// CHECK: %[[S:.*]] = arith.shrui
// CHECK: arith.select %[[OK]], %[[S]], %{{.*}} : i32
adj.func @shift(%x: tensor<4xi32>, %n: tensor<i32>) -> tensor<4xi32> {
  %r = adj.shift_right_logical %x, %n : tensor<4xi32>, tensor<i32>
  adj.return %r : tensor<4xi32>
}

// CHECK-LABEL: func.func @bitcast(
// CHECK: linalg.generic
// CHECK: arith.bitcast %{{.*}} : i32 to f32
adj.func @bitcast(%x: tensor<4xi32>) -> tensor<4xf32> {
  %r = adj.bitcast %x : tensor<4xi32> to tensor<4xf32>
  adj.return %r : tensor<4xf32>
}

// Five groups of four rounds (each an add, two shifts, an or and a xor),
// then the two words packed into an i64, first word high.
// CHECK-LABEL: func.func @threefry(
// CHECK: linalg.generic
// CHECK-COUNT-20: arith.shrui
// CHECK: %[[HI:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[SH:.*]] = arith.shli %[[HI]]
// CHECK: %[[LO:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: arith.ori %[[SH]], %[[LO]] : i64
adj.func @threefry(%k: tensor<i32>, %x: tensor<8xi32>) -> tensor<8xi64> {
  %r = adj.threefry2x32 %k, %k, %k, %x : tensor<i32>, tensor<i32>, tensor<i32>, tensor<8xi32>
  adj.return %r : tensor<8xi64>
}
