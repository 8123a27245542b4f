// RUN: ir-opt %s -adj-to-linalg -adj-fuse-elementwise -canonicalize -cse | FileCheck %s

// The transposed operand map of @transpose_matmul.
// CHECK-DAG: #[[TA:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d0)>

// Ten elementwise ops (unary and binary, one broadcast operand) are one loop
// nest: one linalg.generic whose body holds all ten ops in order.
// CHECK-LABEL: func.func @chain_of_ten
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.addf %[[X]], %[[Y]]
// CHECK: arith.mulf
// CHECK: math.exp
// CHECK: arith.subf
// CHECK: math.tanh
// CHECK: arith.maximumf
// CHECK: arith.negf
// CHECK: arith.mulf
// CHECK: math.absf
// CHECK: arith.addf %{{.*}}, %[[B]]
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return
adj.func @chain_of_ten(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = adj.add %x, %y : tensor<4x16xf32>, tensor<4x16xf32>
  %1 = adj.mul %0, %x : tensor<4x16xf32>, tensor<4x16xf32>
  %2 = adj.exp %1 : tensor<4x16xf32>
  %3 = adj.sub %2, %y : tensor<4x16xf32>, tensor<4x16xf32>
  %4 = adj.tanh %3 : tensor<4x16xf32>
  %5 = adj.maximum %4, %x : tensor<4x16xf32>, tensor<4x16xf32>
  %6 = adj.neg %5 : tensor<4x16xf32>
  %7 = adj.mul %6, %y : tensor<4x16xf32>, tensor<4x16xf32>
  %8 = adj.abs %7 : tensor<4x16xf32>
  %9 = adj.add %8, %b : tensor<4x16xf32>, tensor<16xf32>
  adj.return %9 : tensor<4x16xf32>
}

// An explicit broadcast, a product and a sum are one reduction: the
// broadcast operand is read through its map, no [8, 4] tensor is made.
// CHECK-LABEL: func.func @broadcast_mul_reduce
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[ID:map[0-9]*]], #[[COL:map[0-9]*]], #[[ROW:map[0-9]*]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: outs(%[[FILL]] : tensor<8xf32>)
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.reduce
adj.func @broadcast_mul_reduce(%x: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<8xf32> {
  %bb = adj.broadcast_to %b : tensor<4xf32> to tensor<8x4xf32>
  %m = adj.mul %x, %bb : tensor<8x4xf32>, tensor<8x4xf32>
  %s = adj.reduce_sum %m axes = [1] : tensor<8x4xf32>
  adj.return %s : tensor<8xf32>
}

// A transpose feeding a matmul becomes the matmul's indexing map; the
// matmul stays a named op.
// CHECK-LABEL: func.func @transpose_matmul
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.generic
// CHECK: linalg.matmul indexing_maps = [#[[TA]],
// CHECK-SAME: ins(%arg0, %arg1 : tensor<8x4xf32>, tensor<8x3xf32>)
adj.func @transpose_matmul(%x: tensor<8x4xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %t = adj.transpose %x perm = [1, 0] : tensor<8x4xf32>
  %m = adj.matmul %t, %w : tensor<4x8xf32>, tensor<8x3xf32>
  adj.return %m : tensor<4x3xf32>
}

// An elementwise producer never moves into a matmul (that would recompute
// it k times and hide the contraction from the kernels); its consumer
// (bias + relu) fuses into one loop after the matmul.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK: %[[E:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[E]], %arg1
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[M]], %arg2
// CHECK: arith.addf
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK-NOT: linalg.generic
adj.func @matmul_bias_relu(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %e = adj.exp %x : tensor<4x8xf32>
  %m = adj.matmul %e, %w : tensor<4x8xf32>, tensor<8x3xf32>
  %z = adj.add %m, %b : tensor<4x3xf32>, tensor<3xf32>
  %r = adj.relu %z : tensor<4x3xf32>
  adj.return %r : tensor<4x3xf32>
}

// An expensive producer with two consumers: when one consumer feeds the
// other, everything becomes one loop that computes exp once.
// CHECK-LABEL: func.func @diamond
// CHECK-COUNT-1: math.exp
// CHECK-NOT: math.exp
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
// CHECK: return
adj.func @diamond(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = adj.exp %x : tensor<16xf32>
  %a = adj.add %e, %x : tensor<16xf32>, tensor<16xf32>
  %m = adj.mul %e, %a : tensor<16xf32>, tensor<16xf32>
  adj.return %m : tensor<16xf32>
}

// When both consumers are results, exp is computed once, in one loop with
// both sums as its results (multi-output fusion): fusing it into each
// consumer would compute it twice, and keeping it apart costs a loop and a
// round trip through memory.
// CHECK-LABEL: func.func @shared_expensive_producer
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: ins(%arg0 : tensor<16xf32>)
// CHECK-COUNT-1: math.exp
// CHECK-NOT: math.exp
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1
adj.func @shared_expensive_producer(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = adj.exp %x : tensor<16xf32>
  %a = adj.add %e, %x : tensor<16xf32>, tensor<16xf32>
  %m = adj.mul %e, %x : tensor<16xf32>, tensor<16xf32>
  adj.return %a, %m : tensor<16xf32>, tensor<16xf32>
}

// A chain whose every link is also a result (a normalization's forward
// pass keeps each for the gradient) is one loop writing all three.
// CHECK-LABEL: func.func @kept_chain
// CHECK: %[[R:.*]]:3 = linalg.generic
// CHECK-SAME: ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK: arith.subf
// CHECK: math.rsqrt
// CHECK: arith.mulf
// CHECK: math.tanh
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
adj.func @kept_chain(%x: tensor<4x16xf32>, %m: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %d = adj.sub %x, %m : tensor<4x16xf32>, tensor<4x16xf32>
  %r = adj.rsqrt %d : tensor<4x16xf32>
  %y = adj.mul %r, %x : tensor<4x16xf32>, tensor<4x16xf32>
  %t = adj.tanh %y : tensor<4x16xf32>
  adj.return %r, %y, %t : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// A reader of the producer before the consumer (the sum) cannot take the
// producer's values from a loop after it: exp stays its own loop.
// CHECK-LABEL: func.func @reader_before_consumer
// CHECK: %[[E:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[E]]
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[E]]
// CHECK-NOT: math.exp
// CHECK: arith.mulf
adj.func @reader_before_consumer(%x: tensor<8x4xf32>) -> (tensor<8xf32>, tensor<8x4xf32>) {
  %e = adj.exp %x : tensor<8x4xf32>
  %s = adj.reduce_sum %e axes = [1] : tensor<8x4xf32>
  %m = adj.mul %e, %x : tensor<8x4xf32>, tensor<8x4xf32>
  adj.return %s, %m : tensor<8xf32>, tensor<8x4xf32>
}

// An expensive producer read through a broadcast stays its own loop: fused,
// it would run once per broadcast row.
// CHECK-LABEL: func.func @broadcast_expensive_producer
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel"]
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-NOT: math.exp
// CHECK: arith.mulf
adj.func @broadcast_expensive_producer(%x: tensor<64x16xf32>, %v: tensor<16xf32>) -> tensor<64x16xf32> {
  %e = adj.exp %v : tensor<16xf32>
  %m = adj.mul %x, %e : tensor<64x16xf32>, tensor<16xf32>
  adj.return %m : tensor<64x16xf32>
}

// Softmax's pieces: exp(x - max) fuses into the sum's reduction.
// CHECK-LABEL: func.func @exp_into_sum
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK-NEXT: arith.addf
// CHECK-NOT: linalg.generic
adj.func @exp_into_sum(%x: tensor<8x4xf32>, %m: tensor<8x1xf32>) -> tensor<8xf32> {
  %d = adj.sub %x, %m : tensor<8x4xf32>, tensor<8x1xf32>
  %e = adj.exp %d : tensor<8x4xf32>
  %s = adj.reduce_sum %e axes = [1] : tensor<8x4xf32>
  adj.return %s : tensor<8xf32>
}
