//===- Jacobi.h - What the Jacobi eigh and svd kernels share ----*- C++ -*-===//
//
// Jacobi methods suit a workgroup: the rotations of one round of a
// round-robin ordering touch disjoint pairs of indices, so a round is one
// parallel step (MatrixKernel::pairOf). They converge quadratically and
// are as accurate as the matrix allows. Eigh.cpp (two-sided) and Svd.cpp
// (one-sided) build on these: rotations, the sweep loop, ranking values in
// a total order with NaNs last, the sign convention of vectors, and NaN
// results.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_JACOBI_H
#define ADJOINT_LIB_CODEGEN_GPU_JACOBI_H

#include "MatrixKernel.h"

#include <functional>
#include <utility>

namespace adjoint::gpu::jacobi {

/// Sweeps before giving up on convergence; a Jacobi method needs some 5 to
/// 15 for matrices of up to thousands of rows.
inline constexpr int64_t kMaxSweeps = 40;

/// i1, the type of flags.
inline mlir::Type boolType(MatrixKernel &k) {
  return mlir::IntegerType::get(k.element().getContext(), 1);
}

/// A matrix buffer read as itself or as its transpose.
struct View {
  mlir::Value buffer;
  bool transposed = false;

  mlir::Value load(MatrixKernel &k, mlir::Value i, mlir::Value j) const {
    return transposed ? k.load(buffer, {j, i}) : k.load(buffer, {i, j});
  }
  void store(MatrixKernel &k, mlir::Value v, mlir::Value i,
             mlir::Value j) const {
    if (transposed)
      k.store(v, buffer, {j, i});
    else
      k.store(v, buffer, {i, j});
  }
};

/// The rotation (c, s) with t = s / c = sign(zeta) / (|zeta| +
/// sqrt(1 + zeta^2)), the smaller root of t^2 + 2 zeta t - 1 = 0.
std::pair<mlir::Value, mlir::Value> rotation(MatrixKernel &k,
                                             mlir::Value zeta);

/// (x, y) <- (c x - s y, s x + c y) for column (or row) entries at `x`, `y`.
void rotate(MatrixKernel &k, const View &m, mlir::Value c, mlir::Value s,
            mlir::Value xi, mlir::Value xj, mlir::Value yi, mlir::Value yj);

/// Runs `sweep` until it reports no rotation, at most kMaxSweeps times.
/// `sweep` sets flags[tid] when the work item rotated; every item then
/// reads all flags, so the decision is the same everywhere.
void iterate(MatrixKernel &k, mlir::Value flags,
             const std::function<void()> &sweep);

/// The position of `values[i]` among `values[0..count)` sorted.
mlir::Value rankOf(MatrixKernel &k, mlir::Value values, mlir::Value i,
                   int64_t count, bool descending);

/// Negates line `line` (a column of `m` over `length` rows) unless its
/// entry of largest magnitude (the first of equal ones) is positive;
/// `alsoFlip` negates a partner line too.
void signLine(MatrixKernel &k, const View &m, mlir::Value line, int64_t length,
              const std::function<void()> &alsoFlip = nullptr);

/// Fills matrix (or vector, one size) `buffer` of the workgroup with NaN.
void fillNaN(MatrixKernel &k, mlir::Value buffer,
             llvm::ArrayRef<int64_t> sizes);

} // namespace adjoint::gpu::jacobi

#endif // ADJOINT_LIB_CODEGEN_GPU_JACOBI_H
