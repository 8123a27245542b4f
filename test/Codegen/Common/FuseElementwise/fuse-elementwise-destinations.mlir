// RUN: ir-opt %s -adj-to-linalg -canonicalize -cse -adj-fuse-elementwise | FileCheck %s

// Destinations, as the CPU tensor stage runs the pass: after CSE, which
// merges equal fills. Two matmuls share one zero fill; each gets its own
// so that both can write in place. The update w - 0.1 * (p @ q) writes
// over the product, a temporary that nothing else reads, instead of a new
// tensor.empty; it may not write over %w, an argument.
// CHECK-LABEL: func.func @destinations
// CHECK-SAME: (%[[W:.*]]: tensor<4x3xf32>, %[[P:.*]]: tensor<4x8xf32>, %[[Q:.*]]: tensor<8x3xf32>, %[[Q2:.*]]: tensor<8x3xf32>)
// CHECK: %[[F1:.*]] = linalg.fill
// CHECK: %[[M1:.*]] = linalg.matmul ins(%[[P]], %[[Q]] : {{.*}}) outs(%[[F1]] :
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[W]], %[[M1]] : tensor<4x3xf32>, tensor<4x3xf32>) outs(%[[M1]] : tensor<4x3xf32>)
// CHECK: %[[F2:.*]] = linalg.fill
// CHECK: %[[M2:.*]] = linalg.matmul ins(%[[P]], %[[Q2]] : {{.*}}) outs(%[[F2]] :
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[W]], %[[M2]] : tensor<4x3xf32>, tensor<4x3xf32>) outs(%[[M2]] : tensor<4x3xf32>)
adj.func @destinations(%w: tensor<4x3xf32>, %p: tensor<4x8xf32>, %q: tensor<8x3xf32>, %q2: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %g = adj.matmul %p, %q : tensor<4x8xf32>, tensor<8x3xf32>
  %lr = adj.constant dense<0.1> : tensor<f32>
  %s = adj.mul %g, %lr : tensor<4x3xf32>, tensor<f32>
  %u = adj.sub %w, %s : tensor<4x3xf32>, tensor<4x3xf32>
  %g2 = adj.matmul %p, %q2 : tensor<4x8xf32>, tensor<8x3xf32>
  %s2 = adj.mul %g2, %lr : tensor<4x3xf32>, tensor<f32>
  %u2 = adj.add %w, %s2 : tensor<4x3xf32>, tensor<4x3xf32>
  adj.return %u, %u2 : tensor<4x3xf32>, tensor<4x3xf32>
}

// Two results of one type: CSE merges their tensor.empty destinations into
// one; each op gets its own again (ops sharing an empty form one alias set
// for one-shot bufferization, whose analysis is quadratic in its size).
// CHECK-LABEL: func.func @own_empties
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[A:.*]] = linalg.generic
// CHECK-SAME: outs(%[[E1]] : tensor<4x3xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[B:.*]] = linalg.generic
// CHECK-SAME: outs(%[[E2]] : tensor<4x3xf32>)
// CHECK: return %[[A]], %[[B]]
adj.func @own_empties(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %a = adj.tanh %x : tensor<4x3xf32>
  %b = adj.exp %x : tensor<4x3xf32>
  adj.return %a, %b : tensor<4x3xf32>, tensor<4x3xf32>
}

// Two scatters into one zero fill (the gradients of two embedding tables):
// each loop carries the tensor it scatters into in place, so each gets a
// fill of its own; sharing one, bufferization copied the whole filled
// buffer into the second loop's (a read and a write where a fill writes).
// CHECK-LABEL: func.func @scatter_fills
// CHECK: %[[F1:.*]] = linalg.fill
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[F1]])
// CHECK: %[[F2:.*]] = linalg.fill
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[F2]])
adj.func @scatter_fills(%i: tensor<8xi64>, %u: tensor<8x16xf32>, %j: tensor<8xi64>) -> (tensor<100x16xf32>, tensor<100x16xf32>) {
  %z = adj.fill 0.0 : tensor<100x16xf32>
  %a = adj.scatter_add %z[%i], %u axis = 0 : tensor<100x16xf32>, tensor<8xi64>, tensor<8x16xf32>
  %b = adj.scatter_add %z[%j], %u axis = 0 : tensor<100x16xf32>, tensor<8xi64>, tensor<8x16xf32>
  adj.return %a, %b : tensor<100x16xf32>, tensor<100x16xf32>
}
