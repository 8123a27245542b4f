//===- Derivatives.cpp - Batching rules of the derivative annotations -----===//
//
// stop_gradient and optimization_barrier are identities, so a batched input
// gives a batched result of the same type (a tensor or a tuple); the op is
// kept, so that a transform after vmap still sees the annotation. The
// function-valued ops (custom_vjp, custom_jvp, checkpoint) are batched by
// the transform itself (lib/AD/Batching.cpp), which knows the batched forms
// of function values.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

static FailureOr<SmallVector<Batched>>
batchIdentity(Emitter &e, Operation *op, ArrayRef<Batched> operands,
              int64_t) {
  OperationState state(e.loc(), op->getName());
  state.addOperands(operands[0].value);
  state.addAttributes(op->getAttrs());
  state.addTypes(operands[0].value.getType());
  return batchedResult(e.builder().create(state));
}

void adjoint::ad::batching::addDerivativesBatchRules(BatchRuleMap &map) {
  map[TypeID::get<adj::StopGradientOp>()] = batchIdentity;
  map[TypeID::get<adj::OptimizationBarrierOp>()] = batchIdentity;
}
