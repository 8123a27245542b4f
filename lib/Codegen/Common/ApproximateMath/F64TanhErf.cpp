//===- F64TanhErf.cpp - tanh and erf on f64 -------------------------------===//
//
// tanh through a rational function and expm1, erf through fdlibm's four
// rational approximations, evaluated as one rational function whose
// coefficients are selected per element (a vector of inputs spans several intervals; computing the four
// and selecting would cost four divisions).
//
//===----------------------------------------------------------------------===//

#include "F64Math.h"

using namespace mlir;
using namespace adjoint::f64math;
using Pred = arith::CmpFPredicate;

Value adjoint::f64math::tanh(F64Emitter &e, Value x) {
  // Below 0.625: tanh|x| = |x| + |x| z P(z) / Q(z), z = x^2, with Cephes'
  // minimax rational function (relative error about 2e-17 there). From
  // 0.625 on, with m = expm1(2|x|): 1 - 2 / (m + 2), whose small quotient's
  // error barely shows in the difference; m is +inf from |x| ~ 355 on,
  // the quotient 0 and tanh 1, as it rounds from |x| ~ 19.1 on. One
  // division for both: its operands are selected.
  Value ax = e.abs(x);
  Value z = e.mul(x, x);
  Value small = e.cmp(Pred::OLT, ax, e.f(0.625));
  Value p = e.horner(z, {-9.64399179425052238628e-1, -9.92877231001918586564e1,
                         -1.61468768441708447952e3});
  Value q = e.horner(z, {1.0, 1.12811678491632931402e2,
                         2.23548839060100448583e3, 4.84406305325125486048e3});
  Value m = expm1(e, e.mul(ax, e.f(2)));
  Value quotient = e.div(e.select(small, p, e.f(2)),
                         e.select(small, q, e.add(m, e.f(2))));
  Value y = e.select(small, e.fma(e.mul(ax, z), quotient, ax),
                     e.sub(e.f(1), quotient));
  y = e.copySign(y, x);
  // tanh(x) rounds to x below 2^-28 (x^3/3 is below half an ulp): keeps
  // -0 and subnormals exact where z underflows.
  y = e.select(e.cmp(Pred::OLT, ax, e.f(0x1p-28)), x, y);
  return e.keepNaN(x, y);
}

namespace {

/// One rational approximation: P(t) / (1 + t Q(t)), coefficients from the
/// highest power, padded with leading zeros to a common degree (7 for P,
/// 8 for 1 + t Q).
struct Rational {
  double p[8];
  double q[8];
};

// fdlibm's coefficients (s_erf.c), by interval of |x|:
// [0, 0.84375): erf = x + x R(x^2).
constexpr Rational kSmall = {
    {0, 0, 0, -2.37630166566501626084e-05, -5.77027029648944159157e-03,
     -2.84817495755985104766e-02, -3.25042107247001499370e-01,
     1.28379167095512558561e-01},
    {0, 0, 0, -3.96022827877536812320e-06, 1.32494738004321644526e-04,
     5.08130628187576562776e-03, 6.50222499887672944485e-02,
     3.97917223959155352819e-01}};
// [0.84375, 1.25): erf = erx + R(|x| - 1).
constexpr Rational kNearOne = {
    {0, -2.16637559486879084300e-03, 3.54783043256182359371e-02,
     -1.10894694282396677476e-01, 3.18346619901161753674e-01,
     -3.72207876035701323847e-01, 4.14856118683748331666e-01,
     -2.36211856075265944077e-03},
    {0, 0, 1.19844998467991074170e-02, 1.36370839120290507362e-02,
     1.26171219808761642112e-01, 7.18286544141962662868e-02,
     5.40397917702171048937e-01, 1.06420880400844228286e-01}};
// [1.25, 1/0.35): erfc = exp(-x^2 - 0.5625 + R(1/x^2)) / |x|.
constexpr Rational kMiddle = {
    {-9.81432934416914548592e+00, -8.12874355063065934246e+01,
     -1.84605092906711035994e+02, -1.62396669462573470355e+02,
     -6.23753324503260060396e+01, -1.05586262253232909814e+01,
     -6.93858572707181764372e-01, -9.86494403484714822705e-03},
    {-6.04244152148580987438e-02, 6.57024977031928170135e+00,
     1.08635005541779435134e+02, 4.29008140027567833386e+02,
     6.45387271733267880336e+02, 4.34565877475229228821e+02,
     1.37657754143519042600e+02, 1.96512716674392571292e+01}};
// [1/0.35, 6): the same form.
constexpr Rational kTail = {
    {0, -4.83519191608651397019e+02, -1.02509513161107724954e+03,
     -6.37566443368389627722e+02, -1.60636384855821916062e+02,
     -1.77579549177547519889e+01, -7.99283237680523006574e-01,
     -9.86494292470009928597e-03},
    {0, -2.24409524465858183362e+01, 4.74528541206955367215e+02,
     2.55305040643316442583e+03, 3.19985821950859553908e+03,
     1.53672958608443695994e+03, 3.25792512996573918826e+02,
     3.03380607434824582924e+01}};
// erf(1) rounded to 24 bits (fdlibm's erx): the rational part near one
// approximates erf(x) - erx.
constexpr double kErx = 8.45062911510467529297e-01;

} // namespace

Value adjoint::f64math::erf(F64Emitter &e, Value x) {
  Value ax = e.abs(x);
  Value x2 = e.mul(x, x);
  Value small = e.cmp(Pred::OLT, ax, e.f(0.84375));
  Value nearOne = e.cmp(Pred::OLT, ax, e.f(1.25));
  Value middle = e.cmp(Pred::OLT, ax, e.f(1 / 0.35));
  Value t = e.select(small, x2,
                     e.select(nearOne, e.sub(ax, e.f(1)),
                              e.div(e.f(1), x2)));
  auto pick = [&](double a, double b, double c, double d) {
    if (a == b && b == c && c == d)
      return e.f(a);
    return e.select(small, e.f(a),
                    e.select(nearOne, e.f(b),
                             e.select(middle, e.f(c), e.f(d))));
  };
  SmallVector<Value, 8> p, q;
  for (int j = 0; j < 8; ++j) {
    p.push_back(pick(kSmall.p[j], kNearOne.p[j], kMiddle.p[j], kTail.p[j]));
    q.push_back(pick(kSmall.q[j], kNearOne.q[j], kMiddle.q[j], kTail.q[j]));
  }
  Value r = e.div(e.horner(t, p), e.fma(t, e.horner(t, q), e.f(1)));

  // erf = 1 - erfc: erfc is below 0.078 there, so the rounding of -x^2
  // in the exponent (relative error up to 36 ulp of erfc at |x| = 6)
  // costs erf less than half an ulp.
  Value erfc = e.div(exp(e, e.fma(e.mul(ax, e.f(-1)), ax,
                                  e.add(r, e.f(-0.5625)))),
                     ax);
  // Unordered-less-than: NaN takes the erfc path, which keeps it; from 6 on
  // (infinity included) erf rounds to 1.
  Value beyondOne = e.select(e.cmp(Pred::ULT, ax, e.f(6)),
                             e.sub(e.f(1), erfc), e.f(1));
  Value magnitude = e.select(nearOne, e.add(e.f(kErx), r), beyondOne);
  return e.select(small, e.fma(x, r, x), e.copySign(magnitude, x));
}
