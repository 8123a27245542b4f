//===- Derivatives.cpp - stop_gradient and optimization_barrier to tensors ===//
//
// stop_gradient is its input (-adj-optimize strips it earlier; this covers
// pipelines that skip the optimizer). optimization_barrier becomes a copy
// into a new buffer, bufferization.alloc_tensor with `copy`: an op with
// unknown effects that neither CSE nor elementwise fusion looks through, so
// the code computed from the copy (checkpoint's recomputation) stays apart
// from the code computed from the original, and one-shot bufferization
// turns it into memref.alloc + memref.copy.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

struct StopGradientPattern : OpConversionPattern<adj::StopGradientOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::StopGradientOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct OptimizationBarrierPattern
    : OpConversionPattern<adj::OptimizationBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::OptimizationBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    rewriter.replaceOp(op, bufferization::AllocTensorOp::create(
                               rewriter, op.getLoc(), type, ValueRange{},
                               adaptor.getInput()));
    return success();
  }
};

} // namespace

void lowering::populateDerivativesPatterns(RewritePatternSet &patterns) {
  patterns.add<StopGradientPattern, OptimizationBarrierPattern>(
      patterns.getContext());
}
