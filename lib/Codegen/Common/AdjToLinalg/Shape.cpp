//===- Shape.cpp - adj shape and creation ops to linalg/tensor/arith ------===//
//
// Shapes are static here, so reshapes are collapse/expand_shape pairs that
// bufferize to views, and constants stay arith.constant so that later
// passes can fold them.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

Value lowering::reshapeTo(OpBuilder &b, Location loc, Value v,
                          RankedTensorType type) {
  auto from = cast<RankedTensorType>(v.getType());
  if (from == type)
    return v;
  // Through a rank-1 tensor: one group holds every dimension. A rank-0 end
  // needs the empty reassociation instead (all other dims are size 1).
  if (from.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, type, v,
                                         ArrayRef<ReassociationIndices>{});
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, v,
                                           ArrayRef<ReassociationIndices>{});
  auto all = [](int64_t rank) {
    ReassociationIndices group;
    for (int64_t i = 0; i < rank; ++i)
      group.push_back(i);
    return SmallVector<ReassociationIndices>{group};
  };
  Value flat = v;
  if (from.getRank() != 1)
    flat = tensor::CollapseShapeOp::create(b, loc, v, all(from.getRank()));
  if (type.getRank() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(b, loc, type, flat, all(type.getRank()));
}

namespace {

struct TransposePattern : OpConversionPattern<adj::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(),
                                         type.getShape(),
                                         type.getElementType());
    auto t = linalg::TransposeOp::create(rewriter, op.getLoc(),
                                         adaptor.getInput(), init,
                                         op.getPerm());
    rewriter.replaceOp(op, t->getResult(0));
    return success();
  }
};

struct ReshapePattern : OpConversionPattern<adj::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, reshapeTo(rewriter, op.getLoc(), adaptor.getInput(),
                      cast<RankedTensorType>(op.getResult().getType())));
    return success();
  }
};

struct BroadcastToPattern : OpConversionPattern<adj::BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The elementwise maps already encode NumPy broadcasting, size-1
    // dimensions included, which linalg.broadcast does not.
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, op.getLoc(),
                cast<RankedTensorType>(op.getResult().getType()),
                adaptor.getInput(),
                [](OpBuilder &, Location, ValueRange a) { return a[0]; }));
    return success();
  }
};

struct ConstantPattern : OpConversionPattern<adj::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "untyped constant attribute");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

struct FillPattern : OpConversionPattern<adj::FillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::FillOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Value scalar = scalarConstant(rewriter, op.getLoc(),
                                  type.getElementType(),
                                  op.getValue().convertToDouble());
    rewriter.replaceOp(op, filledTensor(rewriter, op.getLoc(), type, scalar));
    return success();
  }
};

/// The zero sensitivity of a tensor is a zero-filled tensor.
struct ZerosLikePattern : OpConversionPattern<adj::ZerosLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ZerosLikeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Value zero =
        scalarConstant(rewriter, op.getLoc(), type.getElementType(), 0);
    rewriter.replaceOp(op, filledTensor(rewriter, op.getLoc(), type, zero));
    return success();
  }
};

} // namespace

void lowering::populateShapePatterns(RewritePatternSet &patterns) {
  patterns.add<TransposePattern, ReshapePattern, BroadcastToPattern,
               ConstantPattern, FillPattern, ZerosLikePattern>(
      patterns.getContext());
}
