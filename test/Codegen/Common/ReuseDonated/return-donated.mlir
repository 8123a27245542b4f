// RUN: ir-opt %s -adj-return-donated -split-input-file | FileCheck %s

// A clone of a donated argument that only the return uses goes: the
// argument is the output's memory.
// CHECK-LABEL: func.func @donated(
// CHECK-SAME: %[[W:[^:]*]]: memref<4xf32> {adj.donated}, %[[K:[^:]*]]: memref<4xf32>)
// CHECK-NOT: bufferization.clone %[[W]]
// CHECK: %[[KC:.*]] = bufferization.clone %[[K]]
// CHECK: %[[WC:.*]] = bufferization.clone %[[W]]
// CHECK: memref.store %{{.*}}, %[[WC]]
// CHECK: return %[[W]], %[[KC]], %[[WC]]
func.func @donated(%w: memref<4xf32> {adj.donated}, %k: memref<4xf32>)
    -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %c = bufferization.clone %w : memref<4xf32> to memref<4xf32>
  // Not donated: the caller's memory is copied.
  %d = bufferization.clone %k : memref<4xf32> to memref<4xf32>
  // A clone that is written is a copy of its own.
  %e = bufferization.clone %w : memref<4xf32> to memref<4xf32>
  %i = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %e[%i] : memref<4xf32>
  return %c, %d, %e : memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// Private functions are left alone.
// CHECK-LABEL: func.func private @helper(
// CHECK: bufferization.clone
func.func private @helper(%w: memref<4xf32> {adj.donated}) -> memref<4xf32> {
  %c = bufferization.clone %w : memref<4xf32> to memref<4xf32>
  return %c : memref<4xf32>
}

// -----

// In the pipeline: a donated argument returned as it is comes back
// without a copy; one that is not donated is cloned.
// RUN: ir-opt %s -split-input-file -adj-tensor -adj-bufferize | FileCheck %s --check-prefix=BUFFER
// BUFFER-LABEL: func.func @identity(
// BUFFER-SAME: %[[X:[^:]*]]: memref<3xf64> {adj.donated}, %[[Y:[^:]*]]: memref<3xf64>)
// BUFFER: %[[YC:.*]] = bufferization.clone %[[Y]]
// BUFFER-NOT: bufferization.clone
// BUFFER: return %[[X]], %[[YC]]
adj.func @identity(%x: tensor<3xf64>, %y: tensor<3xf64>)
    -> (tensor<3xf64>, tensor<3xf64>) attributes {adj.donate = array<i64: 0>} {
  adj.return %x, %y : tensor<3xf64>, tensor<3xf64>
}
