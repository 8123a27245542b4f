//===- BatchRules.h - Batching rules of the adj primitives ------*- C++ -*-===//
//
// The vmap transform (lib/AD/Batching.cpp) keeps, for every value of the
// batched program, whether it carries the batch: a batched value has the
// batch dimension at axis 0, an unbatched one is shared by every example
// and keeps its per-example type. A primitive with at least one batched
// operand is rewritten by its family's rule (one file per family here);
// rules keep unbatched operands unbatched wherever the op can broadcast
// them, so that shared weights are never copied per example.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_AD_RULES_BATCHING_BATCHRULES_H
#define ADJOINT_LIB_AD_RULES_BATCHING_BATCHRULES_H

#include "../Emitter.h"

#include <functional>

namespace adjoint::ad::batching {

/// A value of the batched program and whether it carries the batch.
struct Batched {
  mlir::Value value;
  bool batched = false;
};

/// Rewrites the primitive `op` (of the per-example program; its operands'
/// counterparts are `operands`, at least one batched) for a batch of
/// `size`. Returns one entry per result, or failure after a diagnostic at
/// `op`.
using BatchRule = std::function<mlir::FailureOr<llvm::SmallVector<Batched>>(
    rules::Emitter &e, mlir::Operation *op, llvm::ArrayRef<Batched> operands,
    int64_t size)>;
using BatchRuleMap = llvm::DenseMap<mlir::TypeID, BatchRule>;

/// The batching rule of `op`, or nullptr when it has none.
const BatchRule *lookupBatchRule(mlir::Operation *op);

//===--- Helpers shared by the rules -------------------------------------===//

/// `type` with a leading dimension of `size` (tensors only).
mlir::RankedTensorType batchedTensor(mlir::Type type, int64_t size);
/// The value of `v` with the batch at axis 0: `v` itself when batched,
/// broadcast to the batch otherwise.
rules::Val materialize(rules::Emitter &e, Batched v, int64_t size);
/// A batched `v` whose per-example rank is raised to `rank` with leading
/// 1s after the batch dimension, so that it broadcasts against per-example
/// values of rank `rank` the way the per-example value did. Unbatched
/// values are returned unchanged (they broadcast against the batch).
rules::Val alignRank(rules::Emitter &e, Batched v, int64_t rank);
/// Creates an op named as `op` with its attributes (or `attrs`), the given
/// operands and the per-example result types of `op` batched by `size`.
mlir::Operation *rebuild(rules::Emitter &e, mlir::Operation *op,
                         mlir::ValueRange operands, int64_t size,
                         mlir::DictionaryAttr attrs = {});
/// The single result of `op` as a batched value.
llvm::SmallVector<Batched> batchedResult(mlir::Operation *op);
/// Axes of the per-example program shifted past the batch dimension.
llvm::SmallVector<int64_t> shiftAxes(llvm::ArrayRef<int64_t> axes);

/// The rule of every BroadcastingElementwise op (the Elementwise and Bits
/// families): batched operands get their per-example rank raised to the
/// result's, unbatched ones broadcast against the batch.
mlir::FailureOr<llvm::SmallVector<Batched>>
batchElementwise(rules::Emitter &e, mlir::Operation *op,
                 llvm::ArrayRef<Batched> operands, int64_t size);
/// The rule of every Reduction op: the same axes, one further right.
mlir::FailureOr<llvm::SmallVector<Batched>>
batchReduction(rules::Emitter &e, mlir::Operation *op,
               llvm::ArrayRef<Batched> operands, int64_t size);
/// The rule of every MatrixDecomposition op: the batch is one more leading
/// dimension of every operand and result.
mlir::FailureOr<llvm::SmallVector<Batched>>
batchDecomposition(rules::Emitter &e, mlir::Operation *op,
                   llvm::ArrayRef<Batched> operands, int64_t size);

// One table per op family without a trait, named as the family is in every
// layer.
void addContractionBatchRules(BatchRuleMap &map);
void addFourierBatchRules(BatchRuleMap &map);
void addMovementBatchRules(BatchRuleMap &map);
void addConvolutionBatchRules(BatchRuleMap &map);
void addDerivativesBatchRules(BatchRuleMap &map);

} // namespace adjoint::ad::batching

#endif // ADJOINT_LIB_AD_RULES_BATCHING_BATCHRULES_H
