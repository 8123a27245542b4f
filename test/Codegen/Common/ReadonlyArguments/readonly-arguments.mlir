// RUN: ir-opt %s -adj-readonly-arguments -split-input-file | FileCheck %s

// Tensor arguments of a public function become non-writable; other
// arguments keep their attributes and get none.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false},
// CHECK-SAME: %{{.*}}: index,
// CHECK-SAME: %{{.*}}: tensor<2x3xf64> {bufferization.writable = false, test.keep})
func.func @entry(%x: tensor<4xf32>, %n: index, %y: tensor<2x3xf64> {test.keep})
    -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// Private functions are called only from the module: left alone.
// CHECK-LABEL: func.func private @helper(
// CHECK-SAME: %{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: writable
func.func private @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// Declarations have no body to bufferize.
// CHECK-LABEL: func.func private @external(tensor<4xf32>)
// CHECK-NOT: writable
func.func private @external(tensor<4xf32>)

// CHECK-LABEL: func.func @no_tensors(
// CHECK-SAME: %{{.*}}: index) -> index
// CHECK-NOT: writable
func.func @no_tensors(%n: index) -> index {
  return %n : index
}

// -----

// In the pipeline: bufferization copies an entry argument before writing
// it (the caller's array stays as it was) instead of updating it in place.
// RUN: ir-opt %s -split-input-file -adj-tensor -adj-bufferize | FileCheck %s --check-prefix=BUFFER
// BUFFER-LABEL: func.func @double(
// BUFFER-SAME: %[[X:.*]]: memref<8xf32>
// BUFFER: %[[COPY:.*]] = memref.alloc() {{.*}}: memref<8xf32>
// BUFFER: linalg.generic
// BUFFER-SAME: ins(%[[X]] : memref<8xf32>) outs(%[[COPY]] : memref<8xf32>)
adj.func @double(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = adj.add %x, %x : tensor<8xf32>, tensor<8xf32>
  adj.return %y : tensor<8xf32>
}

// -----

// Donated arguments are memory the caller gave to the call: writable.
// CHECK-LABEL: func.func @donated(
// CHECK-SAME: %{{.*}}: tensor<4xf32> {adj.donated},
// CHECK-SAME: %{{.*}}: tensor<4xf32> {bufferization.writable = false})
func.func @donated(%x: tensor<4xf32> {adj.donated}, %y: tensor<4xf32>)
    -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
