// LAPACK's kernels run on the host: for a GPU target the LinearAlgebra ops
// are an error naming the op and the target, never a crash or a call of a
// host kernel on device memory.
// RUN: ir-opt %s -adj-to-linalg=target=opencl -split-input-file -verify-diagnostics
// RUN: not ir-opt %s -adj-lower-to-cuda -split-input-file 2>&1 | FileCheck %s --check-prefix=CUDA

// CUDA: error: adj.eigh is not supported on cuda yet
adj.func @eigh(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{adj.eigh is not supported on opencl yet}}
  %w, %v = adj.eigh %a : tensor<4x4xf32>
  adj.return %w : tensor<4xf32>
}

// -----

adj.func @solve(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{adj.triangular_solve is not supported on opencl yet}}
  %x = adj.triangular_solve %a, %b left_side lower : tensor<3x3xf32>, tensor<3x2xf32>
  adj.return %x : tensor<3x2xf32>
}
