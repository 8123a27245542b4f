//===- Tuples.cpp - Tuples vanish into their leaves -----------------------===//
//
// A tuple is the list of its leaves (1:N conversion), so adj.tuple
// concatenates its operands' leaves and adj.get takes a slice of them.
// zeros_like and grad_add of tuples and environments work leaf by leaf: a
// tensor leaf gets a new tensor op that the elementwise patterns lower, an
// environment leaf the runtime's env_add or the empty environment.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "Structure.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

struct TuplePattern : OpConversionPattern<adj::TupleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::TupleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<SmallVector<Value>> replacement;
    replacement.push_back(flatten(adaptor.getElements()));
    rewriter.replaceOpWithMultiple(op, std::move(replacement));
    return success();
  }
};

struct GetPattern : OpConversionPattern<adj::GetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::GetOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tupleType = cast<adj::TupleType>(op.getTuple().getType());
    SmallVector<SmallVector<Value>> elements = splitConverted(
        *typeConverter, tupleType.getTypes(), adaptor.getTuple());
    SmallVector<SmallVector<Value>> replacement;
    replacement.push_back(elements[op.getIndex()]);
    rewriter.replaceOpWithMultiple(op, std::move(replacement));
    return success();
  }
};

/// True for the types the tensor patterns handle.
bool isTensor(Type type) { return isa<RankedTensorType>(type); }

/// zeros_like of anything but a tensor: zeros of the result type, leaf by
/// leaf (tensors filled with 0, environments empty).
struct ZerosLikePattern : OpConversionPattern<adj::ZerosLikeOp> {
  ZerosLikePattern(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(adj::ZerosLikeOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isTensor(op.getType()))
      return rewriter.notifyMatchFailure(op, "a tensor");
    SmallVector<Type> leaves;
    flattenLeaves(op.getType(), leaves);
    RuntimeBuilder rtb{rewriter, op.getLoc()};
    SmallVector<Value> values;
    for (Type leaf : leaves) {
      if (auto tensor = dyn_cast<RankedTensorType>(leaf)) {
        Value zero = scalarConstant(rewriter, op.getLoc(),
                                    tensor.getElementType(), 0);
        values.push_back(filledTensor(rewriter, op.getLoc(), tensor, zero));
        continue;
      }
      if (!isa<adj::EnvType>(leaf))
        return rewriter.notifyMatchFailure(op, "a function-valued leaf");
      values.push_back(rtb.null());
    }
    SmallVector<SmallVector<Value>> replacement;
    replacement.push_back(std::move(values));
    rewriter.replaceOpWithMultiple(op, std::move(replacement));
    return success();
  }
};

/// grad_add of anything but tensors: leaf by leaf.
struct GradAddPattern : OpConversionPattern<adj::GradAddOp> {
  GradAddPattern(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(adj::GradAddOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isTensor(op.getType()))
      return rewriter.notifyMatchFailure(op, "tensors");
    SmallVector<Type> leaves;
    flattenLeaves(op.getType(), leaves);
    ValueRange lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    if (lhs.size() != leaves.size() || rhs.size() != leaves.size())
      return rewriter.notifyMatchFailure(op, "a function-valued leaf");
    RuntimeBuilder rtb{rewriter, op.getLoc()};
    SmallVector<Value> values;
    for (auto [leaf, a, b] : llvm::zip(leaves, lhs, rhs)) {
      if (isTensor(leaf))
        values.push_back(
            adj::GradAddOp::create(rewriter, op.getLoc(), leaf, a, b));
      else
        values.push_back(rtb.call(rt::kEnvAdd, a.getType(), {a, b})[0]);
    }
    SmallVector<SmallVector<Value>> replacement;
    replacement.push_back(std::move(values));
    rewriter.replaceOpWithMultiple(op, std::move(replacement));
    return success();
  }
};

} // namespace

void lowering::populateTuplePatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<TuplePattern, GetPattern, ZerosLikePattern, GradAddPattern>(
      converter, patterns.getContext());
}
