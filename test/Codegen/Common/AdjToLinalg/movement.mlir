// slice, concat and pad become tensor slicing ops; gather a linalg.generic
// reading the table with tensor.extract; scatter_add a sequential scf.for
// over the index positions. Indices are clamped into range.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// The indexing map of @gather's indices (maps print first).
// CHECK: #[[IDX:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>

// CHECK-LABEL: func.func @slice(
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[1, 0, 2] [2, 2, 3] [2, 2, 2] : tensor<5x4x7xf32> to tensor<2x2x3xf32>
// CHECK: return %[[S]]
adj.func @slice(%x: tensor<5x4x7xf32>) -> tensor<2x2x3xf32> {
  %y = adj.slice %x start = [1, 0, 2] limit = [5, 3, 7] stride = [2, 2, 2] : tensor<5x4x7xf32>
  adj.return %y : tensor<2x2x3xf32>
}

// Each input goes to its offset along the axis; empty inputs are skipped.
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xi32>, %{{.*}}: tensor<2x0xi32>, %[[C:.*]]: tensor<2x1xi32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4xi32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK-NOT: tensor.insert_slice %arg1
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[C]] into %[[I0]][0, 3] [2, 1] [1, 1]
// CHECK: return %[[I1]]
adj.func @concat(%a: tensor<2x3xi32>, %b: tensor<2x0xi32>, %c: tensor<2x1xi32>) -> tensor<2x4xi32> {
  %y = adj.concat %a, %b, %c axis = 1 : tensor<2x3xi32>, tensor<2x0xi32>, tensor<2x1xi32>
  adj.return %y : tensor<2x4xi32>
}

// CHECK-LABEL: func.func @concat_one(
// CHECK-NEXT: return %arg0
adj.func @concat_one(%a: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %y = adj.concat %a axis = 0 : tensor<2x3xi32>
  adj.return %y : tensor<2x3xi32>
}

// The pad value converts like adj.cast: -3.7 truncates to -3 ...
// CHECK-LABEL: func.func @pad(
// CHECK: %[[V:.*]] = arith.constant -3 : i64
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[1, 0] high[1, 2]
// CHECK: tensor.yield %[[V]] : i64
// CHECK: } : tensor<2x2xi64> to tensor<4x4xi64>
// CHECK: return %[[P]]
adj.func @pad(%a: tensor<2x2xi64>) -> tensor<4x4xi64> {
  %y = adj.pad %a low = [1, 0] high = [1, 2] value = -3.7 : tensor<2x2xi64>
  adj.return %y : tensor<4x4xi64>
}

// ... and saturates.
// CHECK-LABEL: func.func @pad_saturates(
// CHECK: arith.constant 2147483647 : i32
adj.func @pad_saturates(%a: tensor<1xi32>) -> tensor<3xi32> {
  %y = adj.pad %a low = [1] high = [1] value = 1.0e20 : tensor<1xi32>
  adj.return %y : tensor<3xi32>
}

// The loops run over the result [3, 2, 5, 2]; the indices are read at the
// loops (d1, d2), the table at (d0, clamp(index), d3).
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[T:.*]]: tensor<3x4x2xf32>, %[[I:.*]]: tensor<2x5xi32>
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[I]] : tensor<2x5xi32>) outs(%{{.*}} : tensor<3x2x5x2xf32>)
// CHECK: ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[RAW:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[LAST:.*]] = arith.constant 3 : index
// CHECK: %[[LO:.*]] = arith.minsi %[[RAW]], %[[LAST]] : index
// CHECK: %[[N:.*]] = arith.maxsi %[[LO]], %[[ZERO]] : index
// CHECK: %[[D3:.*]] = linalg.index 3 : index
// CHECK: %[[V:.*]] = tensor.extract %[[T]][%[[D0]], %[[N]], %[[D3]]] : tensor<3x4x2xf32>
// CHECK: linalg.yield %[[V]] : f32
adj.func @gather(%t: tensor<3x4x2xf32>, %i: tensor<2x5xi32>) -> tensor<3x2x5x2xf32> {
  %y = adj.gather %t[%i] axis = 1 : tensor<3x4x2xf32>, tensor<2x5xi32>
  adj.return %y : tensor<3x2x5x2xf32>
}

// A table with no slice along the axis gathers zeros.
// CHECK-LABEL: func.func @gather_empty_table(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK: return %[[F]]
adj.func @gather_empty_table(%t: tensor<0x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %y = adj.gather %t[%i] axis = 0 : tensor<0x4xf32>, tensor<3xi64>
  adj.return %y : tensor<3x4xf32>
}

// For each of the 2 leading positions and each of the 5 indices in order, one
// row of 4 updates is added in place into the clamped row of the target.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME: %[[T:.*]]: tensor<2x3x4xf32>, %[[I:.*]]: tensor<5xi64>, %[[U:.*]]: tensor<2x5x4xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[R:.*]] = scf.for %[[A:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[T]]) -> (tensor<2x3x4xf32>) {
// CHECK: scf.for %[[J:.*]] = %[[C0]] to %[[C5]] step %[[C1]] iter_args(%[[ACC2:.*]] = %[[ACC]]) -> (tensor<2x3x4xf32>) {
// CHECK: %[[RAW:.*]] = tensor.extract %[[I]][%[[J]]] : tensor<5xi64>
// CHECK: arith.index_cast %[[RAW]] : i64 to index
// CHECK: arith.minsi
// CHECK: %[[N:.*]] = arith.maxsi
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[ACC2]][%[[A]], %[[N]], 0] [1, 1, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<4xf32>
// CHECK: %[[UPD:.*]] = tensor.extract_slice %[[U]][%[[A]], %[[J]], 0] [1, 1, 4] [1, 1, 1] : tensor<2x5x4xf32> to tensor<4xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[UPD]] : tensor<4xf32>) outs(%[[ROW]] : tensor<4xf32>)
// CHECK: arith.addf
// CHECK: %[[NEW:.*]] = tensor.insert_slice %[[SUM]] into %[[ACC2]][%[[A]], %[[N]], 0] [1, 1, 4] [1, 1, 1]
// CHECK: scf.yield %[[NEW]]
// CHECK: return %[[R]]
adj.func @scatter_add(%t: tensor<2x3x4xf32>, %i: tensor<5xi64>, %u: tensor<2x5x4xf32>) -> tensor<2x3x4xf32> {
  %y = adj.scatter_add %t[%i], %u axis = 1 : tensor<2x3x4xf32>, tensor<5xi64>, tensor<2x5x4xf32>
  adj.return %y : tensor<2x3x4xf32>
}

// Integers add with arith.addi; a single leading position needs one loop.
// CHECK-LABEL: func.func @scatter_add_i32(
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
adj.func @scatter_add_i32(%t: tensor<3xi32>, %i: tensor<2xi32>, %u: tensor<2xi32>) -> tensor<3xi32> {
  %y = adj.scatter_add %t[%i], %u axis = 0 : tensor<3xi32>, tensor<2xi32>, tensor<2xi32>
  adj.return %y : tensor<3xi32>
}

// No indices: the target itself.
// CHECK-LABEL: func.func @scatter_add_nothing(
// CHECK-NEXT: return %arg0
adj.func @scatter_add_nothing(%t: tensor<3xi32>, %i: tensor<0xi32>, %u: tensor<0xi32>) -> tensor<3xi32> {
  %y = adj.scatter_add %t[%i], %u axis = 0 : tensor<3xi32>, tensor<0xi32>, tensor<0xi32>
  adj.return %y : tensor<3xi32>
}
