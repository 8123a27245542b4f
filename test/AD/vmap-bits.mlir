// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f keys --arg 1 --arg 2 --arg 3 --arg 4 --arg "[0,1,2]" | FileCheck %s --check-prefix=KEYS
// RUN: ir-opt %s -adj-grad | ir-run - -f keys --arg 1 --arg 2 --arg 3 --arg 4 --arg "[0,1,2]" --compile --no-cache | FileCheck %s --check-prefix=KEYS
// RUN: ir-opt %s -adj-grad | ir-run - -f updates --arg "[[1,2,3,4],[5,6,7,8],[9,10,11,12]]" --arg "[3,0,2]" --arg "[20,-30,0]" | FileCheck %s --check-prefix=UPD
// RUN: ir-opt %s -adj-grad | ir-run - -f updates --arg "[[1,2,3,4],[5,6,7,8],[9,10,11,12]]" --arg "[3,0,7]" --arg "[20,-30,0]" --compile --no-cache | FileCheck %s --check-prefix=CLAMPED

// The Bits ops are elementwise: a batch of keys (one per example) hashes
// each example's shared counters under its own key in one threefry2x32,
// the per-example scalar key words raised to rank 1 after the batch.
// vmap(bits)(keys) equals bits called once per key, stacked.

// CHECK-LABEL: adj.func private @bits_vmap2_110(
// CHECK-SAME:      %[[K0:[^:]*]]: tensor<2xi32>, %[[K1:[^:]*]]: tensor<2xi32>, %[[C:[^:]*]]: tensor<3xi32>) -> tensor<2x3xf32>
// CHECK-DAG:     %[[A0:.*]] = adj.reshape %[[K0]] : tensor<2xi32> to tensor<2x1xi32>
// CHECK-DAG:     %[[A1:.*]] = adj.reshape %[[K1]] : tensor<2xi32> to tensor<2x1xi32>
// CHECK:         %[[H:.*]] = adj.threefry2x32 %[[A0]], %[[A1]], %[[C]], %[[C]] : tensor<2x1xi32>, tensor<2x1xi32>, tensor<3xi32>, tensor<3xi32>
// CHECK:         %[[HI:.*]] = adj.shift_right_logical %[[H]], %{{.*}} : tensor<2x3xi64>, tensor<i64>
// CHECK:         adj.bitwise_xor %[[H]], %[[HI]] : tensor<2x3xi64>, tensor<2x3xi64>
// CHECK:         adj.bitwise_and %{{.*}} : tensor<2x3xi64>, tensor<i64>
// CHECK:         adj.shift_left %{{.*}} : tensor<i64>, tensor<i64>
// CHECK:         adj.bitwise_or %{{.*}} : tensor<2x3xi64>, tensor<i64>
// CHECK:         adj.bitcast %{{.*}} : tensor<2x3xi32> to tensor<2x3xf32>

// KEYS: tensor<2x3xf32> [[ROWS:.*]]
// KEYS-NEXT: tensor<2x3xf32> [[ROWS]]
adj.func private @bits(%k0: tensor<i32>, %k1: tensor<i32>, %c: tensor<3xi32>) -> tensor<3xf32> {
  %h = adj.threefry2x32 %k0, %k1, %c, %c : tensor<i32>, tensor<i32>, tensor<3xi32>, tensor<3xi32>
  %n32 = adj.constant dense<32> : tensor<i64>
  %hi = adj.shift_right_logical %h, %n32 : tensor<3xi64>, tensor<i64>
  %x = adj.bitwise_xor %h, %hi : tensor<3xi64>, tensor<3xi64>
  %mask = adj.constant dense<8388607> : tensor<i64>
  %m = adj.bitwise_and %x, %mask : tensor<3xi64>, tensor<i64>
  // 127 << 23 is the exponent of 1.0f: the result is in [1, 2).
  %e = adj.constant dense<127> : tensor<i64>
  %n23 = adj.constant dense<23> : tensor<i64>
  %one = adj.shift_left %e, %n23 : tensor<i64>, tensor<i64>
  %w = adj.bitwise_or %m, %one : tensor<3xi64>, tensor<i64>
  %t = adj.cast %w : tensor<3xi64> to tensor<3xi32>
  %f = adj.bitcast %t : tensor<3xi32> to tensor<3xf32>
  adj.return %f : tensor<3xf32>
}
adj.func @keys(%a0: tensor<i32>, %a1: tensor<i32>, %b0: tensor<i32>, %b1: tensor<i32>, %c: tensor<3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %ra0 = adj.reshape %a0 : tensor<i32> to tensor<1xi32>
  %rb0 = adj.reshape %b0 : tensor<i32> to tensor<1xi32>
  %ra1 = adj.reshape %a1 : tensor<i32> to tensor<1xi32>
  %rb1 = adj.reshape %b1 : tensor<i32> to tensor<1xi32>
  %k0 = adj.concat %ra0, %rb0 axis = 0 : tensor<1xi32>, tensor<1xi32>
  %k1 = adj.concat %ra1, %rb1 axis = 0 : tensor<1xi32>, tensor<1xi32>
  %f = adj.func_ref @bits : !adj.fn<(tensor<i32>, tensor<i32>, tensor<3xi32>) -> tensor<3xf32>>
  %v = adj.vmap %f in_axes = [0, 0, -1] out_axes = [0] batch_size = 2 : !adj.fn<(tensor<i32>, tensor<i32>, tensor<3xi32>) -> tensor<3xf32>>
  %batched = adj.call %v(%k0, %k1, %c) : !adj.fn<(tensor<2xi32>, tensor<2xi32>, tensor<3xi32>) -> tensor<2x3xf32>>
  %ya = adj.call %f(%a0, %a1, %c) : !adj.fn<(tensor<i32>, tensor<i32>, tensor<3xi32>) -> tensor<3xf32>>
  %yb = adj.call %f(%b0, %b1, %c) : !adj.fn<(tensor<i32>, tensor<i32>, tensor<3xi32>) -> tensor<3xf32>>
  %za = adj.reshape %ya : tensor<3xf32> to tensor<1x3xf32>
  %zb = adj.reshape %yb : tensor<3xf32> to tensor<1x3xf32>
  %stacked = adj.concat %za, %zb axis = 0 : tensor<1x3xf32>, tensor<1x3xf32>
  adj.return %batched, %stacked : tensor<2x3xf32>, tensor<2x3xf32>
}

// adj.scatter batches as scatter_add does: with a batched index the batch
// is folded into the indexed dimension (clamped into [0, 4), then offset by 0, 4, 8 per example), so
// `set` and `max` act on each example's own row. stop_gradient and
// optimization_barrier keep their batched input's type.

// CHECK-LABEL: adj.func private @upd_vmap3_111(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<3x4xf32>, %[[I:[^:]*]]: tensor<3xi64>, %[[V:[^:]*]]: tensor<3xf32>)
// CHECK:         %[[LO:.*]] = adj.maximum %[[I]], %{{.*}} : tensor<3xi64>, tensor<i64>
// CHECK:         adj.minimum %[[LO]], %{{.*}} : tensor<3xi64>, tensor<i64>
// CHECK:         adj.scatter set %{{.*}}[%{{.*}}], %{{.*}} axis = 0 : tensor<12xf32>, tensor<3xi64>, tensor<3xf32>
// CHECK:         adj.stop_gradient %{{.*}} : tensor<3x4xf32>
// CHECK:         adj.optimization_barrier %{{.*}} : tensor<3x4xf32>
// CHECK:         adj.scatter max %{{.*}}[%{{.*}}], %{{.*}} axis = 0 : tensor<12xf32>, tensor<3xi64>, tensor<3xf32>
// CHECK-LABEL: adj.func private @upd_vmap3_011(
// CHECK:         adj.broadcast_to %{{.*}} : tensor<4xf32> to tensor<3x4xf32>
// CHECK:         adj.scatter set

// x.at[i].set(v) then .at[i].max(v / 2), per row.
// UPD: tensor<3x4xf32> {{\[}}[1, 2, 3, 20], [-15, 6, 7, 8], [9, 10, 0, 12]]
// UPD-NEXT: tensor<3x4xf32> {{\[}}[1, 2, 3, 20], [-15, 2, 3, 4], [1, 2, 0, 4]]

// Compiled code clamps an index out of range per example (7 is 3 here),
// never into the next example's row.
// CLAMPED: tensor<3x4xf32> {{\[}}[1, 2, 3, 20], [-15, 6, 7, 8], [9, 10, 11, 0]]
// CLAMPED-NEXT: tensor<3x4xf32> {{\[}}[1, 2, 3, 20], [-15, 2, 3, 4], [1, 2, 3, 0]]
adj.func private @upd(%x: tensor<4xf32>, %i: tensor<i64>, %v: tensor<f32>) -> tensor<4xf32> {
  %s = adj.scatter set %x[%i], %v axis = 0 : tensor<4xf32>, tensor<i64>, tensor<f32>
  %g = adj.stop_gradient %s : tensor<4xf32>
  %b = adj.optimization_barrier %g : tensor<4xf32>
  %two = adj.constant dense<2.0> : tensor<f32>
  %h = adj.div %v, %two : tensor<f32>, tensor<f32>
  %m = adj.scatter max %b[%i], %h axis = 0 : tensor<4xf32>, tensor<i64>, tensor<f32>
  adj.return %m : tensor<4xf32>
}
adj.func @updates(%xs: tensor<3x4xf32>, %is: tensor<3xi64>, %vs: tensor<3xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %f = adj.func_ref @upd : !adj.fn<(tensor<4xf32>, tensor<i64>, tensor<f32>) -> tensor<4xf32>>
  %v = adj.vmap %f in_axes = [0, 0, 0] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<4xf32>, tensor<i64>, tensor<f32>) -> tensor<4xf32>>
  %r = adj.call %v(%xs, %is, %vs) : !adj.fn<(tensor<3x4xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<3x4xf32>>
  %x0 = adj.slice %xs start = [0, 0] limit = [1, 4] stride = [1, 1] : tensor<3x4xf32>
  %x = adj.reshape %x0 : tensor<1x4xf32> to tensor<4xf32>
  %w = adj.vmap %f in_axes = [-1, 0, 0] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<4xf32>, tensor<i64>, tensor<f32>) -> tensor<4xf32>>
  %q = adj.call %w(%x, %is, %vs) : !adj.fn<(tensor<4xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<3x4xf32>>
  adj.return %r, %q : tensor<3x4xf32>, tensor<3x4xf32>
}
