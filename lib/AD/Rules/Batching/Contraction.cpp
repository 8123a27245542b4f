//===- Contraction.cpp - Batching rules of matmul -------------------------===//
//
// matmul broadcasts its leading (batch) dimensions, so the batch becomes
// one more of them. When only the left operand is batched and the right one
// is a shared matrix (a layer's weights), the batch and the rows are
// flattened into one dimension instead: one plain matmul over all examples,
// as the hand-batched program computes, and never a copy of the weights.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

static FailureOr<SmallVector<Batched>>
batchMatmul(Emitter &e, Operation *op, ArrayRef<Batched> operands,
            int64_t size) {
  auto matmul = cast<adj::MatmulOp>(op);
  RankedTensorType result = tensorOf(matmul.getResult());
  Batched lhs = operands[0], rhs = operands[1];
  if (lhs.batched && !rhs.batched && tensorOf(rhs.value).getRank() == 2) {
    Val x = e.val(lhs.value);
    int64_t rows = 1;
    for (int64_t d : x.shape().drop_back())
      rows *= d;
    Val flat = e.reshape(x, {rows, x.shape().back()});
    Val product = e.matmul(flat, e.val(rhs.value));
    return SmallVector<Batched>{
        {e.reshape(product, batchedTensor(result, size).getShape()), true}};
  }
  int64_t rank = result.getRank();
  Val a = alignRank(e, lhs, rank), b = alignRank(e, rhs, rank);
  return SmallVector<Batched>{{e.matmul(a, b), true}};
}

void adjoint::ad::batching::addContractionBatchRules(BatchRuleMap &map) {
  map[TypeID::get<adj::MatmulOp>()] = batchMatmul;
}
