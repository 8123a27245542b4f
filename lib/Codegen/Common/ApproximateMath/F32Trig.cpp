//===- F32Trig.cpp - f32 sin and cos through f64 arithmetic ---------------===//
//
// MLIR's f32 sin/cos polynomials reduce the argument in f32, which is wrong
// far beyond a few ulp: sin(-1.8e-12) was 6.2e-8, cos(-pi/2 in f32) 0, and
// at |x| ~ 1e6 the absolute error reached 1e-2. JAX's are within 0.56 ulp
// everywhere. Here the reduction x = n pi/2 + r is done in f64, so that
// the result is that of f32 arithmetic on an almost exact r:
//
// - |x| < 2^28: n = round(x 2/pi), r = x - n P1 - n P2 - n P3 with pi/2 =
//   P1 + P2 + P3 in three doubles, each step one fma (Cody and Waite);
//   n P1 is within 2^28 ulp of x, so the rounding of the first step is
//   relative to r itself.
// - larger |x| (an integer m 2^e with m < 2^24): x 2/pi mod 4 from 2/pi in
//   24-bit chunks c_i 2^(-24 (i+1)); each m c_i is exact (48 bits), scaled
//   by a power of two, and reduced mod 4 exactly, so only the running sum
//   rounds (to about 2^-50 absolute), as Payne and Hanek's reduction does
//   without its table lookups.
//
// sin and cos of r in [-pi/4, pi/4] are their Taylor series to r^13 and
// r^14 (truncation below 1e-11, far below f32's half ulp), chosen and
// signed by the quadrant n mod 4. Everything is arith and math ops that
// vectorize, on scalars or vectors; NaN and infinities give NaN, and
// sin(-0) = -0.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace adjoint::f64math;
using Pred = arith::CmpFPredicate;

namespace {

constexpr double kTwoOverPi = 6.36619772367581382433e-01;
// pi/2 = kPio2[0] + kPio2[1] + kPio2[2] to about 2^-160.
constexpr double kPio2[] = {1.5707963267948966, 6.123233995736766e-17,
                            -1.4973849048591698e-33};
// 2/pi = sum c_i 2^(-24 (i+1)): 216 bits, enough for f32's largest
// exponent (2^127: the terms that matter end 75 bits below 2^0).
constexpr double kTwoOverPiChunks[] = {10680707, 7228996,  1387004,
                                       2578385,  16069853, 12639074,
                                       9804092,  4427841,  16666979};
// Below this, the Cody-Waite reduction; at and above, the chunked one.
constexpr double kLarge = 268435456.0; // 2^28

/// x mod 4 for an x whose bits below 2^0 are exact.
Value mod4(F64Emitter &e, Value x) {
  return e.sub(x, e.mul(e.floor(e.mul(x, e.f(0.25))), e.f(4.0)));
}

/// n (a whole float) and r of |x| = n pi/2 + r, |r| <= pi/4 (a little
/// more for the largest n).
std::pair<Value, Value> reduce(F64Emitter &e, Value ax) {
  Value n = e.roundEven(e.mul(ax, e.f(kTwoOverPi)));
  Value r = ax;
  for (double part : kPio2)
    r = e.fma(n, e.f(-part), r);

  // |x| = m 2^k with m < 2^24 a whole number: k from the exponent field.
  Value k = e.subi(e.ashr(e.bits(ax), 52), e.i(1023 + 23));
  Value m = e.mul(ax, e.pow2(e.subi(e.i(0), k)));
  Value s = e.f(0.0);
  for (auto [i, chunk] : llvm::enumerate(kTwoOverPiChunks)) {
    Value scale = e.pow2(e.subi(k, e.i(24 * int64_t(i + 1))));
    s = mod4(e, e.add(s, mod4(e, e.mul(e.mul(m, e.f(chunk)), scale))));
  }
  Value q = e.roundEven(s);
  Value rLarge = e.mul(e.sub(s, q), e.f(kPio2[0]));

  Value large = e.cmp(Pred::OGE, ax, e.f(kLarge));
  return {e.select(large, q, n), e.select(large, rLarge, r)};
}

Value sinPoly(F64Emitter &e, Value r) {
  SmallVector<double, 7> c; // (-1)^j / (2j + 1)! for j = 6..1
  double factorial = 1;
  for (int j = 1; j <= 6; ++j) {
    factorial *= (2 * j) * (2 * j + 1);
    c.insert(c.begin(), (j % 2 ? -1.0 : 1.0) / factorial);
  }
  Value r2 = e.mul(r, r);
  return e.fma(e.mul(r, r2), e.horner(r2, c), r);
}

Value cosPoly(F64Emitter &e, Value r) {
  SmallVector<double, 7> c; // (-1)^j / (2j)! for j = 7..1
  double factorial = 1;
  for (int j = 1; j <= 7; ++j) {
    factorial *= (2 * j - 1) * (2 * j);
    c.insert(c.begin(), (j % 2 ? -1.0 : 1.0) / factorial);
  }
  Value r2 = e.mul(r, r);
  return e.fma(r2, e.horner(r2, c), e.f(1.0));
}

/// sin(x) (`cosine` false) or cos(x) of an f64 holding an f32 value.
Value sinOrCos(F64Emitter &e, Value x, bool cosine) {
  Value ax = e.abs(x);
  auto [n, r] = reduce(e, ax);
  // cos(x) = sin(|x| + pi/2): one quadrant on.
  Value quadrant = e.andi(e.addi(e.toInt(n), e.i(cosine ? 1 : 0)), e.i(3));
  Value s = sinPoly(e, r), c = cosPoly(e, r);
  // Quadrants 0..3 of sin: sin r, cos r, -sin r, -cos r.
  Value odd = e.cmpi(arith::CmpIPredicate::ne, e.andi(quadrant, e.i(1)),
                     e.i(0));
  Value lower = e.cmpi(arith::CmpIPredicate::sge, quadrant, e.i(2));
  Value result = e.select(odd, c, s);
  result = e.select(lower, e.sub(e.f(0.0), result), result);
  // sin is odd: the sign of x (sin(-0) = -0); cos is even.
  if (!cosine)
    result = e.mul(result, e.copySign(e.f(1.0), x));
  Value finite = e.cmp(Pred::OLT, ax, e.f(INFINITY));
  return e.select(finite, result, e.f(NAN));
}

/// math.sin or math.cos on f32 (scalar or vector), computed in f64.
template <typename OpTy, bool cosine>
struct F32Trig : OpRewritePattern<OpTy> {
  // Before MLIR's own f32 polynomials, should both be registered.
  F32Trig(MLIRContext *ctx) : OpRewritePattern<OpTy>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    Type wide = Float64Type::get(op.getContext());
    if (auto vector = dyn_cast<VectorType>(type))
      wide = vector.clone(wide);
    Location loc = op.getLoc();
    Value x = arith::ExtFOp::create(rewriter, loc, wide, op.getOperand());
    F64Emitter e(rewriter, loc, wide);
    Value result = sinOrCos(e, x, cosine);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, result);
    return success();
  }
};

} // namespace

void adjoint::f64math::populateF32TrigPatterns(RewritePatternSet &patterns) {
  patterns.add<F32Trig<math::SinOp, false>, F32Trig<math::CosOp, true>>(
      patterns.getContext());
}
