//===- Contraction.cpp - adj.matmul to linalg.matmul/batch_matmul ---------===//
//
// Matrix products accumulate into a zero-filled init, as linalg's named
// contractions require. Batched products with several batch dimensions are
// collapsed to one batch dimension so that linalg.batch_matmul applies.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// Collapses the leading `rank - 2` dimensions of `v` into one.
Value collapseBatch(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rank = type.getRank();
  if (rank == 3)
    return v;
  ReassociationIndices batch;
  for (int64_t i = 0; i < rank - 2; ++i)
    batch.push_back(i);
  SmallVector<ReassociationIndices> groups{batch, {rank - 2}, {rank - 1}};
  return tensor::CollapseShapeOp::create(b, loc, v, groups);
}

struct MatmulPattern : OpConversionPattern<adj::MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    // The pass checks this before converting; see checkSupported.
    if (lhsType.getRank() != rhsType.getRank() ||
        lhsType.getShape().drop_back(2) != rhsType.getShape().drop_back(2))
      return rewriter.notifyMatchFailure(op, "broadcast batch dimensions");
    Value zero = scalarConstant(rewriter, loc, resultType.getElementType(), 0);
    if (resultType.getRank() == 2) {
      Value init = filledTensor(rewriter, loc, resultType, zero);
      auto mm = linalg::MatmulOp::create(
          rewriter, loc, TypeRange{resultType},
          ValueRange{adaptor.getLhs(), adaptor.getRhs()}, ValueRange{init});
      rewriter.replaceOp(op, mm.getResult(0));
      return success();
    }
    Value lhs = collapseBatch(rewriter, loc, adaptor.getLhs());
    Value rhs = collapseBatch(rewriter, loc, adaptor.getRhs());
    auto lhs3 = cast<RankedTensorType>(lhs.getType());
    auto rhs3 = cast<RankedTensorType>(rhs.getType());
    auto type3 = RankedTensorType::get(
        {lhs3.getDimSize(0), lhs3.getDimSize(1), rhs3.getDimSize(2)},
        resultType.getElementType());
    Value init = filledTensor(rewriter, loc, type3, zero);
    Value bmm = linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{type3},
                                              ValueRange{lhs, rhs},
                                              ValueRange{init})
                    .getResult(0);
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, bmm, resultType));
    return success();
  }
};

} // namespace

void lowering::populateContractionPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulPattern>(patterns.getContext());
}
