//===- F64Exp.cpp - exp and expm1 on f64 ----------------------------------===//
//
// x = n ln2 + r with n an integer and |r| <= ln2/2 (Cody and Waite: ln2 in
// two parts, the first with enough trailing zeros that n * ln2hi is exact
// for every n that matters), expm1(r) from its Taylor series to r^13
// (truncation below 2^-56 relative on that interval), then the scaling by
// 2^n with integer arithmetic on the exponent field.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

#include <limits>

using namespace mlir;
using namespace adjoint::f64math;
using Pred = arith::CmpFPredicate;

namespace {

constexpr double kLog2E = 1.44269504088896338700e+00;
// The largest x whose exp is finite: exp(x) rounds to DBL_MAX or less.
constexpr double kOverflow = 7.09782712893383973096e+02;

/// r and n of x = n ln2 + r, with `correction` the rounding error of r
/// (r + correction is x - n ln2 to about 2^-100).
struct Reduced {
  Value n, r, correction;
};

Reduced reduce(F64Emitter &e, Value x) {
  Value n = e.roundEven(e.mul(x, e.f(kLog2E)));
  // x - n kLn2Hi is exact: the product is exact and the difference is
  // within a factor of two of x (Sterbenz) or smaller than ln2.
  Value hi = e.fma(n, e.f(-kLn2Hi), x);
  Value lo = e.mul(n, e.f(kLn2Lo));
  Value r = e.sub(hi, lo);
  Value correction = e.sub(e.sub(hi, r), lo);
  return {n, r, correction};
}

/// expm1(r) for |r| <= ln2/2 (a little more is fine) as r + tail, the
/// tail r^2 q(r) with q the Taylor series of (expm1(r) - r) / r^2, plus
/// the first-order effect of `correction`: expm1(r + c) ~ expm1(r) +
/// c (1 + expm1(r)). Kept unsummed, so that the callers add r to their
/// larger terms before the small tail.
Value expm1Tail(F64Emitter &e, Value r, Value correction) {
  SmallVector<double, 13> coefficients;
  double factorial = 1;
  for (int k = 2; k <= 13; ++k) {
    factorial *= k;
    coefficients.insert(coefficients.begin(), 1 / factorial);
  }
  Value tail = e.mul(e.mul(r, r), e.horner(r, coefficients));
  Value m = e.add(r, tail);
  return e.add(tail, e.fma(correction, m, correction));
}

/// NaN for NaN, otherwise `x` clamped to [low, high] (infinities too).
Value clamp(F64Emitter &e, Value x, double low, double high) {
  // Unordered-or-greater sends NaN to `high`: no NaN reaches the integer
  // conversion, whose result for NaN is undefined; the callers put NaN
  // back at the end.
  Value c = e.select(e.cmp(Pred::UGT, x, e.f(high)), e.f(high), x);
  return e.select(e.cmp(Pred::OLT, c, e.f(low)), e.f(low), c);
}

} // namespace

Value adjoint::f64math::exp(F64Emitter &e, Value x) {
  // Below -750 the result rounds to 0 and above kOverflow it is +inf; the
  // clamp keeps n (in [-1082, 1024]) where the two-step scaling below is
  // exact.
  Value xc = clamp(e, x, -750, 710);
  Reduced red = reduce(e, xc);
  // 1 + (r + tail): the smaller terms first.
  Value p = e.add(e.f(1), e.add(red.r, expm1Tail(e, red.r, red.correction)));
  // 2^n as 2^n1 * 2^n2, both normal: p * 2^n1 is exact and the second
  // product rounds once, also where the result is subnormal.
  Value n = e.toInt(red.n);
  Value n1 = e.ashr(n, 1);
  Value n2 = e.subi(n, n1);
  Value y = e.mul(e.mul(p, e.pow2(n1)), e.pow2(n2));
  y = e.select(e.cmp(Pred::OGT, x, e.f(kOverflow)),
               e.f(std::numeric_limits<double>::infinity()), y);
  return e.keepNaN(x, y);
}

Value adjoint::f64math::expm1(F64Emitter &e, Value x) {
  // Below -50, expm1 rounds to -1; the clamp keeps n in [-73, 1024].
  Value xc = clamp(e, x, -50, 710);
  Reduced red = reduce(e, xc);
  Value tail = expm1Tail(e, red.r, red.correction);
  // expm1(x) = 2^n (r + tail) + (2^n - 1), computed as
  // 2 ((t r + (t - 1/2)) + t tail) with t = 2^(n-1) so that n = 1024 (x
  // just below kOverflow) needs no infinite 2^n. t r, t tail and t - 1/2
  // are exact (t - 1/2 rounds only where the 1/2 is below the result's
  // precision); the larger terms are summed first.
  Value t = e.pow2(e.subi(e.toInt(red.n), e.i(1)));
  Value head = e.fma(t, red.r, e.sub(t, e.f(0.5)));
  Value y = e.mul(e.fma(t, tail, head), e.f(2));
  y = e.select(e.cmp(Pred::OGT, x, e.f(kOverflow)),
               e.f(std::numeric_limits<double>::infinity()), y);
  // expm1(x) rounds to x below 2^-54 in magnitude, which also keeps -0
  // and subnormals exact.
  y = e.select(e.cmp(Pred::OLT, e.abs(x), e.f(0x1p-54)), x, y);
  return e.keepNaN(x, y);
}
