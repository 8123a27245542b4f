//===- F64Patterns.cpp - math ops on f64 -> F64Math.h ---------------------===//

#include "F64Math.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace adjoint::f64math;

namespace {

using Approximation = Value (*)(F64Emitter &, Value);

/// Replaces a unary math op on f64 or a vector of f64 by `approximate`.
template <typename OpTy, Approximation approximate>
struct ApproximateF64 : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF64())
      return rewriter.notifyMatchFailure(op, "not f64");
    F64Emitter e(rewriter, op.getLoc(), type);
    rewriter.replaceOp(op, approximate(e, op.getOperand()));
    return success();
  }
};

} // namespace

void adjoint::f64math::populateF64ApproximationPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ApproximateF64<math::ExpOp, exp>,
               ApproximateF64<math::ExpM1Op, expm1>,
               ApproximateF64<math::LogOp, log>,
               ApproximateF64<math::Log1pOp, log1p>,
               ApproximateF64<math::TanhOp, tanh>,
               ApproximateF64<math::ErfOp, erf>>(patterns.getContext());
}
