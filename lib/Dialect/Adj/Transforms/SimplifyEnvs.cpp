//===- SimplifyEnvs.cpp - Cancel environment reads against writes ---------===//
//
// The grad transform passes the sensitivities of a closure's free variables
// in an !adj.env. After inlining, each env_get meets the env_set, env_new or
// env_add that built its environment, and these patterns cancel them so that
// no environment is left in a program without recursion. Sets that are never
// read die with their environment (the driver's dead-code elimination: all
// env ops are pure).
//
//===----------------------------------------------------------------------===//

#include "SimplifyUtils.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_SIMPLIFYENVS
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {

/// env_get(env_set(e, k, v), k) => v;
/// env_get(env_set(e, k1, v), k2) => env_get(e, k2) for k1 != k2.
struct GetOfSet : OpRewritePattern<EnvGetOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvGetOp op,
                                PatternRewriter &rewriter) const override {
    auto set = op.getEnv().getDefiningOp<EnvSetOp>();
    if (!set)
      return failure();
    if (set.getKey() != op.getKey()) {
      rewriter.modifyOpInPlace(
          op, [&] { op.getEnvMutable().assign(set.getEnv()); });
      return success();
    }
    // A read at another type than the write is left for the interpreter to
    // report; it is not ours to paper over.
    if (set.getValue().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, set.getValue());
    return success();
  }
};

/// env_get(env_new, k) => the zero of the result type.
struct GetOfNew : OpRewritePattern<EnvGetOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvGetOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getEnv().getDefiningOp<EnvNewOp>() || !canBuildZero(op.getType()))
      return failure();
    rewriter.replaceOp(op, buildZero(rewriter, op.getLoc(), op.getType()));
    return success();
  }
};

/// env_get(env_add(a, b), k) => grad_add(env_get(a, k), env_get(b, k)): an
/// absent key reads as zero on either side, and zero is grad_add's unit.
struct GetOfAdd : OpRewritePattern<EnvGetOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvGetOp op,
                                PatternRewriter &rewriter) const override {
    auto add = op.getEnv().getDefiningOp<EnvAddOp>();
    if (!add || isa<AnyType>(op.getType()))
      return failure();
    // Adding the empty environment: read the other side, rather than add a
    // zero that only SimplifyAlgebra would remove.
    for (auto [empty, other] : {std::pair{add.getLhs(), add.getRhs()},
                                std::pair{add.getRhs(), add.getLhs()}}) {
      if (empty.getDefiningOp<EnvNewOp>()) {
        rewriter.modifyOpInPlace(op,
                                 [&] { op.getEnvMutable().assign(other); });
        return success();
      }
    }
    Location loc = op.getLoc();
    Value lhs = EnvGetOp::create(rewriter, loc, op.getType(), add.getLhs(),
                                 op.getKeyAttr());
    Value rhs = EnvGetOp::create(rewriter, loc, op.getType(), add.getRhs(),
                                 op.getKeyAttr());
    rewriter.replaceOpWithNewOp<GradAddOp>(op, op.getType(), lhs, rhs);
    return success();
  }
};

/// env_add(env_new, e) => e and env_add(e, env_new) => e.
struct AddOfNew : OpRewritePattern<EnvAddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvAddOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [empty, other] : {std::pair{op.getLhs(), op.getRhs()},
                                std::pair{op.getRhs(), op.getLhs()}}) {
      if (empty.getDefiningOp<EnvNewOp>() && other.getType() == op.getType()) {
        rewriter.replaceOp(op, other);
        return success();
      }
    }
    return failure();
  }
};

/// grad_add of two environments is env_add, which the patterns above see
/// through.
struct GradAddOfEnvs : OpRewritePattern<GradAddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GradAddOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<EnvType>(op.getLhs().getType()) ||
        !isa<EnvType>(op.getRhs().getType()) || !isa<EnvType>(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<EnvAddOp>(op, op.getType(), op.getLhs(),
                                          op.getRhs());
    return success();
  }
};

/// env_get(if c {.. e1} else {.. e2}, k) => if c {.. env_get(e1, k)} else
/// {.. env_get(e2, k)}: the read moves into the branches (Myia's
/// float_env_getitem_through_switch), where it meets the env_set that
/// built each environment. The conditional gets one more result.
struct GetThroughIf : OpRewritePattern<EnvGetOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvGetOp op,
                                PatternRewriter &rewriter) const override {
    auto result = dyn_cast<OpResult>(op.getEnv());
    auto ifOp = result ? dyn_cast<IfOp>(result.getOwner()) : IfOp();
    if (!ifOp)
      return failure();
    unsigned index = result.getResultNumber();
    SmallVector<Type> types(ifOp.getResultTypes());
    types.push_back(op.getType());
    rewriter.setInsertionPoint(ifOp);
    auto wider = IfOp::create(rewriter, ifOp.getLoc(), types,
                              ifOp.getCondition());
    for (auto [from, to] : llvm::zip(ifOp->getRegions(), wider->getRegions())) {
      rewriter.inlineRegionBefore(from, to, to.end());
      Operation *yield = to.front().getTerminator();
      rewriter.setInsertionPoint(yield);
      Value read = EnvGetOp::create(rewriter, op.getLoc(), op.getType(),
                                    yield->getOperand(index), op.getKeyAttr());
      SmallVector<Value> operands(yield->getOperands());
      operands.push_back(read);
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperands(operands); });
    }
    rewriter.replaceOp(op, wider.getResults().back());
    rewriter.replaceOp(ifOp, wider.getResults().drop_back());
    return success();
  }
};

struct SimplifyEnvs : adjoint::adj::impl::SimplifyEnvsBase<SimplifyEnvs> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<GetOfSet, GetOfNew, GetOfAdd, AddOfNew, GradAddOfEnvs,
                 GetThroughIf>(ctx);
    // Not reaching a fixed point leaves a correct program: not a failure.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                simplifyDriverConfig());
  }
};

} // namespace
