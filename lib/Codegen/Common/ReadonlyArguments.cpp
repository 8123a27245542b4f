//===- ReadonlyArguments.cpp - Entry arguments are not bufferization's -----===//
//
// Public functions are the entry points that compiled code exposes; their
// tensor arguments alias the caller's arrays. Marking them non-writable makes
// one-shot bufferization copy before it writes, instead of updating the
// caller's input in place. Donated arguments (kDonatedArgAttrName) are the
// exception: the caller gave their memory to the call.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace adjoint {
#define GEN_PASS_DEF_READONLYARGUMENTS
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct ReadonlyArguments
    : adjoint::impl::ReadonlyArgumentsBase<ReadonlyArguments> {
  void runOnOperation() override {
    auto notWritable = BoolAttr::get(&getContext(), false);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // Declarations have no arguments to bufferize; private functions are
      // called only from this module, where bufferization sees the callers.
      if (func.isExternal() || !func.isPublic())
        continue;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type) &&
            !func.getArgAttr(i, adjoint::kDonatedArgAttrName))
          func.setArgAttr(i, bufferization::BufferizationDialect::
                                 kWritableAttrName,
                          notWritable);
    }
  }
};

} // namespace
