//===- LinearAlgebra.cpp - Batching rules of the decompositions -----------===//
//
// A MatrixDecomposition op acts on the last two dimensions and is batched
// over the leading ones already, so the batch is one more leading dimension:
// an unbatched operand of triangular_solve (a shared matrix) is broadcast
// to the batch, as the op wants equal batch dimensions, and every result
// is batched.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

FailureOr<SmallVector<Batched>>
adjoint::ad::batching::batchDecomposition(Emitter &e, Operation *op,
                                          ArrayRef<Batched> operands,
                                          int64_t size) {
  SmallVector<Value> batched;
  for (const Batched &v : operands)
    batched.push_back(materialize(e, v, size));
  Operation *result = rebuild(e, op, batched, size);
  SmallVector<Batched> out;
  for (Value r : result->getResults())
    out.push_back({r, true});
  return out;
}
