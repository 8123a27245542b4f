//===- LegalizeArith.cpp - Kernel arithmetic SPIR-V can take --------------===//

#include "adjoint/Codegen/Intel/Passes.h"

namespace adjoint {
#define GEN_PASS_DEF_LEGALIZEARITH
#include "adjoint/Codegen/Intel/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// max/min of booleans as or/and: unsigned, true is 1; signed, true is -1.
template <typename MaxMinOp, typename LogicOp>
void rewriteBoolean(Operation *op) {
  auto maxMin = dyn_cast<MaxMinOp>(op);
  if (!maxMin || !maxMin.getType().isInteger(1))
    return;
  OpBuilder b(op);
  Value logic =
      LogicOp::create(b, op->getLoc(), maxMin.getLhs(), maxMin.getRhs());
  maxMin.replaceAllUsesWith(logic);
  op->erase();
}

struct LegalizeArith : adjoint::impl::LegalizeArithBase<LegalizeArith> {
  void runOnOperation() override {
    auto none = arith::IntegerOverflowFlagsAttr::get(
        &getContext(), arith::IntegerOverflowFlags::none);
    getOperation().walk([&](arith::ArithIntegerOverflowFlagsInterface op) {
      if (op.hasNoSignedWrap() || op.hasNoUnsignedWrap())
        op->setAttr(op.getIntegerOverflowAttrName(), none);
    });
    getOperation().walk([&](Operation *op) {
      rewriteBoolean<arith::MaxUIOp, arith::OrIOp>(op);
      rewriteBoolean<arith::MinSIOp, arith::OrIOp>(op);
      rewriteBoolean<arith::MinUIOp, arith::AndIOp>(op);
      rewriteBoolean<arith::MaxSIOp, arith::AndIOp>(op);
    });
  }
};

} // namespace
