// Scatter loops (adj.scatter_add and adj.scatter on buffers: an scf.for
// over the positions combining one row per step) become one kernel each,
// with no host loop and no read of the indices on the host. With atomics
// a sum is one work item per updated element (memref.atomic_rmw on the
// target's own buffer); other combines, and every combine without atomics,
// walk the positions in order in a work item per target column.
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-scatters=atomics=true | FileCheck %s --check-prefix=ATOMIC
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-scatters | FileCheck %s --check-prefix=ORDERED

// ATOMIC-LABEL: func.func @sum(
// ATOMIC-SAME:      %[[T:.*]]: memref<2x3x4xf32>, %[[I:.*]]: memref<5xi64>, %[[U:.*]]: memref<2x5x4xf32>)
// ATOMIC:         %[[ACC:.*]] = memref.alloc() {{.*}} : memref<2x3x4xf32>
// ATOMIC:         memref.copy %[[T]], %[[ACC]]
// ATOMIC-NOT:     scf.for
// 2 x 5 x 4 updates, one work item each.
// ATOMIC:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c40{{(_[0-9]+)?}},
// ATOMIC:           %[[COL:.*]] = arith.remui %{{.*}}, %c4
// ATOMIC:           %[[REST:.*]] = arith.divui %{{.*}}, %c4
// ATOMIC:           %[[J:.*]] = arith.remui %[[REST]], %c5
// ATOMIC:           %[[A:.*]] = arith.divui %[[REST]], %c5
// ATOMIC:           memref.load %[[I]][%[[J]]] : memref<5xi64>
// ATOMIC:           %[[V:.*]] = memref.load %{{.*}}[%[[COL]]]
// ATOMIC:           memref.atomic_rmw addf %[[V]], %[[ACC]][%[[A]], %{{.*}}, %{{.*}}] : (f32, memref<2x3x4xf32>) -> f32
// ATOMIC-NOT:     scf.for
// ATOMIC:         return %[[ACC]]

// ORDERED-LABEL: func.func @sum(
// ORDERED:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c8{{(_[0-9]+)?}},
// ORDERED:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// ORDERED:             memref.load %{{.*}}[%[[J]]] : memref<5xi64>
// ORDERED:             %[[V:.*]] = memref.load
// ORDERED:             %[[OLD:.*]] = memref.load
// ORDERED:             %[[NEW:.*]] = arith.addf %[[OLD]], %[[V]] : f32
// ORDERED:             memref.store %[[NEW]]
// ORDERED-NOT:       memref.atomic_rmw
adj.func @sum(%t: tensor<2x3x4xf32>, %i: tensor<5xi64>, %u: tensor<2x5x4xf32>) -> tensor<2x3x4xf32> {
  %y = adj.scatter_add %t[%i], %u axis = 1 : tensor<2x3x4xf32>, tensor<5xi64>, tensor<2x5x4xf32>
  adj.return %y : tensor<2x3x4xf32>
}

// Integer sums are atomic adds too; no leading loop here.
// ATOMIC-LABEL: func.func @ints(
// ATOMIC:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c9{{(_[0-9]+)?}},
// ATOMIC:           memref.atomic_rmw addi
adj.func @ints(%t: tensor<4x3xi32>, %i: tensor<3xi64>, %u: tensor<3x3xi32>) -> tensor<4x3xi32> {
  %y = adj.scatter_add %t[%i], %u axis = 0 : tensor<4x3xi32>, tensor<3xi64>, tensor<3x3xi32>
  adj.return %y : tensor<4x3xi32>
}

// `set` keeps the last of repeated positions: never atomic, in order.
// ATOMIC-LABEL: func.func @set(
// ATOMIC:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c3{{(_[0-9]+)?}},
// ATOMIC:           scf.for
// ATOMIC-NOT:       memref.atomic_rmw
// ATOMIC:         return
adj.func @set(%t: tensor<4x3xf32>, %i: tensor<3xi64>, %u: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %y = adj.scatter set %t[%i], %u axis = 0 : tensor<4x3xf32>, tensor<3xi64>, tensor<3x3xf32>
  adj.return %y : tensor<4x3xf32>
}

// The same structure without the scatter's tag (a user's loop) stays a
// loop: its trips may depend on each other in ways no kernel keeps.
// ATOMIC-LABEL: func.func @untagged(
// ATOMIC-NOT:     gpu.launch
// ATOMIC:         scf.for
// ATOMIC-NOT:     gpu.launch
// ATOMIC:         return
#row = affine_map<(d0) -> (d0)>
func.func @untagged(%t: memref<3x4xf32>, %i: memref<5xi64>, %u: memref<5x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  scf.for %j = %c0 to %c5 step %c1 {
    %raw = memref.load %i[%j] : memref<5xi64>
    %n = arith.index_cast %raw : i64 to index
    %lo = arith.minsi %n, %c2 : index
    %k = arith.maxsi %lo, %c0 : index
    %row = memref.subview %t[%k, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    %upd = memref.subview %u[%j, 0] [1, 4] [1, 1] : memref<5x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel"]}
        ins(%upd : memref<4xf32, strided<[1], offset: ?>>) outs(%row : memref<4xf32, strided<[1], offset: ?>>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %out, %in : f32
      linalg.yield %s : f32
    }
  }
  return
}
