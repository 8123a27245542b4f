//===- ReturnDonated.cpp - Donated arguments returned without a clone -----===//
//
// Ownership-based buffer deallocation clones a function argument that the
// function returns, since the function does not own its arguments. A
// donated argument (kDonatedArgAttrName) is memory the caller gave to the
// call, and -adj-reuse-donated computed an output into it: returning the
// argument itself hands that memory back, and the runtime gives the output
// the donated input's storage (rt::invoke).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace adjoint {
#define GEN_PASS_DEF_RETURNDONATED
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct ReturnDonated : adjoint::impl::ReturnDonatedBase<ReturnDonated> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic())
        continue;
      func.walk([&](func::ReturnOp ret) {
        for (OpOperand &out : ret->getOpOperands()) {
          auto clone = out.get().getDefiningOp<bufferization::CloneOp>();
          if (!clone || !clone->hasOneUse())
            continue;
          auto arg = dyn_cast<BlockArgument>(clone.getInput());
          if (!arg || arg.getOwner() != &func.getBody().front() ||
              !func.getArgAttr(arg.getArgNumber(),
                               adjoint::kDonatedArgAttrName))
            continue;
          out.set(arg);
          clone->erase();
        }
      });
    }
  }
};

} // namespace
