// For a GPU target the LinearAlgebra ops become the same wrappers as on
// the CPU, but the wrapper calls a declaration of its own on the buffers
// (not LAPACK on addresses), marked with the op's kernel name for
// -adj-gpu-linear-algebra; the scalars are the CPU kernel's.
// RUN: ir-opt %s -adj-to-linalg=target=opencl -cse | FileCheck %s

// The wrappers come first in the module, the last made on top.
// CHECK-LABEL: func.func private @__adj_eigh_values_2x4x4xf64_kernel(
// CHECK-SAME: memref<2x4x4xf64>, memref<2x4xf64>, memref<2x4x4xf64>, i64, i64, i64, i64)
// CHECK-SAME: attributes {adj.linear_algebra = "eigh"}

// CHECK-LABEL: func.func private @__adj_triangular_solve_left_lower_3x3xf32_3x2xf32_kernel(
// CHECK-SAME: memref<3x3xf32>, memref<3x2xf32>, memref<3x2xf32>, i64, i64, i64, i64, i64, i64, i64)
// CHECK-SAME: attributes {adj.linear_algebra = "triangular_solve"}

// CHECK-LABEL: func.func private @__adj_triangular_solve_left_lower_3x3xf32_3x2xf32(
// CHECK-SAME: %[[A:.*]]: tensor<3x3xf32>, %[[B:.*]]: tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK-DAG: %[[AB:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<3x3xf32> to memref<3x3xf32>
// CHECK-DAG: %[[BB:.*]] = bufferization.to_buffer %[[B]] read_only : tensor<3x2xf32> to memref<3x2xf32>
// CHECK-DAG: %[[X:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x2xf32>
// CHECK-NOT: extract_aligned_pointer
// Batch 1, rows 3, cols 2, left, lower, not transposed, not unit.
// CHECK: call @__adj_triangular_solve_left_lower_3x3xf32_3x2xf32_kernel(%[[AB]], %[[BB]], %[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[XT:.*]] = bufferization.to_tensor %[[X]] restrict writable
// CHECK: return %[[XT]]
// CHECK-NOT: adj_kernel_


adj.func @solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %x = adj.triangular_solve %a, %b left_side lower : tensor<3x3xf32>, tensor<3x2xf32>
  adj.return %x : tensor<3x2xf32>
}

adj.func @eigvals(%a: tensor<2x4x4xf64>) -> tensor<2x4xf64> {
  %w, %v = adj.eigh %a : tensor<2x4x4xf64>
  adj.return %w : tensor<2x4xf64>
}
