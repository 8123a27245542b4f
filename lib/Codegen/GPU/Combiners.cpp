//===- Combiners.cpp - Reduction combiners and their identities -----------===//

#include "Combiners.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {

/// The ops whose partial results may be combined in any order. Float addf
/// and mulf are reassociated as every parallel reduction does.
bool isCombinerOp(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp,
             arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
             arith::AddIOp, arith::MulIOp, arith::MaxSIOp, arith::MinSIOp,
             arith::MaxUIOp, arith::MinUIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp>(op);
}

} // namespace

Value adjoint::gpu::Combiner::combine(OpBuilder &b, Value value,
                                      Value accumulator) const {
  IRMapping map;
  map.map(op->getOperand(accumulatorOperand), accumulator);
  map.map(op->getOperand(1 - accumulatorOperand), value);
  return b.clone(*op, map)->getResult(0);
}

FailureOr<SmallVector<adjoint::gpu::Combiner>>
adjoint::gpu::matchCombiners(linalg::GenericOp op) {
  Block *body = op.getBlock();
  Operation *yield = body->getTerminator();
  SmallVector<Combiner> combiners;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    BlockArgument out = op.getMatchingBlockArgument(&init);
    Value yielded = yield->getOperand(init.getOperandNumber() -
                                      op.getNumDpsInputs());
    Operation *c = yielded.getDefiningOp();
    if (!c || c->getBlock() != body || !isCombinerOp(c) ||
        c->getNumOperands() != 2 || !yielded.hasOneUse() || !out.hasOneUse())
      return failure();
    Combiner combiner;
    combiner.op = c;
    if (c->getOperand(0) == out)
      combiner.accumulatorOperand = 0;
    else if (c->getOperand(1) == out)
      combiner.accumulatorOperand = 1;
    else
      return failure();
    if (c->getOperand(1 - combiner.accumulatorOperand) == out)
      return failure(); // c(out, out) is not a reduction of the inputs
    std::optional<TypedAttr> identity = arith::getNeutralElement(c);
    if (!identity)
      return failure();
    combiner.identity = *identity;
    combiners.push_back(combiner);
  }
  return combiners;
}
