//===- SimplifyUtils.h - Helpers shared by the simplification passes -*- C++ -*-===//
//
// Internal to lib/Dialect/Adj/Transforms: building zero sensitivities,
// recognizing constant zeros and ones, and rebuilding control-flow ops with
// different carried values or results.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_SIMPLIFYUTILS_H
#define ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_SIMPLIFYUTILS_H

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <optional>

namespace adjoint::adj {

/// The greedy driver's configuration of the simplification passes. They run
/// in -adj-optimize's rounds, where `canonicalize` simplifies regions once a
/// round: doing it again in every driver iteration of every pass walked all
/// blocks of the program each time (a fifth of -adj-optimize on long
/// straight-line gradients).
inline mlir::GreedyRewriteConfig simplifyDriverConfig() {
  mlir::GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(
      mlir::GreedySimplifyRegionLevel::Disabled);
  return config;
}

/// Builds the zero of `type`: `adj.fill 0.0` for a statically shaped tensor,
/// a tuple of zeros for a tuple, `adj.env_new` for an environment. Returns
/// null (building nothing) when `type` has no zero that can be built, e.g.
/// a dynamically shaped tensor, a function or `!adj.any`.
mlir::Value buildZero(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Type type);

/// True when a zero of `type` can be built with buildZero.
bool canBuildZero(mlir::Type type);

/// The elements of a tuple value: the operands when it is built by
/// adj.tuple (so that no get/tuple pair is left behind), new adj.get ops
/// otherwise.
llvm::SmallVector<mlir::Value> tupleElements(mlir::OpBuilder &builder,
                                             mlir::Location loc,
                                             mlir::Value tuple);

/// The value every element of `value` has when it is an `adj.fill` or an
/// `adj.constant` whose elements are all equal; std::nullopt otherwise.
std::optional<double> getUniformConstant(mlir::Value value);

/// True when `value` is an `adj.fill` or `adj.constant` of all zeros (of
/// either sign).
inline bool isConstantZero(mlir::Value value) {
  std::optional<double> c = getUniformConstant(value);
  return c && *c == 0.0;
}

/// True when `value` is an `adj.fill` or `adj.constant` of all ones.
inline bool isConstantOne(mlir::Value value) {
  std::optional<double> c = getUniformConstant(value);
  return c && *c == 1.0;
}

/// Rewrites `block` into a fresh block appended to `dest` whose arguments
/// have `newTypes`; `remap(builder, newArgs)` is called with the builder at
/// the start of the new block and returns one replacement value per old
/// argument. The old block's operations are moved into the new block.
void rebuildBlock(
    mlir::RewriterBase &rewriter, mlir::Block *block, mlir::Region &dest,
    mlir::TypeRange newTypes,
    llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::OpBuilder &,
                                                      mlir::ValueRange)>
        remap);

} // namespace adjoint::adj

#endif // ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_SIMPLIFYUTILS_H
