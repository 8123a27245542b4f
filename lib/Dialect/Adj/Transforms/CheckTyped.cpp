//===- CheckTyped.cpp - Require a fully typed program ---------------------===//
//
// Reports every value whose type still contains !adj.any. Block arguments
// are reported at their owner's location; the pass fails if any is found.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_CHECKTYPED
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {
struct CheckTyped : adjoint::adj::impl::CheckTypedBase<CheckTyped> {
  void runOnOperation() override {
    bool untyped = false;
    auto report = [&](Operation *at, Value value, StringRef what,
                      unsigned index) {
      if (!containsAny(value.getType()))
        return;
      at->emitError() << what << " #" << index << " has untyped type "
                      << value.getType();
      untyped = true;
    };
    getOperation()->walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            report(op, arg, "block argument", arg.getArgNumber());
      for (OpResult result : op->getResults())
        report(op, result, "result", result.getResultNumber());
      if (auto func = dyn_cast<FuncOp>(op))
        for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
          if (containsAny(type)) {
            func.emitError() << "function result #" << i
                             << " has untyped type " << type;
            untyped = true;
          }
    });
    if (untyped)
      signalPassFailure();
  }
};
} // namespace
