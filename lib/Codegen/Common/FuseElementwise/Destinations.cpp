//===- Destinations.cpp - Destinations that bufferize in place ------------===//
//
// One-shot bufferization allocates a buffer for every tensor.empty `outs`
// and copies a destination that is still read later (a fill shared by the
// loops of several scatters, say: one copy of the whole filled buffer per
// loop, where a fill of its own writes it once without reading). Both helpers here
// change only which SSA value an op names as its destination; the values
// computed stay the same.
//
//===----------------------------------------------------------------------===//

#include "Destinations.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;

namespace {

/// Whether `use` is written in place when it bufferizes: a destination
/// (`outs`) operand, or the initial value of a tensor an scf.for carries
/// (the buffer the loop then updates in place, as a scatter's loop does).
bool isDestination(OpOperand *use) {
  Operation *owner = use->getOwner();
  if (auto consumer = dyn_cast<DestinationStyleOpInterface>(owner))
    return consumer.isDpsInit(use);
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    return loop.getTiedLoopRegionIterArg(use) != nullptr;
  return false;
}

/// Gives every destination use of `producer`'s result but the first (in
/// program order) a clone of `producer`, placed right before the consumer.
void unshare(Operation *producer, OpBuilder &b) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : producer->getResult(0).getUses())
    uses.push_back(&use);
  auto first = llvm::min_element(uses, [](OpOperand *a, OpOperand *b) {
    Operation *x = a->getOwner(), *y = b->getOwner();
    return x->getBlock() == y->getBlock() && x != y && x->isBeforeInBlock(y);
  });
  std::swap(*first, uses.front());
  for (OpOperand *use : llvm::drop_begin(uses)) {
    if (!isDestination(use))
      continue;
    b.setInsertionPoint(use->getOwner());
    use->set(b.clone(*producer)->getResult(0));
  }
}

} // namespace

void adjoint::fusion::unshareDestinations(Operation *root) {
  auto shared = [](Operation *op) {
    return !op->hasOneUse() && !op->use_empty();
  };
  OpBuilder b(root->getContext());
  SmallVector<Operation *> fills;
  root->walk([&](linalg::FillOp fill) {
    if (fill.hasPureTensorSemantics() && shared(fill))
      fills.push_back(fill);
  });
  for (Operation *fill : fills)
    unshare(fill, b);
  // After the fills, whose copies share the fills' own empties.
  SmallVector<Operation *> empties;
  root->walk([&](tensor::EmptyOp empty) {
    if (shared(empty))
      empties.push_back(empty);
  });
  for (Operation *empty : empties)
    unshare(empty, b);
}

namespace {

/// An input of `op` that may become its destination: read at the same
/// index as the result is written (so each element is read before it is
/// overwritten), of the result's type, a temporary computed by a linalg op
/// in the same block, and used by `op` alone.
Value deadInput(linalg::GenericOp op, OpOperand &init) {
  AffineMap initMap = op.getMatchingIndexingMap(&init);
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value v = input->get();
    auto producer = v.getDefiningOp<linalg::LinalgOp>();
    if (!producer || producer->getBlock() != op->getBlock() ||
        v.getType() != init.get().getType() ||
        op.getMatchingIndexingMap(input) != initMap)
      continue;
    // One use, and not twice as an operand of `op` either.
    if (!v.hasOneUse())
      continue;
    return v;
  }
  return {};
}

} // namespace

void adjoint::fusion::reuseDeadInputs(Operation *root) {
  root->walk([&](linalg::GenericOp op) {
    if (!op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (!init.get().getDefiningOp<tensor::EmptyOp>() ||
          op.payloadUsesValueFromOperand(&init) ||
          !op.getMatchingIndexingMap(&init).isPermutation())
        continue;
      if (Value input = deadInput(op, init))
        init.set(input);
    }
  });
}
