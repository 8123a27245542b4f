//===- LoopAnnotations.cpp - Kernels' loop annotations reach LLVM ---------===//
//
// See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace adjoint {
#define GEN_PASS_DEF_LOOPANNOTATIONS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct LoopAnnotationsPass
    : adjoint::impl::LoopAnnotationsBase<LoopAnnotationsPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      auto annotation = dyn_cast_or_null<LLVM::LoopAnnotationAttr>(
          op->getDiscardableAttr(adjoint::gpu::kLoopAnnotationAttrName));
      if (!annotation)
        return;
      if (auto br = dyn_cast<LLVM::BrOp>(op))
        br.setLoopAnnotationAttr(annotation);
      else if (auto condBr = dyn_cast<LLVM::CondBrOp>(op))
        condBr.setLoopAnnotationAttr(annotation);
      else
        return;
      op->removeDiscardableAttr(adjoint::gpu::kLoopAnnotationAttrName);
    });
  }
};

} // namespace
