//===- FuseElementwise.cpp - Fuse producers into consumers on tensors -----===//
//
// The CPU tensor stage's fusion: every elementwise, broadcast or transpose
// producer moves into the loop nest of its consumer (an elementwise op or a
// reduction) when that does not multiply the producer's work, so a chain of
// elementwise ops is one loop and a broadcast-multiply-sum is one reduction.
// Contractions and convolutions stay named ops for -adj-cpu-linalg-to-kernels.
// Then each op gets a destination it can write in place (Destinations.cpp).
//
//===----------------------------------------------------------------------===//

#include "Destinations.h"

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace adjoint {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// True when recomputing one value of `op` costs about as much as reading
/// it back from memory: pure data movement or a single cheap arithmetic op.
bool isCheapToRecompute(linalg::GenericOp op) {
  int count = 0;
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (isa<math::MathDialect>(inner.getDialect()) ||
        isa<arith::DivFOp, arith::DivSIOp, arith::DivUIOp, arith::RemFOp,
            arith::RemSIOp, arith::RemUIOp>(inner))
      return false;
    if (++count > 1)
      return false;
  }
  return true;
}

/// The most ops a fused loop body may have. Each fusion copies the
/// producer's and the consumer's bodies into a new op, so fusing a chain of
/// n ops into one body copies O(n^2) ops: a 3000-op gradient spent 14 s
/// here. Past a few hundred ops per element, the store and load of one
/// intermediate value between two loops costs nothing measurable.
constexpr size_t kMaxFusedBodyOps = 256;

/// The ops in `op`'s body, counted up to `limit` + 1 (a block's size is a
/// walk of its list: this runs for every fusion candidate).
size_t bodySize(linalg::GenericOp op, size_t limit) {
  size_t n = 0;
  for (auto it = op.getRegion().front().begin(),
            end = op.getRegion().front().end();
       it != end && n <= limit; ++it)
    ++n;
  return n;
}

/// The fusion policy. The upstream precondition (all-parallel producer,
/// invertible result map, loop bounds still computable) is checked by the
/// pattern itself; this adds the cost side.
bool shouldFuse(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!producer || !consumer)
    return false;
  size_t producerOps = bodySize(producer, kMaxFusedBodyOps);
  if (producerOps + bodySize(consumer, kMaxFusedBodyOps - producerOps) >
      kMaxFusedBodyOps)
    return false;
  if (isCheapToRecompute(producer))
    return true;
  // A consumer that reads each producer value once and is the only reader
  // does no more work fused than unfused. A broadcasting read (a map that is
  // not a permutation of the consumer's loops) would evaluate the producer
  // once per broadcast element.
  AffineMap map = consumer.getMatchingIndexingMap(operand);
  return producer->hasOneUse() && map.isPermutation();
}

/// Whether every use of `producer` other than `operand` is in an op after
/// `operand`'s owner in its block (or nested in one): those uses can read
/// the producer's values from the fused op, which takes the owner's place.
bool otherUsesFollow(linalg::GenericOp producer, OpOperand *operand) {
  Operation *consumer = operand->getOwner();
  Block *block = consumer->getBlock();
  for (OpOperand &use : producer->getUses()) {
    if (&use == operand)
      continue;
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    if (!user || user == consumer || !consumer->isBeforeInBlock(user))
      return false;
  }
  return true;
}

/// An elementwise producer whose values other ops read too, fused into an
/// elementwise consumer as one op with both results (multi-output fusion):
/// `t = p(x); u = c(t); ... f(t)` becomes `(t, u) = (p, c . p)(x); f(t)`.
/// Each producer value is computed once, stored once and not read back by
/// the consumer, and one loop (one kernel on a GPU) does the work of two.
/// Upstream's pattern would recompute the producer in the consumer instead
/// and keep it for its other readers, so shouldFuse refuses it for
/// producers that are not cheap; this pattern takes those.
///
/// Why: the forward pass of a normalization or an activation keeps each
/// intermediate for the gradient (`xhat = (x - mean) * rstd`, `y = xhat *
/// gamma + beta`, `relu(y)`), so none of them has one use, and each was a
/// loop and a kernel of its own.
struct FuseMultiUseProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    if (!consumer.hasPureTensorSemantics() ||
        consumer.getNumParallelLoops() != consumer.getNumLoops())
      return failure();
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || producer->hasOneUse() ||
          !linalg::areElementwiseOpsFusable(operand) ||
          !consumer.getMatchingIndexingMap(operand).isPermutation() ||
          !otherUsesFollow(producer, operand))
        continue;
      size_t producerOps = bodySize(producer, kMaxFusedBodyOps);
      if (producerOps +
              bodySize(consumer, kMaxFusedBodyOps - producerOps) >
          kMaxFusedBodyOps)
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      // The producer's other readers take its values from the fused op.
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != consumer;
        });
      rewriter.eraseOp(consumer);
      return success();
    }
    return failure();
  }
};

/// Named ops whose generic form fuses: reductions, broadcasts, transposes
/// and elementwise maps. Fills fold into generics by themselves; matmul and
/// convolutions must stay named.
bool shouldGeneralize(Operation *op) {
  return isa<linalg::ReduceOp, linalg::BroadcastOp, linalg::TransposeOp,
             linalg::MapOp, linalg::ElementwiseOp>(op);
}

/// linalg.matmul(transpose(a), b) -> linalg.matmul(a, b) with the transposed
/// indexing map: the kernel reads the transposed operand through strides
/// instead of a materialized copy.
struct FoldTransposeIntoMatmul : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.hasUserDefinedMaps() ||
        op.getCast() != linalg::TypeFn::cast_signed)
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> inputs(op.getInputs());
    bool changed = false;
    for (int i = 0; i < 2; ++i) {
      auto transpose = inputs[i].getDefiningOp<linalg::TransposeOp>();
      if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
        continue;
      inputs[i] = transpose.getInput();
      AffineMap m = maps[i];
      maps[i] = AffineMap::get(m.getNumDims(), 0,
                               {m.getResult(1), m.getResult(0)},
                               rewriter.getContext());
      changed = true;
    }
    if (!changed)
      return failure();
    auto matmul = linalg::MatmulOp::create(rewriter, op.getLoc(),
                                           op->getResultTypes(), inputs,
                                           op.getOutputs());
    matmul.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    rewriter.replaceOp(op, matmul->getResults());
    return success();
  }
};

struct FuseElementwise : adjoint::impl::FuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    {
      RewritePatternSet patterns(ctx);
      patterns.add<FoldTransposeIntoMatmul>(ctx);
      // Not converging within the driver's iteration limit leaves valid,
      // less fused IR: not an error.
      (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    }

    SmallVector<linalg::LinalgOp> named;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (shouldGeneralize(op) && op.hasPureTensorSemantics())
        named.push_back(op);
    });
    IRRewriter rewriter(ctx);
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      // An op without a region builder stays named; it is still correct,
      // just not fused.
      (void)linalg::generalizeNamedOp(rewriter, op);
    }

    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    patterns.add<FuseMultiUseProducer>(ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    // Top-down visits producers first, which keeps compile time linear in
    // the length of a chain.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
    // Destinations last: fusion rewrites the ops that own them.
    adjoint::fusion::unshareDestinations(getOperation());
    adjoint::fusion::reuseDeadInputs(getOperation());
  }
};

} // namespace
