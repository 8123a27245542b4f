//===- Elementwise.cpp - Arithmetic, math, cmp, select and cast -----------===//
//
// Floating-point elements are computed in double and rounded once to the
// element type. For +, -, *, / and sqrt that is exactly the result of
// computing in the element type (or, for f16/bf16, in float and rounding):
// double has more than twice the precision of float plus two bits, so the
// double rounding is innocuous. Transcendental functions are only more
// accurate. Integers use 64-bit arithmetic that wraps around like compiled
// code does; division by zero is an error. Complex elements: Complex.cpp.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

namespace {
enum class BinaryKind { Add, Sub, Mul, Div, Pow, Max, Min, Atan2 };
enum class UnaryKind {
  Neg, Exp, Log, Log1p, Expm1, Tanh, Sigmoid, Relu, Sqrt, Rsqrt, Abs, Sign,
  Sin, Cos, Erf
};
} // namespace

static double floatBinary(BinaryKind kind, double a, double b) {
  switch (kind) {
  case BinaryKind::Add:
    return a + b;
  case BinaryKind::Sub:
    return a - b;
  case BinaryKind::Mul:
    return a * b;
  case BinaryKind::Div:
    return a / b;
  case BinaryKind::Pow:
    return std::pow(a, b);
  case BinaryKind::Atan2:
    return std::atan2(a, b);
  case BinaryKind::Max:
  case BinaryKind::Min:
    // NaN propagates, as in NumPy's maximum/minimum.
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return kind == BinaryKind::Max ? std::max(a, b) : std::min(a, b);
  }
  return 0;
}

static int64_t intBinary(Operation *op, BinaryKind kind, int64_t a,
                         int64_t b) {
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  switch (kind) {
  case BinaryKind::Add:
    return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  case BinaryKind::Sub:
    return wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  case BinaryKind::Mul:
    return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  case BinaryKind::Div:
    if (b == 0)
      fail(op, "integer division by zero");
    if (b == -1) // INT64_MIN / -1 overflows; wrap like the hardware would.
      return wrap(0 - static_cast<uint64_t>(a));
    return a / b; // C++ truncates toward zero.
  case BinaryKind::Max:
    return std::max(a, b);
  case BinaryKind::Min:
    return std::min(a, b);
  case BinaryKind::Pow:
  case BinaryKind::Atan2:
    break;
  }
  fail(op, "expected a floating-point tensor");
}

static Tensor evalBinary(Operation *op, BinaryKind kind,
                         ArrayRef<Tensor> operands) {
  const Tensor &a = operands[0], &b = operands[1];
  requireSameDType(op, operands);
  if (kind == BinaryKind::Pow || kind == BinaryKind::Atan2)
    requireFloat(op, a);
  if (a.dtype() == DType::I1) {
    if (kind != BinaryKind::Max && kind != BinaryKind::Min)
      requireNotBool(op, a);
    bool isMax = kind == BinaryKind::Max;
    return mapBinary<bool, bool>(op, a, b, DType::I1, [&](bool x, bool y) {
      return isMax ? (x || y) : (x && y);
    });
  }
  return dispatch(a.dtype(), [&](auto tag) -> Tensor {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>)
      return mapBinary<T, T>(op, a, b, a.dtype(), [&](T x, T y) {
        return fromDouble<T>(floatBinary(kind, toDouble(x), toDouble(y)));
      });
    else
      return mapBinary<T, T>(op, a, b, a.dtype(), [&](T x, T y) {
        return static_cast<T>(intBinary(op, kind, x, y));
      });
  });
}

static double floatUnary(UnaryKind kind, double x) {
  switch (kind) {
  case UnaryKind::Neg:
    return -x;
  case UnaryKind::Exp:
    return std::exp(x);
  case UnaryKind::Log:
    return std::log(x);
  case UnaryKind::Log1p:
    return std::log1p(x);
  case UnaryKind::Expm1:
    return std::expm1(x);
  case UnaryKind::Tanh:
    return std::tanh(x);
  case UnaryKind::Sigmoid:
    return 1 / (1 + std::exp(-x));
  case UnaryKind::Relu:
    return std::isnan(x) ? x : std::max(x, 0.0);
  case UnaryKind::Sqrt:
    return std::sqrt(x);
  case UnaryKind::Rsqrt:
    return 1 / std::sqrt(x);
  case UnaryKind::Abs:
    return std::fabs(x);
  case UnaryKind::Sign:
    return std::isnan(x) ? x : (x > 0) - (x < 0);
  case UnaryKind::Sin:
    return std::sin(x);
  case UnaryKind::Cos:
    return std::cos(x);
  case UnaryKind::Erf:
    return std::erf(x);
  }
  return 0;
}

static int64_t intUnary(UnaryKind kind, int64_t x) {
  switch (kind) {
  case UnaryKind::Neg:
    return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
  case UnaryKind::Relu:
    return std::max<int64_t>(x, 0);
  case UnaryKind::Abs:
    return x < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x;
  case UnaryKind::Sign:
    return (x > 0) - (x < 0);
  default:
    return 0; // Unreachable: float-only kinds are rejected before.
  }
}

static Tensor evalUnary(Operation *op, UnaryKind kind, const Tensor &x) {
  bool anyType = kind == UnaryKind::Neg || kind == UnaryKind::Relu ||
                 kind == UnaryKind::Abs || kind == UnaryKind::Sign;
  if (!anyType)
    requireFloat(op, x);
  requireNotBool(op, x);
  Tensor out(x.dtype(), x.shape());
  dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *in = ptr<T>(x);
    T *o = ptr<T>(out);
    for (int64_t i = 0, n = x.numel(); i < n; ++i) {
      if constexpr (kIsFloat<T>)
        o[i] = fromDouble<T>(floatUnary(kind, toDouble(in[i])));
      else
        o[i] = static_cast<T>(intUnary(kind, in[i]));
    }
  });
  return out;
}

static Tensor evalCmp(adj::CmpOp op, ArrayRef<Tensor> operands) {
  requireSameDType(op, operands);
  adj::CmpPredicate pred = op.getPredicate();
  auto compare = [pred](auto a, auto b) -> bool {
    switch (pred) {
    case adj::CmpPredicate::eq:
      return a == b;
    case adj::CmpPredicate::ne:
      return a != b;
    case adj::CmpPredicate::lt:
      return a < b;
    case adj::CmpPredicate::le:
      return a <= b;
    case adj::CmpPredicate::gt:
      return a > b;
    case adj::CmpPredicate::ge:
      return a >= b;
    }
    return false;
  };
  return dispatch(operands[0].dtype(), [&](auto tag) -> Tensor {
    using T = typename decltype(tag)::type;
    return mapBinary<T, bool>(op, operands[0], operands[1], DType::I1,
                              [&](T a, T b) {
                                if constexpr (kIsFloat<T>)
                                  return compare(toDouble(a), toDouble(b));
                                else
                                  return compare(int64_t(a), int64_t(b));
                              });
  });
}

static Tensor evalSelect(Operation *op, ArrayRef<Tensor> operands) {
  const Tensor &c = operands[0], &a = operands[1], &b = operands[2];
  if (c.dtype() != DType::I1)
    fail(op, "the condition must be i1, got " + c.typeString());
  requireSameDType(op, operands.drop_front());
  std::vector<int64_t> shape = broadcastOrFail(op, {&c, &a, &b});
  Tensor out(a.dtype(), shape);
  IndexWalker walk(shape, {broadcastStrides(c.shape(), shape),
                           broadcastStrides(a.shape(), shape),
                           broadcastStrides(b.shape(), shape)});
  dispatchAny(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const bool *pc = ptr<bool>(c);
    const T *pa = ptr<T>(a), *pb = ptr<T>(b);
    T *po = ptr<T>(out);
    for (int64_t i = 0, n = out.numel(); i < n; ++i, walk.next())
      po[i] = pc[walk.offset(0)] ? pa[walk.offset(1)] : pb[walk.offset(2)];
  });
  return out;
}

static Tensor evalCast(Operation *op, const Tensor &x) {
  DType to = resultDType(op);
  Tensor out(to, x.shape());
  dispatch(x.dtype(), [&](auto fromTag) {
    using From = typename decltype(fromTag)::type;
    dispatch(to, [&](auto toTag) {
      using To = typename decltype(toTag)::type;
      const From *in = ptr<From>(x);
      To *o = ptr<To>(out);
      for (int64_t i = 0, n = x.numel(); i < n; ++i) {
        if constexpr (kIsFloat<From>)
          o[i] = fromDouble<To>(toDouble(in[i]));
        else
          o[i] = fromInt<To>(static_cast<int64_t>(in[i]));
      }
    });
  });
  return out;
}

std::optional<Tensor> adjoint::interp::detail::evalElementwise(Operation *op,
                                              ArrayRef<Tensor> operands) {
  if (std::optional<Tensor> out = evalComplex(op, operands))
    return out;
  // One row per op: its kernel is the kind's case in floatBinary/intBinary
  // or floatUnary/intUnary (and its complex one in Complex.cpp).
  static const llvm::DenseMap<TypeID, BinaryKind> binaryKinds = {
      {TypeID::get<adj::AddOp>(), BinaryKind::Add},
      {TypeID::get<adj::SubOp>(), BinaryKind::Sub},
      {TypeID::get<adj::MulOp>(), BinaryKind::Mul},
      {TypeID::get<adj::DivOp>(), BinaryKind::Div},
      {TypeID::get<adj::PowOp>(), BinaryKind::Pow},
      {TypeID::get<adj::MaximumOp>(), BinaryKind::Max},
      {TypeID::get<adj::MinimumOp>(), BinaryKind::Min},
      {TypeID::get<adj::Atan2Op>(), BinaryKind::Atan2}};
  static const llvm::DenseMap<TypeID, UnaryKind> unaryKinds = {
      {TypeID::get<adj::NegOp>(), UnaryKind::Neg},
      {TypeID::get<adj::ExpOp>(), UnaryKind::Exp},
      {TypeID::get<adj::LogOp>(), UnaryKind::Log},
      {TypeID::get<adj::Log1pOp>(), UnaryKind::Log1p},
      {TypeID::get<adj::Expm1Op>(), UnaryKind::Expm1},
      {TypeID::get<adj::TanhOp>(), UnaryKind::Tanh},
      {TypeID::get<adj::SigmoidOp>(), UnaryKind::Sigmoid},
      {TypeID::get<adj::ReluOp>(), UnaryKind::Relu},
      {TypeID::get<adj::SqrtOp>(), UnaryKind::Sqrt},
      {TypeID::get<adj::RsqrtOp>(), UnaryKind::Rsqrt},
      {TypeID::get<adj::AbsOp>(), UnaryKind::Abs},
      {TypeID::get<adj::SignOp>(), UnaryKind::Sign},
      {TypeID::get<adj::SinOp>(), UnaryKind::Sin},
      {TypeID::get<adj::CosOp>(), UnaryKind::Cos},
      {TypeID::get<adj::ErfOp>(), UnaryKind::Erf}};
  TypeID id = op->getName().getTypeID();
  if (auto it = binaryKinds.find(id); it != binaryKinds.end())
    return evalBinary(op, it->second, operands);
  if (auto it = unaryKinds.find(id); it != unaryKinds.end())
    return evalUnary(op, it->second, operands[0]);
  if (auto cmp = dyn_cast<adj::CmpOp>(op))
    return evalCmp(cmp, operands);
  if (isa<adj::SelectOp>(op))
    return evalSelect(op, operands);
  if (isa<adj::CastOp>(op))
    return evalCast(op, operands[0]);
  return std::nullopt;
}
