//===- Reductions.cpp - Batching rules of the reductions ------------------===//
//
// A reduction of a batched input reduces the same per-example axes, one
// further right.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

template <typename OpT>
static FailureOr<SmallVector<Batched>>
batchReduce(Emitter &e, Operation *op, ArrayRef<Batched> operands,
            int64_t size) {
  auto reduce = cast<OpT>(op);
  int64_t rank = tensorOf(reduce.getInput()).getRank();
  SmallVector<int64_t> axes;
  for (int64_t a : reduce.getAxes())
    axes.push_back((a < 0 ? a + rank : a) + 1);
  return batchedResult(
      OpT::create(e.builder(), e.loc(),
                  batchedTensor(reduce.getType(), size), operands[0].value,
                  axes, reduce.getKeepdims()));
}

void adjoint::ad::batching::addReductionsBatchRules(BatchRuleMap &map) {
  map[TypeID::get<adj::ReduceSumOp>()] = batchReduce<adj::ReduceSumOp>;
  map[TypeID::get<adj::ReduceMeanOp>()] = batchReduce<adj::ReduceMeanOp>;
  map[TypeID::get<adj::ReduceMaxOp>()] = batchReduce<adj::ReduceMaxOp>;
}
