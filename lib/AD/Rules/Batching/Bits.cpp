//===- Bits.cpp - Batching rules of the bit manipulation ops --------------===//
//
// Every op of the Bits family (the bitwise ops, the shifts, bitcast and
// threefry2x32) is elementwise with NumPy broadcasting, so it batches like
// the arithmetic ops: a shared operand (a key used by every example)
// broadcasts against the batch, a batched one (one key per example) gets
// its per-example rank raised to the result's. A batch of keys therefore
// hashes each example's counters under its own key, in one op.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::batching;

template <typename... OpTs> static void addAll(BatchRuleMap &map) {
  (map.try_emplace(TypeID::get<OpTs>(), batchElementwise), ...);
}

void adjoint::ad::batching::addBitsBatchRules(BatchRuleMap &map) {
  addAll<adj::BitwiseAndOp, adj::BitwiseOrOp, adj::BitwiseXorOp,
         adj::ShiftLeftOp, adj::ShiftRightLogicalOp, adj::BitcastOp,
         adj::Threefry2x32Op>(map);
}
