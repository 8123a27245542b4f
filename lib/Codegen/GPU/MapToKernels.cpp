//===- MapToKernels.cpp - Linalg ops on buffers -> gpu.launch -------------===//

#include "LinalgToLaunch.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace adjoint {
#define GEN_PASS_DEF_MAPTOKERNELS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct MapToKernels : adjoint::impl::MapToKernelsBase<MapToKernels> {
  using MapToKernelsBase::MapToKernelsBase;

  void runOnOperation() override {
    SmallVector<Operation *> work;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Kernels (ours or the faster reduction/matmul passes') stay as they
      // are, and so does code already in device modules.
      if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (isa<linalg::LinalgOp>(op))
        work.push_back(op);
      else if (auto copy = dyn_cast<memref::CopyOp>(op))
        if (!adjoint::gpu::isContiguous(copy.getSource().getType()) ||
            !adjoint::gpu::isContiguous(copy.getTarget().getType()))
          work.push_back(op);
      return WalkResult::advance();
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : work) {
      // A strided copy is a linalg.copy to the kernel builder.
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        rewriter.setInsertionPoint(copy);
        op = linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                                    copy.getTarget());
        rewriter.eraseOp(copy);
      }
      if (failed(adjoint::gpu::mapLinalgOpToLaunch(
              rewriter, cast<linalg::LinalgOp>(op), workgroupSize)))
        return signalPassFailure();
    }
  }
};

} // namespace
