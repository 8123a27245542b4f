//===- Elementwise.cpp - Rules of the elementwise primitives --------------===//
//
// Binary ops broadcast, so each operand's sensitivity is summed back to its
// shape (unbroadcast) and a lone tangent is broadcast to the result's.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "mlir/IR/Matchers.h"

#include <numbers>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

using Ts = ArrayRef<Val>;

/// Whether a rule may skip the sensitivity of `v`: a constant exponent is
/// never asked for, and pow's is expensive (a log and a select).
static bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

static bool isComplex(Val x) {
  return isa<ComplexType>(x.type().getElementType());
}

/// log(x) where x > 0 and 0 elsewhere, built so that its own derivative is
/// finite everywhere (log of a select, not a select of a log). Complex x has
/// a logarithm everywhere but at 0, where it is taken as 0 (JAX's rule).
static Val safeLog(Emitter &e, Val x) {
  Val one = e.scalarLike(1, x), zero = e.scalarLike(0, x);
  if (isComplex(x))
    return e.log(e.select(e.cmp(CmpPredicate::eq, x, zero), one, x));
  Val positive = e.cmp(CmpPredicate::gt, x, zero);
  return e.log(e.select(positive, x, one));
}

/// d|z| = Re(c dz) with c = conj(z) / |z| (0 at z = 0, as in JAX): the
/// factor c, complex.
static Val modulusFactor(Emitter &e, Val z, Val modulus) {
  // |z| = 0 only where both parts are 0: dividing them by 1 there gives 0.
  Val atZero = e.cmp(CmpPredicate::eq, modulus, e.scalarLike(0, modulus));
  Val safe = e.select(atZero, e.scalarLike(1, modulus), modulus);
  return e.complex(e.real(z) / safe, -(e.imag(z) / safe));
}

/// The share of max/min's sensitivity that goes to `self`: 1 where it alone
/// equals the result `y`, 0.5 where both operands do (a tie), 0 elsewhere
/// (and where y is NaN). Splitting ties evenly is JAX's convention; it
/// makes d max(x, x) = 1 and keeps the rule symmetric in its operands.
static Val tieShare(Emitter &e, Val self, Val other, Val y) {
  Val picked = e.cmp(CmpPredicate::eq, self, y);
  Val tie = e.cmp(CmpPredicate::eq, other, y);
  return e.select(picked,
                  e.select(tie, e.scalarLike(0.5, y), e.scalarLike(1, y)),
                  e.scalarLike(0, y));
}

/// A unary op whose derivative is `dy * f'`: the same factor serves both
/// modes, `deriv(e, x, y)` computing f' from the input and the result.
template <typename OpT, typename DerivFn>
static void defineUnary(RuleMap &m, DerivFn deriv) {
  define<OpT>(
      m,
      [deriv](Emitter &e, OpT op, Val dy) -> Sens {
        return {dy * deriv(e, e.val(op.getInput()), e.val(op.getResult()))};
      },
      [deriv](Emitter &e, OpT op, Ts t) -> Val {
        return t[0] * deriv(e, e.val(op.getInput()), e.val(op.getResult()));
      });
}

/// Min and max route the sensitivity to the operand they picked, half to
/// each on ties (tieShare).
template <typename OpT> static void defineMinMax(RuleMap &m) {
  define<OpT>(
      m,
      [](Emitter &e, OpT op, Val dy) -> Sens {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        Val y = e.val(op.getResult());
        return {e.unbroadcast(dy * tieShare(e, a, b, y), a),
                e.unbroadcast(dy * tieShare(e, b, a, y), b)};
      },
      [](Emitter &e, OpT op, Ts t) -> Val {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        Val y = e.val(op.getResult());
        return e.sum({t[0] ? t[0] * tieShare(e, a, b, y) : Val(),
                      t[1] ? t[1] * tieShare(e, b, a, y) : Val()},
                     op.getType());
      });
}

void adjoint::ad::rules::addElementwiseRules(RuleMap &m) {
  define<AddOp>(
      m,
      [](Emitter &e, AddOp op, Val dy) -> Sens {
        return {e.unbroadcast(dy, op.getLhs()), e.unbroadcast(dy, op.getRhs())};
      },
      [](Emitter &e, AddOp op, Ts t) { return e.sum(t, op.getType()); });

  define<SubOp>(
      m,
      [](Emitter &e, SubOp op, Val dy) -> Sens {
        return {e.unbroadcast(dy, op.getLhs()),
                e.unbroadcast(-dy, op.getRhs())};
      },
      [](Emitter &e, SubOp op, Ts t) -> Val {
        if (!t[1])
          return e.broadcastTo(t[0], op.getType());
        return t[0] ? e.broadcastTo(t[0] - t[1], op.getType())
                    : e.broadcastTo(-t[1], op.getType());
      });

  define<MulOp>(
      m,
      [](Emitter &e, MulOp op, Val dy) -> Sens {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        return {e.unbroadcast(dy * b, a), e.unbroadcast(dy * a, b)};
      },
      [](Emitter &e, MulOp op, Ts t) {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        return e.sum({t[0] ? t[0] * b : Val(), t[1] ? a * t[1] : Val()},
                     op.getType());
      });

  // y = a / b: da = dy / b, db = -dy * a / b^2 = -dy * y / b.
  define<DivOp>(
      m,
      [](Emitter &e, DivOp op, Val dy) -> Sens {
        Val b = e.val(op.getRhs()), y = e.val(op.getResult());
        Val da = dy / b;
        return {e.unbroadcast(da, op.getLhs()), e.unbroadcast(-(da * y), b)};
      },
      [](Emitter &e, DivOp op, Ts t) -> Val {
        Val b = e.val(op.getRhs()), y = e.val(op.getResult());
        Val num = t[0] ? (t[1] ? t[0] - t[1] * y : t[0]) : -(t[1] * y);
        return e.broadcastTo(num / b, op.getType());
      });

  // y = x^p: dx = dy * p * x^(p-1), dp = dy * y * log(x). The log is taken
  // of x where x > 0 and of 1 elsewhere, so dp is 0 (not nan) for x <= 0,
  // where x^p is only defined for integral p and constant in p; going
  // through a select also keeps second derivatives finite.
  define<PowOp>(
      m,
      [](Emitter &e, PowOp op, Val dy) -> Sens {
        Val x = e.val(op.getLhs()), p = e.val(op.getRhs());
        Val dx = e.unbroadcast(dy * p * e.pow(x, p - 1.0), x);
        if (isConstant(p))
          return {dx, Val()};
        Val dp = dy * e.val(op.getResult()) * safeLog(e, x);
        return {dx, e.unbroadcast(dp, p)};
      },
      [](Emitter &e, PowOp op, Ts t) {
        Val x = e.val(op.getLhs()), p = e.val(op.getRhs());
        Val y = e.val(op.getResult());
        return e.sum({t[0] ? t[0] * p * e.pow(x, p - 1.0) : Val(),
                      t[1] ? t[1] * y * safeLog(e, x) : Val()},
                     op.getType());
      });

  defineMinMax<MaximumOp>(m);
  defineMinMax<MinimumOp>(m);

  // y = atan2(a, b): da = b / (a^2 + b^2), db = -a / (a^2 + b^2); NaN at the
  // origin, as in JAX.
  define<Atan2Op>(
      m,
      [](Emitter &e, Atan2Op op, Val dy) -> Sens {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        Val g = dy / (a * a + b * b);
        return {e.unbroadcast(g * b, a), e.unbroadcast(-(g * a), b)};
      },
      [](Emitter &e, Atan2Op op, Ts t) -> Val {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        Val num = t[0] ? (t[1] ? t[0] * b - t[1] * a : t[0] * b) : -(t[1] * a);
        return e.broadcastTo(num / (a * a + b * b), op.getType());
      });

  define<NegOp>(
      m, [](Emitter &, NegOp, Val dy) -> Sens { return {-dy}; },
      [](Emitter &, NegOp, Ts t) -> Val { return -t[0]; });

  defineUnary<ExpOp>(m, [](Emitter &, Val, Val y) { return y; });
  defineUnary<LogOp>(m, [](Emitter &, Val x, Val) { return 1.0 / x; });
  defineUnary<Log1pOp>(m,
                       [](Emitter &, Val x, Val) { return 1.0 / (x + 1.0); });
  defineUnary<Expm1Op>(m, [](Emitter &, Val, Val y) { return y + 1.0; });
  defineUnary<TanhOp>(m, [](Emitter &, Val, Val y) { return 1.0 - y * y; });
  defineUnary<SigmoidOp>(m,
                         [](Emitter &, Val, Val y) { return y * (1.0 - y); });
  defineUnary<SqrtOp>(m, [](Emitter &, Val, Val y) { return 0.5 / y; });
  defineUnary<RsqrtOp>(
      m, [](Emitter &, Val, Val y) { return -0.5 * (y * y * y); });
  // |x|' = sign(x) on reals. On complex z the tangent is Re(c dz) and the
  // cotangent of a real dy is dy * c, with JAX's pairing Re(a b) of
  // complex cotangents and tangents (no conjugation: vjps are transposes).
  define<AbsOp>(
      m,
      [](Emitter &e, AbsOp op, Val dy) -> Sens {
        Val x = e.val(op.getInput());
        if (!isComplex(x))
          return {dy * e.sign(x)};
        Val c = modulusFactor(e, x, e.val(op.getResult()));
        return {e.cast(dy, x.type().getElementType()) * c};
      },
      [](Emitter &e, AbsOp op, Ts t) -> Val {
        Val x = e.val(op.getInput());
        if (!isComplex(x))
          return t[0] * e.sign(x);
        return e.real(modulusFactor(e, x, e.val(op.getResult())) * t[0]);
      });

  // The parts are real-linear: real(dz), imag(dz), and their transposes
  // under Re(a b): real's cotangent dy is dy + 0i, imag's is -i dy.
  define<RealOp>(
      m,
      [](Emitter &e, RealOp op, Val dy) -> Sens {
        return {e.cast(dy, elementOf(op.getInput()))};
      },
      [](Emitter &e, RealOp, Ts t) -> Val { return e.real(t[0]); });
  define<ImagOp>(
      m,
      [](Emitter &e, ImagOp, Val dy) -> Sens {
        return {e.complex(e.scalarLike(0, dy), -dy)};
      },
      [](Emitter &e, ImagOp, Ts t) -> Val { return e.imag(t[0]); });
  // z = re + i im: Re(dz_bar (dre + i dim)) gives real(dz) and -imag(dz).
  define<ComplexOp>(
      m,
      [](Emitter &e, ComplexOp op, Val dy) -> Sens {
        return {e.unbroadcast(e.real(dy), op.getRe()),
                e.unbroadcast(-e.imag(dy), op.getIm())};
      },
      [](Emitter &e, ComplexOp op, Ts t) -> Val {
        Type part = elementOf(op.getRe());
        Val re = t[0] ? t[0] : e.scalar(0, part);
        Val im = t[1] ? t[1] : e.scalar(0, part);
        return e.broadcastTo(e.complex(re, im), op.getType());
      });
  defineUnary<SinOp>(m, [](Emitter &e, Val x, Val) { return e.cos(x); });
  defineUnary<CosOp>(m, [](Emitter &e, Val x, Val) { return -e.sin(x); });
  defineUnary<ErfOp>(m, [](Emitter &e, Val x, Val) {
    return (2 / std::sqrt(std::numbers::pi)) * e.exp(-(x * x));
  });

  // relu' is the indicator of x > 0 (0 at the kink, like PyTorch).
  define<ReluOp>(
      m,
      [](Emitter &e, ReluOp op, Val dy) -> Sens {
        Val x = e.val(op.getInput());
        return {e.where(e.cmp(CmpPredicate::gt, x, e.scalarLike(0, x)), dy)};
      },
      [](Emitter &e, ReluOp op, Ts t) -> Val {
        Val x = e.val(op.getInput());
        return e.where(e.cmp(CmpPredicate::gt, x, e.scalarLike(0, x)), t[0]);
      });

  defineZero<SignOp>(m);
  defineZero<CmpOp>(m);

  // The i1 condition has no sensitivity.
  define<SelectOp>(
      m,
      [](Emitter &e, SelectOp op, Val dy) -> Sens {
        Val c = e.val(op.getCondition());
        return {Val(), e.unbroadcast(e.where(c, dy), op.getLhs()),
                e.unbroadcast(e.whereNot(c, dy), op.getRhs())};
      },
      [](Emitter &e, SelectOp op, Ts t) -> Val {
        Val zero = e.scalar(0, elementOf(op));
        return e.broadcastTo(e.select(e.val(op.getCondition()),
                                      t[1] ? t[1] : zero, t[2] ? t[2] : zero),
                             op.getType());
      });

  // Float to float casts back; from or to integers there is no derivative
  // (the wrapper already drops integer results and operands).
  define<CastOp>(
      m,
      [](Emitter &e, CastOp op, Val dy) -> Sens {
        return {e.cast(dy, elementOf(op.getInput()))};
      },
      [](Emitter &e, CastOp op, Ts t) -> Val {
        return e.cast(t[0], elementOf(op));
      });
}
