//===- Reductions.cpp - Batching rules of the reductions ------------------===//
//
// A Reduction op of a batched input reduces the same per-example axes, one
// further right.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

FailureOr<SmallVector<Batched>>
adjoint::ad::batching::batchReduction(Emitter &e, Operation *op,
                                      ArrayRef<Batched> operands,
                                      int64_t size) {
  int64_t rank = tensorOf(op->getOperand(0)).getRank();
  SmallVector<int64_t> axes;
  for (int64_t a : op->getAttrOfType<DenseI64ArrayAttr>("axes").asArrayRef())
    axes.push_back((a < 0 ? a + rank : a) + 1);
  NamedAttrList attrs(op->getAttrs());
  attrs.set("axes", e.builder().getDenseI64ArrayAttr(axes));
  return batchedResult(rebuild(e, op, operands[0].value, size,
                               attrs.getDictionary(op->getContext())));
}
