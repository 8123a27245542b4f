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
    // Inputs padded on the way in (a pooling's windows) are read from
    // their sources: found before any op becomes a kernel (the padding's
    // fill and copy must still be ops), their fill and copy then skipped.
    DenseMap<Operation *, SmallVector<adjoint::gpu::PaddedOperand>> padded;
    DenseSet<Operation *> padding;
    for (Operation *op : work) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp)
        continue;
      for (OpOperand *input : linalgOp.getDpsInputOperands()) {
        Value buffer = adjoint::gpu::viewedBuffer(input->get());
        SmallVector<adjoint::gpu::PaddedOperand> &found = padded[op];
        if (llvm::any_of(found,
                         [&](const auto &p) { return p.buffer == buffer; }))
          continue;
        if (std::optional<adjoint::gpu::PaddedOperand> p =
                adjoint::gpu::findPaddedOperand(op, buffer)) {
          found.push_back(*p);
          padding.insert(p->fill);
          padding.insert(p->copy);
        }
      }
    }
    IRRewriter rewriter(&getContext());
    SmallVector<adjoint::gpu::PaddedOperand> read;
    for (Operation *op : work) {
      if (padding.contains(op))
        continue;
      // A strided copy is a linalg.copy to the kernel builder.
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        rewriter.setInsertionPoint(copy);
        op = linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                                    copy.getTarget());
        rewriter.eraseOp(copy);
      }
      ArrayRef<adjoint::gpu::PaddedOperand> inputs = padded.lookup(op);
      llvm::append_range(read, inputs);
      if (failed(adjoint::gpu::mapLinalgOpToLaunch(
              rewriter, cast<linalg::LinalgOp>(op), workgroupSize, inputs)))
        return signalPassFailure();
    }
    // findPaddedOperand accepted only buffers their one reader reads.
    for (const adjoint::gpu::PaddedOperand &p : read)
      if (!adjoint::gpu::erasePaddingIfUnread(p)) {
        p.fill->emitError("internal error: a padding kept for reads the "
                          "kernel no longer makes");
        return signalPassFailure();
      }
  }
};

} // namespace
