//===- StripOverflowFlags.cpp - nsw/nuw out of SPIR-V kernels -------------===//

#include "adjoint/Codegen/Intel/Passes.h"

namespace adjoint {
#define GEN_PASS_DEF_STRIPOVERFLOWFLAGS
#include "adjoint/Codegen/Intel/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct StripOverflowFlags
    : adjoint::impl::StripOverflowFlagsBase<StripOverflowFlags> {
  void runOnOperation() override {
    auto none = arith::IntegerOverflowFlagsAttr::get(
        &getContext(), arith::IntegerOverflowFlags::none);
    getOperation().walk([&](arith::ArithIntegerOverflowFlagsInterface op) {
      if (op.hasNoSignedWrap() || op.hasNoUnsignedWrap())
        op->setAttr(op.getIntegerOverflowAttrName(), none);
    });
  }
};

} // namespace
