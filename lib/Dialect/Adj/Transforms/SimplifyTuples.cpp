//===- SimplifyTuples.cpp - Cancel tuple construction and projection ------===//
//
// get(tuple(a...), i) => a_i and tuple(get(t, 0), ..., get(t, n-1)) => t are
// the folders of adj.get and adj.tuple, which the greedy driver applies. The
// patterns here push tuples out of control flow so that those folders can
// see both ends: a tuple-typed result of adj.if and a tuple-typed carried
// value of adj.for / adj.while become one value per element.
//
//===----------------------------------------------------------------------===//

#include "SimplifyUtils.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_SIMPLIFYTUPLES
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;
/// adj's tuple type, not the builtin one.
using AdjTupleType = adjoint::adj::TupleType;

namespace {

/// `types` with the tuple at `index` replaced by its element types.
SmallVector<Type> expandTypes(TypeRange types, unsigned index) {
  SmallVector<Type> result(types.begin(), types.begin() + index);
  llvm::append_range(result, cast<AdjTupleType>(types[index]).getTypes());
  result.append(types.begin() + index + 1, types.end());
  return result;
}

/// `values` with the tuple at `index` replaced by its elements.
SmallVector<Value> expandValues(OpBuilder &builder, Location loc,
                                ValueRange values, unsigned index) {
  SmallVector<Value> result(values.begin(), values.begin() + index);
  llvm::append_range(result, tupleElements(builder, loc, values[index]));
  result.append(values.begin() + index + 1, values.end());
  return result;
}

/// The inverse of expandValues: the `size` values at `index` of `values`
/// are packed back into one adj.tuple.
SmallVector<Value> packValues(OpBuilder &builder, Location loc,
                              ValueRange values, unsigned index,
                              size_t size) {
  SmallVector<Value> result(values.begin(), values.begin() + index);
  result.push_back(
      TupleOp::create(builder, loc, values.slice(index, size)).getResult());
  result.append(values.begin() + index + size, values.end());
  return result;
}

/// Replaces operand `index` of the yield ending `block` by its elements.
void expandYield(PatternRewriter &rewriter, Block &block, unsigned index) {
  auto yield = cast<YieldOp>(block.getTerminator());
  rewriter.setInsertionPoint(yield);
  SmallVector<Value> operands =
      expandValues(rewriter, yield.getLoc(), yield.getOperands(), index);
  rewriter.modifyOpInPlace(yield,
                           [&] { yield->setOperands(operands); });
}

/// Moves `block` into `dest` with argument `offset + index` split into the
/// tuple's elements; inside, the old argument becomes an adj.tuple of them.
void splitBlockArgument(PatternRewriter &rewriter, Block *block,
                        Region &dest, unsigned offset, unsigned index) {
  size_t size = cast<AdjTupleType>(block->getArgument(offset + index).getType())
                    .size();
  SmallVector<Type> types =
      expandTypes(block->getArgumentTypes(), offset + index);
  Location loc = block->getParentOp()->getLoc();
  rebuildBlock(rewriter, block, dest, types,
               [&](OpBuilder &builder, ValueRange args) {
                 return packValues(builder, loc, args, offset + index, size);
               });
}

/// A tuple result of adj.if that at least one branch builds with adj.tuple
/// becomes one result per element; the other branch yields adj.get ops of
/// its tuple, which fold away when it is built there too.
struct SplitIfTuple : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    auto thenYield = cast<YieldOp>(op.getThenRegion().front().getTerminator());
    auto elseYield = cast<YieldOp>(op.getElseRegion().front().getTerminator());
    for (OpResult result : op.getResults()) {
      auto type = dyn_cast<AdjTupleType>(result.getType());
      unsigned index = result.getResultNumber();
      if (!type || (!thenYield.getOperand(index).getDefiningOp<TupleOp>() &&
                    !elseYield.getOperand(index).getDefiningOp<TupleOp>()))
        continue;
      SmallVector<Type> types = expandTypes(op.getResultTypes(), index);
      auto split =
          IfOp::create(rewriter, op.getLoc(), types, op.getCondition());
      for (auto [from, to] : {std::pair{&op.getThenRegion(),
                                        &split.getThenRegion()},
                              std::pair{&op.getElseRegion(),
                                        &split.getElseRegion()}}) {
        rewriter.inlineRegionBefore(*from, *to, to->end());
        expandYield(rewriter, to->front(), index);
      }
      rewriter.setInsertionPointAfter(split);
      rewriter.replaceOp(op, packValues(rewriter, op.getLoc(),
                                        split.getResults(), index,
                                        type.size()));
      return success();
    }
    return failure();
  }
};

/// The index of the first tuple-typed value of `types`, if any.
std::optional<unsigned> firstTuple(TypeRange types) {
  for (auto [i, type] : llvm::enumerate(types))
    if (isa<AdjTupleType>(type))
      return i;
  return std::nullopt;
}

/// A tuple-typed carried value of adj.for becomes one per element.
struct SplitForTuple : OpRewritePattern<ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ForOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<unsigned> index = firstTuple(op.getResultTypes());
    if (!index)
      return failure();
    size_t size = cast<AdjTupleType>(op.getResult(*index).getType()).size();
    SmallVector<Value> inits =
        expandValues(rewriter, op.getLoc(), op.getInits(), *index);
    auto split = ForOp::create(
        rewriter, op.getLoc(), expandTypes(op.getResultTypes(), *index),
        op.getLowerBound(), op.getUpperBound(), op.getStep(), inits);
    splitBlockArgument(rewriter, &op.getBody().front(), split.getBody(),
                       /*offset=*/1, *index);
    expandYield(rewriter, split.getBody().front(), *index);
    rewriter.setInsertionPointAfter(split);
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(),
                                      split.getResults(), *index, size));
    return success();
  }
};

/// A tuple-typed carried value of adj.while becomes one per element.
struct SplitWhileTuple : OpRewritePattern<WhileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WhileOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<unsigned> index = firstTuple(op.getResultTypes());
    if (!index)
      return failure();
    size_t size = cast<AdjTupleType>(op.getResult(*index).getType()).size();
    SmallVector<Value> inits =
        expandValues(rewriter, op.getLoc(), op.getInits(), *index);
    auto split = WhileOp::create(rewriter, op.getLoc(),
                                 expandTypes(op.getResultTypes(), *index),
                                 inits);
    splitBlockArgument(rewriter, &op.getCond().front(), split.getCond(),
                       /*offset=*/0, *index);
    splitBlockArgument(rewriter, &op.getBody().front(), split.getBody(),
                       /*offset=*/0, *index);
    expandYield(rewriter, split.getBody().front(), *index);
    rewriter.setInsertionPointAfter(split);
    rewriter.replaceOp(op, packValues(rewriter, op.getLoc(),
                                      split.getResults(), *index, size));
    return success();
  }
};

struct SimplifyTuples
    : adjoint::adj::impl::SimplifyTuplesBase<SimplifyTuples> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<SplitIfTuple, SplitForTuple, SplitWhileTuple>(ctx);
    // The get/tuple cancellations are the ops' folders, which the driver
    // applies. Not reaching a fixed point within the driver's iteration
    // limit leaves a correct, less simplified program: not a failure.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                simplifyDriverConfig());
  }
};

} // namespace
