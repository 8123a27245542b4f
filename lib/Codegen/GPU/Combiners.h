//===- Combiners.h - Reduction combiners and their identities ---*- C++ -*-===//
//
// A reduction payload yields `c(x, out)` per output; this recognises `c`
// (commutative and associative, with an identity) so that partial results
// can be combined in any order across work items and subgroups.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_COMBINERS_H
#define ADJOINT_LIB_CODEGEN_GPU_COMBINERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace adjoint::gpu {

/// How output `k` of a reduction payload is combined.
struct Combiner {
  mlir::Operation *op = nullptr; ///< the combiner in the payload
  unsigned accumulatorOperand = 0; ///< which of its operands is `out`
  mlir::TypedAttr identity;

  /// `c(value, accumulator)` as the payload writes it.
  mlir::Value combine(mlir::OpBuilder &b, mlir::Value value,
                      mlir::Value accumulator) const;
};

/// The combiner of every output of `op`, or failure when a payload yield is
/// not `c(x, out)` with `out` used only by `c`, `c` used only by the yield,
/// and `c` one of the commutative, associative ops with an identity.
llvm::FailureOr<llvm::SmallVector<Combiner>>
matchCombiners(mlir::linalg::GenericOp op);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_COMBINERS_H
