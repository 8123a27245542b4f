// The LinearAlgebra ops become calls of private wrappers on tensors, one
// per configuration and operand type, each calling the runtime's LAPACK
// kernel with the buffers' addresses, the batch size, the matrix sizes and
// the op's flags (include/adjoint/Runtime/KernelsLinearAlgebra.h).
// RUN: ir-opt %s -adj-to-linalg -cse | FileCheck %s

// CHECK-LABEL: func.func private @__adj_svd_values_3x5x2xf32(
// CHECK-SAME: %[[A:.*]]: tensor<3x5x2xf32>) -> (tensor<3x5x2xf32>, tensor<3x2xf32>, tensor<3x2x2xf32>)
// CHECK: call @adj_kernel_svd_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index, index, i64, i64, i64, i64, i64) -> ()

// CHECK-LABEL: func.func private @__adj_svd_full_5x3xf32(
// Addresses of the input and the three results; batch 1, m 5, n 3, full,
// vectors.
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[FIVE:.*]] = arith.constant 5 : i64
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
// CHECK: call @adj_kernel_svd_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %[[FIVE]], %[[THREE]], %[[ONE]], %[[ONE]])

// CHECK-LABEL: func.func private @__adj_eigh_upper_2x4x4xf64(
// CHECK-SAME: %[[A:.*]]: tensor<2x4x4xf64>) -> (tensor<2x4xf64>, tensor<2x4x4xf64>)
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[A]] read_only : tensor<2x4x4xf64> to memref<2x4x4xf64>
// CHECK: %[[W:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4xf64>
// CHECK: %[[V:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4x4xf64>
// CHECK: %[[INP:.*]] = memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK: %[[WP:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: %[[VP:.*]] = memref.extract_aligned_pointer_as_index %[[V]]
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : i64
// The flags upper and vectors.
// CHECK-DAG: %[[UP:.*]] = arith.constant 1 : i64
// CHECK: call @adj_kernel_eigh_f64(%[[INP]], %[[WP]], %[[VP]], %[[TWO]], %[[FOUR]], %[[UP]], %[[UP]])
// CHECK: %[[WT:.*]] = bufferization.to_tensor %[[W]] restrict writable
// CHECK: %[[VT:.*]] = bufferization.to_tensor %[[V]] restrict writable
// CHECK: return %[[WT]], %[[VT]]

// CHECK-LABEL: func.func private @__adj_qr_4x3xf32(
// CHECK: call @adj_kernel_qr_f32(

// CHECK-LABEL: func.func private @__adj_lu_3x3xf64(
// CHECK-SAME: -> (tensor<3x3xf64>, tensor<3xi32>, tensor<3xi32>)
// CHECK: call @adj_kernel_lu_f64(

// CHECK-LABEL: func.func private @__adj_triangular_solve_left_lower_transpose_3x3xf64_3x2xf64(
// The batch, b's rows and columns, then left_side, lower, transpose_a
// and unit_diagonal (no).
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: call @adj_kernel_triangular_solve_f64(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %[[THREE]], %[[TWO]], %[[ONE]], %[[ONE]], %[[ONE]], %[[ZERO]])

// The kernel's declaration: addresses, then i64 sizes and flags.
// CHECK: func.func private @adj_kernel_cholesky_f64(index, index, i64, i64)
// CHECK-LABEL: func.func private @__adj_cholesky_3x3xf64(
// CHECK: call @adj_kernel_cholesky_f64(

// CHECK-LABEL: func.func @decompositions(
// CHECK: %[[L:.*]] = call @__adj_cholesky_3x3xf64(%{{.*}}) : (tensor<3x3xf64>) -> tensor<3x3xf64>
// Two calls of one configuration share a wrapper.
// CHECK: call @__adj_cholesky_3x3xf64(%[[L]])
// CHECK: call @__adj_triangular_solve_left_lower_transpose_3x3xf64_3x2xf64(
// CHECK: call @__adj_lu_3x3xf64(
adj.func @decompositions(%a: tensor<3x3xf64>, %b: tensor<3x2xf64>)
    -> (tensor<3x3xf64>, tensor<3x2xf64>, tensor<3x3xf64>, tensor<3xi32>) {
  %l = adj.cholesky %a : tensor<3x3xf64>
  %l2 = adj.cholesky %l : tensor<3x3xf64>
  %x = adj.triangular_solve %l, %b left_side lower transpose_a
       : tensor<3x3xf64>, tensor<3x2xf64>
  %lu, %piv, %perm = adj.lu %a : tensor<3x3xf64>
  adj.return %l2, %x, %lu, %perm : tensor<3x3xf64>, tensor<3x2xf64>, tensor<3x3xf64>, tensor<3xi32>
}

// CHECK-LABEL: func.func @spectral(
// CHECK: call @__adj_qr_4x3xf32(
// CHECK: call @__adj_eigh_upper_2x4x4xf64(
// CHECK: call @__adj_svd_full_5x3xf32(
// Only the singular values are used: the kernel skips the vectors.
// CHECK: call @__adj_svd_values_3x5x2xf32(
adj.func @spectral(%a: tensor<4x3xf32>, %s: tensor<2x4x4xf64>,
                   %c: tensor<5x3xf32>, %d: tensor<3x5x2xf32>)
    -> (tensor<4x3xf32>, tensor<2x4xf64>, tensor<2x4x4xf64>, tensor<5x5xf32>,
        tensor<3x2xf32>) {
  %q, %r = adj.qr %a : tensor<4x3xf32>
  %w, %v = adj.eigh %s upper : tensor<2x4x4xf64>
  %u, %sv, %vh = adj.svd %c full_matrices : tensor<5x3xf32>
  %u2, %sv2, %vh2 = adj.svd %d : tensor<3x5x2xf32>
  adj.return %q, %w, %v, %u, %sv2 : tensor<4x3xf32>, tensor<2x4xf64>, tensor<2x4x4xf64>, tensor<5x5xf32>, tensor<3x2xf32>
}
