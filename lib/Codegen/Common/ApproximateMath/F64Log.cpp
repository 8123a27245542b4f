//===- F64Log.cpp - log and log1p on f64 ----------------------------------===//
//
// x = 2^k m with m in [sqrt(2)/2, sqrt(2)), f = m - 1 (exact), and
// log(1 + f) = 2 atanh(s) with s = f / (2 + f), |s| < 0.1716: f - f^2/2 +
// s (f^2/2 + R(s^2)) where R is the minimax polynomial of degree 7 in s^2
// published with fdlibm (error below 2^-58.45 on that interval). log1p adds
// the rounding error of 1 + x, divided by 1 + x, to the same sum.
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

#include <limits>

using namespace mlir;
using namespace adjoint::f64math;
using Pred = arith::CmpFPredicate;

namespace {

constexpr double kSqrt2 = 1.41421356237309514547e+00;
// fdlibm's Lg7 ... Lg1: R(z) = z (Lg1 + z (Lg2 + ... + z Lg7)).
constexpr double kLg[] = {
    1.479819860511658591e-01, 1.531383769920937332e-01,
    1.818357216161805012e-01, 2.222219843214978396e-01,
    2.857142874366239149e-01, 3.999999999940941908e-01,
    6.666666666666735130e-01,
};
constexpr double kInf = std::numeric_limits<double>::infinity();

/// k (as a float) and f of x = 2^k (1 + f) with 1 + f in [sqrt(2)/2,
/// sqrt(2)), for a positive finite x (subnormals included).
struct Decomposed {
  Value k, f;
};

Decomposed decompose(F64Emitter &e, Value x) {
  // Subnormals: scaled by 2^54 into the normals first.
  Value subnormal = e.cmp(Pred::OLT, x, e.f(0x1p-1022));
  Value xs = e.select(subnormal, e.mul(x, e.f(0x1p54)), x);
  Value bits = e.bits(xs);
  Value exponent = e.subi(e.ashr(bits, 52), e.i(1023));
  Value fraction = e.andi(bits, e.i((int64_t(1) << 52) - 1));
  Value m = e.fromBits(e.ori(fraction, e.bits(e.f(1))));
  Value high = e.cmp(Pred::OGT, m, e.f(kSqrt2));
  m = e.select(high, e.mul(m, e.f(0.5)), m);
  Value k = e.add(e.toFloat(exponent), e.select(high, e.f(1), e.f(0)));
  k = e.add(k, e.select(subnormal, e.f(-54), e.f(0)));
  return {k, e.sub(m, e.f(1))};
}

/// log(2^k (1 + f) + c 2^k (1 + f)) ~ k ln2 + log(1 + f) + c, with the
/// small terms summed first and k ln2hi (exact) added last.
Value logOf(F64Emitter &e, Decomposed d, Value c) {
  Value f = d.f;
  Value s = e.div(f, e.add(e.f(2), f));
  Value z = e.mul(s, s);
  Value r = e.mul(z, e.horner(z, kLg));
  Value halfSquare = e.mul(e.f(0.5), e.mul(f, f));
  Value small = e.fma(s, e.add(halfSquare, r), e.fma(d.k, e.f(kLn2Lo), c));
  return e.fma(d.k, e.f(kLn2Hi), e.sub(f, e.sub(halfSquare, small)));
}

} // namespace

Value adjoint::f64math::log(F64Emitter &e, Value x) {
  Value y = logOf(e, decompose(e, x), e.f(0));
  y = e.select(e.cmp(Pred::OEQ, x, e.f(kInf)), x, y);
  y = e.select(e.cmp(Pred::OEQ, x, e.f(0)), e.f(-kInf), y);
  y = e.select(e.cmp(Pred::OLT, x, e.f(0)),
               e.f(std::numeric_limits<double>::quiet_NaN()), y);
  return e.keepNaN(x, y);
}

Value adjoint::f64math::log1p(F64Emitter &e, Value x) {
  Value u = e.add(e.f(1), x);
  // (1 + x) - u exactly: u - x (x >= 1) and u - 1 (x < 1) are exact by
  // Sterbenz's lemma or because 1 + x was.
  Value c = e.select(e.cmp(Pred::OGE, x, e.f(1)), e.sub(e.f(1), e.sub(u, x)),
                     e.sub(x, e.sub(u, e.f(1))));
  Value y = logOf(e, decompose(e, u), e.div(c, u));
  // log1p(x) rounds to x below 2^-54 in magnitude (-0 and subnormals).
  y = e.select(e.cmp(Pred::OLT, e.abs(x), e.f(0x1p-54)), x, y);
  y = e.select(e.cmp(Pred::OEQ, x, e.f(kInf)), x, y);
  y = e.select(e.cmp(Pred::OEQ, x, e.f(-1)), e.f(-kInf), y);
  y = e.select(e.cmp(Pred::OLT, x, e.f(-1)),
               e.f(std::numeric_limits<double>::quiet_NaN()), y);
  return e.keepNaN(x, y);
}
