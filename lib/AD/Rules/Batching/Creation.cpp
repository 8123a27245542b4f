//===- Creation.cpp - Batching rules of the creation ops ------------------===//
//
// fill, iota and constants have no operands and stay unbatched (the
// transform leaves ops without batched operands as they are). Random ops
// with an unbatched seed draw the same numbers for every example, as a
// call per example with that seed would. A batched seed would need one
// stream per example, which the seed-and-counter ops cannot express in one
// op: it is refused with a diagnostic.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

static FailureOr<SmallVector<Batched>>
refuseBatchedSeed(Emitter &, Operation *op, ArrayRef<Batched>, int64_t) {
  return op->emitOpError("cannot be batched over its seed: the seed must "
                         "be the same for every example (pass it with "
                         "in_axes None)");
}

void adjoint::ad::batching::addCreationBatchRules(BatchRuleMap &map) {
  map[TypeID::get<adj::RandomNormalOp>()] = refuseBatchedSeed;
  map[TypeID::get<adj::RandomUniformOp>()] = refuseBatchedSeed;
}
