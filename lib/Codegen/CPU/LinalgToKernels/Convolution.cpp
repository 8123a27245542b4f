//===- Convolution.cpp - linalg.conv_2d_nchw_fchw to kernel calls ---------===//
//
// The runtime's convolution takes the padded input (AdjToLinalg pads with
// tensor.pad before the conv), the filter and the output with any stride
// and dilation; it accumulates into the output like the linalg op, or
// overwrites it when the zero fill before it is dropped.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace adjoint::kernels;

namespace {

struct Conv2DToKernel : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not on memrefs");
    Value input = op.getDpsInputOperand(0)->get();
    Value filter = op.getDpsInputOperand(1)->get();
    Value output = op.getDpsInitOperand(0)->get();
    Type elem = cast<MemRefType>(output.getType()).getElementType();
    StringRef suffix = kernelSuffix(elem);
    if (suffix.empty() ||
        cast<MemRefType>(input.getType()).getElementType() != elem ||
        cast<MemRefType>(filter.getType()).getElementType() != elem)
      return rewriter.notifyMatchFailure(op, "no kernel for these types");
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    bool accumulate = !takeZeroFill(rewriter, op, output);
    Value args[] = {castToDynamic(rewriter, loc, input),
                    castToDynamic(rewriter, loc, filter),
                    castToDynamic(rewriter, loc, output),
                    i64Constant(rewriter, loc, strides[0]),
                    i64Constant(rewriter, loc, strides[1]),
                    i64Constant(rewriter, loc, dilations[0]),
                    i64Constant(rewriter, loc, dilations[1]),
                    i64Constant(rewriter, loc, accumulate)};
    replaceWithKernelCall(rewriter, op,
                          ("adj_kernel_conv2d_nchw_fchw_" + suffix).str(),
                          args);
    return success();
  }
};

} // namespace

void adjoint::kernels::populateConvolutionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<Conv2DToKernel>(patterns.getContext());
}
