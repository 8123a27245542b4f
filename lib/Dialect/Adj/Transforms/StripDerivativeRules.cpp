//===- StripDerivativeRules.cpp - Drop what only -adj-grad needs ----------===//
//
// stop_gradient, custom_vjp, custom_jvp and checkpoint compute their first
// operand; their other meaning is for -adj-grad alone. Once no request is
// left, each is replaced by that operand (its now unused rules become dead
// code).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_STRIPDERIVATIVERULES
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {
struct StripDerivativeRules
    : adjoint::adj::impl::StripDerivativeRulesBase<StripDerivativeRules> {
  void runOnOperation() override {
    SmallVector<Operation *> annotations;
    bool requestsLeft = false;
    getOperation()->walk([&](Operation *op) {
      if (isa<GradOp, ValueAndGradOp, VjpOp, JvpOp>(op))
        requestsLeft = true;
      if (isa<StopGradientOp, CustomVjpOp, CustomJvpOp, CheckpointOp>(op))
        annotations.push_back(op);
    });
    if (requestsLeft)
      return markAllAnalysesPreserved();
    for (Operation *op : annotations) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
  }
};
} // namespace
