//===- Elementwise.cpp - The batching rule of the elementwise ops ---------===//
//
// A BroadcastingElementwise op (the Elementwise family and the Bits one:
// bitwise ops, shifts, bitcast, threefry2x32) broadcasts its operands, so
// an unbatched operand stays as it is (it broadcasts against the batch
// dimension) and a batched one only needs its per-example rank raised to
// the result's, so that NumPy's right-aligned broadcasting pairs the same
// dimensions as per example. A batch of keys therefore hashes each
// example's counters under its own key, in one op.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

FailureOr<SmallVector<Batched>>
adjoint::ad::batching::batchElementwise(Emitter &e, Operation *op,
                                        ArrayRef<Batched> operands,
                                        int64_t size) {
  int64_t rank = tensorOf(op->getResult(0)).getRank();
  SmallVector<Value> aligned;
  for (Batched v : operands)
    aligned.push_back(alignRank(e, v, rank));
  return batchedResult(rebuild(e, op, aligned, size));
}
