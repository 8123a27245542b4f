//===- SimplifyAlgebra.cpp - Algebraic identities and shape cancellations -===//
//
// The backward code that -adj-grad emits is full of zeros (zeros_like,
// sensitivities of unused tuple elements), grad_adds and round trips through
// transposes and reshapes. These patterns remove them. Shapes are kept:
// where dropping a zero or a one would lose a broadcast, the surviving
// operand is broadcast explicitly.
//
// IEEE caveat: `x * 0 => 0` is exact for integers but not for floats, where
// NaN * 0 and inf * 0 are NaN and (-x) * 0 is -0. Like -ffast-math's
// no-NaNs/no-infs/no-signed-zeros assumptions, the pass treats such inputs
// as out of scope: sensitivities are finite by construction, and a program
// whose value relies on NaN propagation through a product by a constant
// zero is not preserved. Likewise `x + 0 => x` turns -0 + 0 (which is +0)
// into -0.
//
//===----------------------------------------------------------------------===//

#include "SimplifyUtils.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_SIMPLIFYALGEBRA
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;
/// adj's tuple type, not the builtin one.
using AdjTupleType = adjoint::adj::TupleType;

namespace {

//===----------------------------------------------------------------------===//
// Sensitivities
//===----------------------------------------------------------------------===//

/// zeros_like(x) => fill 0 / tuple of zeros / env_new, of sens(type(x)).
struct ZerosLikeToZero : OpRewritePattern<ZerosLikeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ZerosLikeOp op,
                                PatternRewriter &rewriter) const override {
    if (!canBuildZero(op.getType()))
      return failure();
    rewriter.replaceOp(op, buildZero(rewriter, op.getLoc(), op.getType()));
    return success();
  }
};

/// grad_add(a, b) => add(a, b) on tensors (i1 has no addition: its
/// sensitivities are zeros that the other patterns remove);
/// grad_add(a, b) => tuple(grad_add(a[i], b[i])...) on tuples.
struct LowerGradAdd : OpRewritePattern<GradAddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GradAddOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (op.getLhs().getType() != type || op.getRhs().getType() != type)
      return failure();
    Location loc = op.getLoc();
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      if (tensor.getElementType().isInteger(1))
        return failure();
      rewriter.replaceOpWithNewOp<AddOp>(op, type, op.getLhs(), op.getRhs());
      return success();
    }
    if (!isa<AdjTupleType>(type))
      return failure();
    SmallVector<Value> lhs = tupleElements(rewriter, loc, op.getLhs());
    SmallVector<Value> rhs = tupleElements(rewriter, loc, op.getRhs());
    SmallVector<Value> sums;
    for (auto [a, b] : llvm::zip_equal(lhs, rhs))
      sums.push_back(GradAddOp::create(rewriter, loc, a.getType(), a, b));
    rewriter.replaceOpWithNewOp<TupleOp>(op, sums);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Arithmetic identities
//===----------------------------------------------------------------------===//

/// Replaces `op` by `x`, broadcast to the result's shape when the dropped
/// operand made it bigger. Fails (changing nothing) on untyped values.
LogicalResult replaceKeepingShape(PatternRewriter &rewriter, Operation *op,
                                  Value x) {
  Type type = op->getResult(0).getType();
  if (x.getType() == type) {
    rewriter.replaceOp(op, x);
    return success();
  }
  auto result = dyn_cast<RankedTensorType>(type);
  auto input = dyn_cast<RankedTensorType>(x.getType());
  if (!result || !input || !result.hasStaticShape() ||
      result.getElementType() != input.getElementType())
    return failure();
  rewriter.replaceOpWithNewOp<BroadcastToOp>(op, result, x);
  return success();
}

/// x + 0 => x and 0 + x => x.
struct AddZero : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    if (isConstantZero(op.getRhs()))
      return replaceKeepingShape(rewriter, op, op.getLhs());
    if (isConstantZero(op.getLhs()))
      return replaceKeepingShape(rewriter, op, op.getRhs());
    return failure();
  }
};

/// a + scatter_add(0, idx, u) => scatter_add(a, idx, u) (either order): the
/// sensitivity of a gathered table, accumulated over a loop's trips,
/// touches only the gathered rows instead of the whole table each trip.
struct AddIntoScatter : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [scattered, other] : {std::pair(op.getRhs(), op.getLhs()),
                                    std::pair(op.getLhs(), op.getRhs())}) {
      auto scatter = scattered.getDefiningOp<ScatterAddOp>();
      if (!scatter || !isConstantZero(scatter.getTarget()) ||
          scatter.getType() != op.getType() || other.getType() != op.getType())
        continue;
      rewriter.replaceOpWithNewOp<ScatterAddOp>(
          op, op.getType(), other, scatter.getIndices(), scatter.getUpdates(),
          scatter.getAxisAttr());
      return success();
    }
    return failure();
  }
};

/// x * 1 => x, 1 * x => x, x * 0 => 0 and 0 * x => 0 (see the IEEE caveat
/// above).
struct MulOneOrZero : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    if (isConstantZero(op.getLhs()) || isConstantZero(op.getRhs())) {
      if (!canBuildZero(op.getType()))
        return failure();
      rewriter.replaceOp(op, buildZero(rewriter, op.getLoc(), op.getType()));
      return success();
    }
    if (isConstantOne(op.getRhs()))
      return replaceKeepingShape(rewriter, op, op.getLhs());
    if (isConstantOne(op.getLhs()))
      return replaceKeepingShape(rewriter, op, op.getRhs());
    return failure();
  }
};

/// x - 0 => x, x / 1 => x and x ** 1 => x (the backward pass of x ** 2
/// computes 2 * x ** 1): `IsIdentity` recognizes the right identity of OpT.
template <typename OpT, bool (*IsIdentity)(Value)>
struct DropRightIdentity : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (IsIdentity(op.getRhs()))
      return replaceKeepingShape(rewriter, op, op.getLhs());
    return failure();
  }
};

/// neg(neg(x)) => x.
struct NegNeg : OpRewritePattern<NegOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(NegOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<NegOp>();
    if (!inner || inner.getInput().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, inner.getInput());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

/// transpose(transpose(x, p), q) => transpose(x, r) with r[i] = p[q[i]]
/// (result dim i of the outer op is dim q[i] of the inner one, which is
/// dim p[q[i]] of x), and an identity transpose => x.
struct ComposeTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> perm(op.getPerm());
    Value input = op.getInput();
    if (auto inner = input.getDefiningOp<TransposeOp>()) {
      ArrayRef<int64_t> p = inner.getPerm();
      for (int64_t &axis : perm)
        axis = p[axis];
      input = inner.getInput();
    }
    bool identity = llvm::all_of(llvm::enumerate(perm), [](auto pair) {
      return pair.value() == static_cast<int64_t>(pair.index());
    });
    if (identity && input.getType() == op.getType()) {
      rewriter.replaceOp(op, input);
      return success();
    }
    if (input == op.getInput())
      return failure();
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(), input,
                                             rewriter.getDenseI64ArrayAttr(perm));
    return success();
  }
};

/// reshape(reshape(x)) => reshape(x), and => x when the types agree.
struct ComposeReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    if (inner.getInput().getType() == op.getType())
      rewriter.replaceOp(op, inner.getInput());
    else
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(),
                                             inner.getInput());
    return success();
  }
};

/// broadcast_to(fill v) => fill v of the bigger type.
struct BroadcastFill : OpRewritePattern<BroadcastToOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastToOp op,
                                PatternRewriter &rewriter) const override {
    auto fill = op.getInput().getDefiningOp<FillOp>();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!fill || !type || !type.hasStaticShape())
      return failure();
    rewriter.replaceOpWithNewOp<FillOp>(op, type, fill.getValueAttr());
    return success();
  }
};

struct SimplifyAlgebra
    : adjoint::adj::impl::SimplifyAlgebraBase<SimplifyAlgebra> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ZerosLikeToZero, LowerGradAdd>(ctx);
    patterns.add<AddZero, AddIntoScatter,
                 DropRightIdentity<SubOp, isConstantZero>,
                 MulOneOrZero, DropRightIdentity<DivOp, isConstantOne>,
                 DropRightIdentity<PowOp, isConstantOne>, NegNeg>(ctx);
    // cast to the same type => x is adj.cast's folder, applied by the driver.
    patterns.add<ComposeTransposes, ComposeReshapes, BroadcastFill>(ctx);
    // Not reaching a fixed point leaves a correct program: not a failure.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                simplifyDriverConfig());
  }
};

} // namespace
