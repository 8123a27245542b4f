//===- Fourier.cpp - Batching rule of adj.fft -----------------------------===//
//
// The transform acts on trailing dimensions and is batched over the
// leading ones already: the batch is one more leading dimension.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

void adjoint::ad::batching::addFourierBatchRules(BatchRuleMap &map) {
  map[TypeID::get<adj::FftOp>()] =
      [](Emitter &e, Operation *op, ArrayRef<Batched> operands,
         int64_t size) -> FailureOr<SmallVector<Batched>> {
    return batchedResult(rebuild(e, op, {operands[0].value}, size));
  };
}
