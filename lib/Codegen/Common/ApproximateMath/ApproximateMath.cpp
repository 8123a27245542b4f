//===- ApproximateMath.cpp - Transcendentals as polynomials ---------------===//
//
// On the CPU, LLVM turns math.exp, math.tanh and friends into calls of the
// C library, one element at a time, which keeps the loops around them from
// being vectorized: a tanh over a 512x512 activation costs milliseconds.
// MLIR's polynomial approximations (a few ulp in f32, like Eigen's, which
// the reference interpreter uses) are plain arithmetic that the loop
// vectorizer turns into AVX-512 code (atan2 through atan, which
// np.arctan2 and np.arcsin need); f32 sin and cos are ours (F32Trig.cpp),
// reduced in f64. f64 exp, expm1, log, log1p, tanh and erf
// get our own approximations (F64Math.h, within 1.5 ulp); f64 sin, cos,
// log2 and atan2 keep the library calls. NVIDIA and AMD kernels use
// them where the vendor's math library is not linked (the f64 ones only
// where there is none at all, `f64=false` otherwise): with it, its
// functions are the better code.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace adjoint {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// The functions approximated: those with an f32 polynomial upstream whose
/// accuracy stays within the f32 tolerance the tests hold compiled code to.
/// The f64 ones (F64Math.h) are among them; their patterns match f64 only.
bool isApproximated(StringRef name) {
  name.consume_front("math.");
  return llvm::is_contained({"exp", "expm1", "tanh", "log", "log1p", "log2",
                             "erf", "sin", "cos", "atan", "atan2"},
                            name);
}

/// The functions whose f32 form is MLIR's polynomial; f32 sin and cos are
/// ours (F32Trig.cpp): MLIR's reduce the argument in f32, off by up to
/// 1e-2 at |x| ~ 1e6 and by 6e-8 at x ~ 1e-12.
bool hasF32Polynomial(StringRef name) {
  name.consume_front("math.");
  return isApproximated(name) && name != "sin" && name != "cos";
}

struct ApproximateMath : adjoint::impl::ApproximateMathBase<ApproximateMath> {
  using ApproximateMathBase::ApproximateMathBase;

  void runOnOperation() override {
    // Only the math ops and what their rewrites create, so that the rest of
    // the module is not folded as a side effect.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::MathDialect>(op->getDialect()) &&
          isApproximated(op->getName().getStringRef()))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    RewritePatternSet patterns(&getContext());
    // f16 and bf16 through the f32 polynomials.
    populateMathF32ExpansionPatterns(patterns, isApproximated);
    populateMathPolynomialApproximationPatterns(patterns, hasF32Polynomial);
    adjoint::f64math::populateF32TrigPatterns(patterns);
    if (f64)
      adjoint::f64math::populateF64ApproximationPatterns(patterns);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    // A math op left unrewritten is still correct (a libm call).
    (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
  }
};

} // namespace
