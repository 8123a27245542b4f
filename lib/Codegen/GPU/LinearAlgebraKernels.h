//===- LinearAlgebraKernels.h - Decompositions as GPU kernels ---*- C++ -*-===//
//
// The kernels of -adj-gpu-linear-algebra (LinearAlgebra.cpp), one emitter
// per op: Factorizations.cpp (cholesky, triangular_solve, lu, qr),
// Eigh.cpp and Svd.cpp (Jacobi methods, sharing Jacobi.h). Each replaces
// one call of an `adj.linear_algebra` declaration with the kernel
// computing what the op defines (include/adjoint/Dialect/Adj/IR/
// AdjOps.td), in the same conventions as the interpreter and the LAPACK
// kernels: pivots, reflector signs, NaNs on failure, ascending eigenvalues
// and the sign of vectors.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_LINEARALGEBRAKERNELS_H
#define ADJOINT_LIB_CODEGEN_GPU_LINEARALGEBRAKERNELS_H

#include "MatrixKernel.h"

#include "mlir/IR/BuiltinTypes.h"

namespace adjoint::gpu {

/// A call to replace: its buffers (the op's operands, then its results, as
/// -adj-to-linalg passes them) and its i64 scalars (the batch size, the
/// matrix sizes, then the op's flags; see describe() in
/// lib/Codegen/Common/AdjToLinalg/LinearAlgebra.cpp).
struct LinearAlgebraCall {
  mlir::Location loc;
  llvm::SmallVector<mlir::Value> buffers;
  llvm::SmallVector<int64_t> scalars;

  /// The element type the decomposition computes in.
  mlir::Type element() const;
  /// The batch dimensions of the first operand.
  llvm::ArrayRef<int64_t> batchShape() const;
  /// The last two dimensions of buffer `i`.
  std::pair<int64_t, int64_t> matrix(unsigned i) const;
  int64_t batchCount() const;
};

/// What one kernel gets besides its MatrixKernel: a global scratch buffer
/// per shape asked for (with the batch dimensions in front, freed after
/// the launch) and the workgroup buffers asked for.
struct KernelBuffers {
  llvm::SmallVector<mlir::Value> scratch;
  llvm::SmallVector<mlir::Value> workgroup;
};

using MatrixKernelBody =
    std::function<void(MatrixKernel &, const KernelBuffers &)>;

/// Emits at `b`'s insertion point (host code) the scratch allocations, a
/// launch of one workgroup of `threads` items per matrix of the batch with
/// `body` inside, and the scratch deallocations.
void emitMatrixLaunch(mlir::OpBuilder &b, const LinearAlgebraCall &call,
                      int64_t threads,
                      llvm::ArrayRef<llvm::SmallVector<int64_t>> scratchShapes,
                      llvm::ArrayRef<mlir::MemRefType> workgroupBuffers,
                      const MatrixKernelBody &body);

/// The same with one launch per body, in order, sharing the scratch (each
/// launch has workgroup buffers of its own): a long algorithm split where
/// one kernel would need more registers than a GPU has.
void emitMatrixLaunches(
    mlir::OpBuilder &b, const LinearAlgebraCall &call, int64_t threads,
    llvm::ArrayRef<llvm::SmallVector<int64_t>> scratchShapes,
    llvm::ArrayRef<mlir::MemRefType> workgroupBuffers,
    llvm::ArrayRef<MatrixKernelBody> bodies);

/// The work items for a matrix step over `work` parallel lines: a power of
/// two between one NVIDIA warp and 256.
int64_t threadsFor(int64_t work);

void emitCholesky(mlir::OpBuilder &b, const LinearAlgebraCall &call);
void emitTriangularSolve(mlir::OpBuilder &b, const LinearAlgebraCall &call);
void emitLu(mlir::OpBuilder &b, const LinearAlgebraCall &call);
void emitQr(mlir::OpBuilder &b, const LinearAlgebraCall &call);
void emitEigh(mlir::OpBuilder &b, const LinearAlgebraCall &call);
void emitSvd(mlir::OpBuilder &b, const LinearAlgebraCall &call);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_LINEARALGEBRAKERNELS_H
