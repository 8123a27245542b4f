//===- Contraction.cpp - adj.matmul to linalg.matmul/batch_matmul ---------===//
//
// Matrix products accumulate into a zero-filled init, as linalg's named
// contractions require, in the interpreter's compute type (f32 for f16 and
// bf16). Batched products with several batch dimensions are collapsed to one
// batch dimension so that linalg.batch_matmul applies. Broadcast batch
// dimensions are either folded into the rows of a plain matmul (a batched
// lhs times one rhs matrix, the dense layer on a sequence) or materialized
// by broadcasting both operands to the common batch shape.
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

Type lowering::accumulatorType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

Value lowering::truncateTo(OpBuilder &b, Location loc, Value v,
                           RankedTensorType type) {
  if (v.getType() == type)
    return v;
  return buildElementwise(b, loc, type, v,
                          [&](OpBuilder &nb, Location l, ValueRange a) {
                            return arith::TruncFOp::create(
                                nb, l, type.getElementType(), a[0]);
                          });
}

namespace {

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The groups that fold the leading `rank - 2` dimensions into one.
SmallVector<ReassociationIndices> batchGroups(int64_t rank) {
  ReassociationIndices batch;
  for (int64_t i = 0; i < rank - 2; ++i)
    batch.push_back(i);
  return {batch, {rank - 2}, {rank - 1}};
}

/// Collapses the leading `rank - 2` dimensions of `v` into one.
Value collapseBatch(OpBuilder &b, Location loc, Value v) {
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  if (rank == 3)
    return v;
  return tensor::CollapseShapeOp::create(b, loc, v, batchGroups(rank));
}

/// The groups that fold all but the last dimension of a rank-`rank` tensor
/// into one.
SmallVector<ReassociationIndices> rowGroups(int64_t rank) {
  ReassociationIndices rows;
  for (int64_t i = 0; i < rank - 1; ++i)
    rows.push_back(i);
  return {rows, {rank - 1}};
}

/// `v` ([..., r, c]) as a matrix [... * r, c].
Value flattenRows(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 2)
    return v;
  return tensor::CollapseShapeOp::create(b, loc, v, rowGroups(type.getRank()));
}

/// `v` ([..., r, c]) broadcast to `batch` x [r, c].
Value broadcastBatch(OpBuilder &b, Location loc, Value v,
                     ArrayRef<int64_t> batch) {
  auto type = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> shape(batch);
  llvm::append_range(shape, type.getShape().take_back(2));
  auto to = RankedTensorType::get(shape, type.getElementType());
  if (to == type)
    return v;
  return buildElementwise(
      b, loc, to, v, [](OpBuilder &, Location, ValueRange a) { return a[0]; });
}

struct MatmulPattern : OpConversionPattern<adj::MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type acc = accumulatorType(resultType.getElementType());
    Value zero = scalarConstant(rewriter, loc, acc, 0);
    auto accType = [&](ArrayRef<int64_t> shape) {
      return RankedTensorType::get(shape, acc);
    };
    ArrayRef<int64_t> batch = resultType.getShape().drop_back(2);
    int64_t m = resultType.getDimSize(resultType.getRank() - 2);
    int64_t n = resultType.getDimSize(resultType.getRank() - 1);
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();

    // One rhs matrix for every lhs matrix: the batch folds into the rows.
    if (resultType.getRank() == 2 ||
        product(rhsType.getShape().drop_back(2)) == 1) {
      // An lhs without batch dimensions against a batch of ones broadcasts
      // to [1..., m, k]: the same rows.
      int64_t rows = product(batch) * m;
      lhs = flattenRows(rewriter, loc, lhs);
      rhs = flattenRows(rewriter, loc, rhs);
      RankedTensorType type2 = accType({rows, n});
      Value init = filledTensor(rewriter, loc, type2, zero);
      Value mm = linalg::MatmulOp::create(rewriter, loc, TypeRange{type2},
                                          ValueRange{lhs, rhs},
                                          ValueRange{init})
                     .getResult(0);
      if (resultType.getRank() != 2)
        mm = tensor::ExpandShapeOp::create(rewriter, loc,
                                           accType(resultType.getShape()), mm,
                                           rowGroups(resultType.getRank()));
      rewriter.replaceOp(op, truncateTo(rewriter, loc, mm, resultType));
      return success();
    }

    // Otherwise both operands get the full batch shape (a copy where they
    // broadcast) and the batch dimensions collapse into one.
    lhs = broadcastBatch(rewriter, loc, lhs, batch);
    rhs = broadcastBatch(rewriter, loc, rhs, batch);
    lhs = collapseBatch(rewriter, loc, lhs);
    rhs = collapseBatch(rewriter, loc, rhs);
    RankedTensorType type3 = accType({product(batch), m, n});
    Value init = filledTensor(rewriter, loc, type3, zero);
    Value bmm = linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{type3},
                                              ValueRange{lhs, rhs},
                                              ValueRange{init})
                    .getResult(0);
    if (resultType.getRank() != 3)
      bmm = tensor::ExpandShapeOp::create(rewriter, loc,
                                          accType(resultType.getShape()), bmm,
                                          batchGroups(resultType.getRank()));
    rewriter.replaceOp(op, truncateTo(rewriter, loc, bmm, resultType));
    return success();
  }
};

} // namespace

void lowering::populateContractionPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulPattern>(patterns.getContext());
}
