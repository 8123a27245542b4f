//===- ReductionConsumer.h - Consumers of row reductions --------*- C++ -*-===//
//
// Softmax, layer norm and log-softmax follow a row reduction with an
// elementwise op over the same rows that reads the row's result (x - max,
// e / sum, (x - mean) * rstd). The row kernel can run that op right after
// the reduction, while every work item holds the row's result, instead of
// a second launch re-reading the result from memory.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_REDUCTIONCONSUMER_H
#define ADJOINT_LIB_CODEGEN_GPU_REDUCTIONCONSUMER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace adjoint::gpu {

/// The in-place elementwise ops right after a reduction that finish its
/// result (the division of a mean): `out[p] = g(out[p], scalars...)` over
/// the parallel loops only, each run on the result before it is stored.
/// Returns them in order (none is fine).
llvm::SmallVector<mlir::linalg::GenericOp>
matchReductionEpilogues(mlir::linalg::GenericOp reduction);

/// An elementwise linalg.generic that can run inside the row kernel of a
/// reduction.
struct ReductionConsumer {
  mlir::linalg::GenericOp op;
  /// For each input of `op`: whether it reads the reduction's result at the
  /// row of the loop point (then its value is the row's result).
  llvm::SmallVector<bool> readsResult;
};

/// The consumer of `reduction` (one output) that may be fused into its row
/// kernel: the first op after it, past views of the result and allocations,
/// an all-parallel linalg.generic over the same loop ranges that reads the
/// result only broadcast along the reduced loops (through the same indexing
/// map, up to unit dims of a view), and writes fresh buffers that the
/// reduction does not touch.
/// The search starts after `after` (the reduction or its last epilogue).
llvm::FailureOr<ReductionConsumer>
matchReductionConsumer(mlir::linalg::GenericOp reduction,
                       mlir::Operation *after);

/// Moves the allocations between `reduction` and its consumer (the
/// consumer's output buffers among them) above `reduction`, where the fused
/// kernel goes.
void hoistAllocations(mlir::linalg::GenericOp reduction,
                      const ReductionConsumer &consumer);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_REDUCTIONCONSUMER_H
