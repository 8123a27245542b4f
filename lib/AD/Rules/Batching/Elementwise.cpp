//===- Elementwise.cpp - Batching rules of the elementwise ops ------------===//
//
// An elementwise op broadcasts its operands, so an unbatched operand stays
// as it is (it broadcasts against the batch dimension) and a batched one
// only needs its per-example rank raised to the result's, so that NumPy's
// right-aligned broadcasting pairs the same dimensions as per example.
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

template <typename... OpTs> static void addAll(BatchRuleMap &map) {
  (map.try_emplace(TypeID::get<OpTs>(), batchElementwise), ...);
}

void adjoint::ad::batching::addElementwiseBatchRules(BatchRuleMap &map) {
  addAll<adj::AddOp, adj::SubOp, adj::MulOp, adj::DivOp, adj::PowOp,
         adj::MaximumOp, adj::MinimumOp, adj::Atan2Op, adj::NegOp, adj::ExpOp,
         adj::LogOp, adj::Log1pOp, adj::Expm1Op,
         adj::TanhOp, adj::SigmoidOp, adj::ReluOp, adj::SqrtOp, adj::RsqrtOp,
         adj::AbsOp, adj::SignOp, adj::SinOp, adj::CosOp, adj::ErfOp,
         adj::ComplexOp, adj::RealOp, adj::ImagOp, adj::CmpOp, adj::SelectOp,
         adj::CastOp>(map);
}
