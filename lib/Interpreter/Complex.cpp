//===- Complex.cpp - Elementwise ops on complex elements ------------------===//
//
// The complex side of the Elementwise family: adj.complex, adj.real,
// adj.imag, and the arithmetic, math, cmp and cast ops when an operand or
// the result is complex. c64 is computed in complex<double> and rounded
// once per part, as the real kernels compute f32 in double. The functions
// follow C99 Annex G (std::complex), with log1p and expm1 written so that
// they stay exact for tiny arguments.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

using C = std::complex<double>;

template <typename T> static C widen(T z) {
  return C(static_cast<double>(z.real()), static_cast<double>(z.imag()));
}

template <typename T> static T narrow(C z) {
  using Part = typename T::value_type;
  return T(static_cast<Part>(z.real()), static_cast<Part>(z.imag()));
}

/// A kernel's value `v` (complex<double>, double or bool) as an element of
/// storage type `R`. Real results of complex values are unreachable: each
/// kernel returns the kind its result type has.
template <typename R, typename V> static R store(V v) {
  if constexpr (kIsComplex<R>)
    return narrow<R>(C(v));
  else if constexpr (std::is_same_v<V, C>)
    return fromDouble<R>(v.real());
  else
    return fromDouble<R>(static_cast<double>(v));
}

/// Applies `f` to the complex<double> values of `x` into a tensor of
/// `resultType`.
template <typename F>
static Tensor mapUnary(const Tensor &x, DType resultType, F f) {
  Tensor out(resultType, x.shape());
  dispatchComplex(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *in = ptr<T>(x);
    dispatchAny(resultType, [&](auto rtag) {
      using R = typename decltype(rtag)::type;
      R *o = ptr<R>(out);
      for (int64_t i = 0, n = x.numel(); i < n; ++i)
        o[i] = store<R>(f(widen(in[i])));
    });
  });
  return out;
}

/// log(1 + z), exact for tiny z: the real part is
/// log|1 + z| = log1p(x) + log1p((y / (1 + x))^2) / 2.
static C log1pComplex(C z) {
  double x = z.real(), y = z.imag();
  if (std::abs(x) >= 0.5 || std::abs(y) >= 0.5 || std::isnan(x) ||
      std::isnan(y))
    return std::log(1.0 + z);
  double t = y / (1 + x);
  return C(std::log1p(x) + std::log1p(t * t) / 2, std::atan2(y, 1 + x));
}

/// e^z - 1, exact for tiny z: e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y/2).
static C expm1Complex(C z) {
  double x = z.real(), y = z.imag();
  double s = std::sin(y / 2);
  return C(std::expm1(x) * std::cos(y) - 2 * s * s, std::exp(x) * std::sin(y));
}

/// z^w with NumPy's special cases at z = 0 (0^0 = 1, 0^w = 0 for Re w > 0);
/// exp(w log z) elsewhere.
static C powComplex(C z, C w) {
  if (z == C(0, 0)) {
    if (w == C(0, 0))
      return C(1, 0);
    if (w.imag() == 0 && w.real() > 0)
      return C(0, 0);
  }
  return std::exp(w * std::log(z));
}

/// z / |z|, and 0 at 0 (NumPy 2's and JAX's sign).
static C signComplex(C z) {
  double m = std::abs(z);
  return m == 0 ? C(0, 0) : z / m;
}

static std::optional<Tensor> evalUnary(Operation *op, const Tensor &x) {
  auto same = [&](auto f) { return mapUnary(x, x.dtype(), f); };
  if (isa<adj::NegOp>(op))
    return same([](C z) { return -z; });
  if (isa<adj::ExpOp>(op))
    return same([](C z) { return std::exp(z); });
  if (isa<adj::LogOp>(op))
    return same([](C z) { return std::log(z); });
  if (isa<adj::Log1pOp>(op))
    return same(log1pComplex);
  if (isa<adj::Expm1Op>(op))
    return same(expm1Complex);
  if (isa<adj::TanhOp>(op))
    return same([](C z) { return std::tanh(z); });
  if (isa<adj::SqrtOp>(op))
    return same([](C z) { return std::sqrt(z); });
  if (isa<adj::RsqrtOp>(op))
    return same([](C z) { return 1.0 / std::sqrt(z); });
  if (isa<adj::SinOp>(op))
    return same([](C z) { return std::sin(z); });
  if (isa<adj::CosOp>(op))
    return same([](C z) { return std::cos(z); });
  if (isa<adj::SignOp>(op))
    return same(signComplex);
  if (isa<adj::AbsOp>(op))
    return mapUnary(x, realPart(x.dtype()), [](C z) { return std::abs(z); });
  if (isa<adj::RealOp>(op))
    return mapUnary(x, realPart(x.dtype()), [](C z) { return z.real(); });
  if (isa<adj::ImagOp>(op))
    return mapUnary(x, realPart(x.dtype()), [](C z) { return z.imag(); });
  return std::nullopt;
}

/// `f` over two complex tensors of one dtype, in complex<double>, into
/// `resultType`'s elements (complex, or i1 for the comparisons).
template <typename F>
static Tensor mapComplexBinary(Operation *op, const Tensor &a,
                               const Tensor &b, DType resultType, F f) {
  return dispatchComplex(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return dispatchAny(resultType, [&](auto rtag) {
      using R = typename decltype(rtag)::type;
      return mapBinary<T, R>(op, a, b, resultType, [&](T x, T y) {
        return store<R>(f(widen(x), widen(y)));
      });
    });
  });
}

static std::optional<Tensor> evalBinary(Operation *op,
                                        ArrayRef<Tensor> operands) {
  const Tensor &a = operands[0], &b = operands[1];
  auto same = [&](auto f) { return mapComplexBinary(op, a, b, a.dtype(), f); };
  if (isa<adj::AddOp>(op))
    return same([](C x, C y) { return x + y; });
  if (isa<adj::SubOp>(op))
    return same([](C x, C y) { return x - y; });
  if (isa<adj::MulOp>(op))
    return same([](C x, C y) { return x * y; });
  if (isa<adj::DivOp>(op))
    return same([](C x, C y) { return x / y; });
  if (isa<adj::PowOp>(op))
    return same(powComplex);
  if (auto cmp = dyn_cast<adj::CmpOp>(op)) {
    bool eq = cmp.getPredicate() == adj::CmpPredicate::eq;
    if (!eq && cmp.getPredicate() != adj::CmpPredicate::ne)
      fail(op, "complex numbers are not ordered: only eq and ne compare them");
    return mapComplexBinary(op, a, b, DType::I1,
                            [eq](C x, C y) { return (x == y) == eq; });
  }
  return std::nullopt;
}

static Tensor evalMake(Operation *op, ArrayRef<Tensor> operands) {
  const Tensor &re = operands[0], &im = operands[1];
  requireSameDType(op, operands);
  if (re.dtype() != DType::F32 && re.dtype() != DType::F64)
    fail(op, "expected f32 or f64 parts, got " + re.typeString());
  DType to = re.dtype() == DType::F32 ? DType::C64 : DType::C128;
  return dispatchComplex(to, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Part = typename T::value_type;
    return mapBinary<Part, T>(op, re, im, to,
                              [](Part x, Part y) { return T(x, y); });
  });
}

/// Casts that involve a complex type: complex to complex rounds each part;
/// complex to real converts the real part (i1: z != 0); real to complex has
/// a zero imaginary part.
static Tensor evalCast(Operation *op, const Tensor &x) {
  DType to = resultDType(op);
  if (isComplex(x.dtype())) {
    if (to == DType::I1)
      return mapUnary(x, to, [](C z) { return z != C(0, 0) ? 1.0 : 0.0; });
    if (isComplex(to))
      return mapUnary(x, to, [](C z) { return z; });
    return mapUnary(x, to, [](C z) { return z.real(); });
  }
  // Integers convert as a cast to f64 does (exactly up to 2^53).
  std::vector<double> values = elementsAs<double>(x);
  Tensor out(to, x.shape());
  dispatchComplex(to, [&](auto tag) {
    using R = typename decltype(tag)::type;
    R *o = ptr<R>(out);
    for (size_t i = 0; i < values.size(); ++i)
      o[i] = narrow<R>(C(values[i], 0));
  });
  return out;
}

std::optional<Tensor>
adjoint::interp::detail::evalComplex(Operation *op,
                                     ArrayRef<Tensor> operands) {
  if (isa<adj::ComplexOp>(op))
    return evalMake(op, operands);
  if (isa<adj::CastOp>(op)) {
    if (!isComplex(operands[0].dtype()) && !isComplex(resultDType(op)))
      return std::nullopt;
    return evalCast(op, operands[0]);
  }
  if (isa<adj::RealOp, adj::ImagOp>(op) && !isComplex(operands[0].dtype()))
    fail(op, "expected a complex tensor, got " + operands[0].typeString());
  bool anyComplex = llvm::any_of(
      operands, [](const Tensor &t) { return isComplex(t.dtype()); });
  // select moves elements of any type; the other families decide for
  // themselves.
  if (!anyComplex || isa<adj::SelectOp>(op))
    return std::nullopt;
  std::optional<Tensor> out;
  if (operands.size() == 1) {
    out = evalUnary(op, operands[0]);
  } else if (operands.size() == 2) {
    requireSameDType(op, operands);
    out = evalBinary(op, operands);
  }
  if (!out && isa<adj::MaximumOp, adj::MinimumOp, adj::Atan2Op, adj::SigmoidOp,
                  adj::ReluOp, adj::ErfOp>(op))
    fail(op, "complex tensors are not supported, got " +
                 operands[0].typeString());
  return out;
}
