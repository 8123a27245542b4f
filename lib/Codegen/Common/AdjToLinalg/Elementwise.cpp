//===- Elementwise.cpp - adj elementwise ops to linalg.generic ------------===//
//
// Every elementwise op becomes one linalg.generic whose indexing maps encode
// NumPy broadcasting, so no broadcast is materialized and later fusion sees
// plain parallel loops.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

Value lowering::buildElementwise(OpBuilder &b, Location loc,
                                 RankedTensorType resultType,
                                 ValueRange inputs, ScalarBuilder body) {
  int64_t rank = resultType.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    int64_t offset = rank - type.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      // A size-1 dimension against a larger one is read at index 0.
      if (type.getDimSize(i) == 1 && resultType.getDimSize(offset + i) != 1)
        exprs.push_back(getAffineConstantExpr(0, ctx));
      else
        exprs.push_back(getAffineDimExpr(offset + i, ctx));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

Value lowering::scalarConstant(OpBuilder &b, Location loc, Type type,
                               double value) {
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    Type part = complexType.getElementType();
    return complex::ConstantOp::create(
        b, loc, complexType,
        b.getArrayAttr({b.getFloatAttr(part, value), b.getFloatAttr(part, 0)}));
  }
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, value));
  // i1 is a truth value: any non-zero double is true.
  if (type.isInteger(1))
    return arith::ConstantOp::create(b, loc,
                                     b.getIntegerAttr(type, value != 0.0));
  // The attributes hold doubles: convert them as adj.cast would (a plain
  // static_cast is undefined for 1e30 or NaN).
  int64_t converted = type.isInteger(32) ? saturatingFloatToInt<int32_t>(value)
                                         : saturatingFloatToInt<int64_t>(value);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, converted));
}

/// Float to signed integer as adj.cast converts everywhere (see
/// adjoint/Support/CheckedSize.h): truncation toward zero, saturating at the
/// bounds, NaN -> 0. arith.fptosi alone is poison outside the range.
static Value floatToInt(OpBuilder &b, Location l, Value x, Type to) {
  // f16 cannot represent 2^31; bf16 and f16 widen exactly to f32.
  if (cast<FloatType>(x.getType()).getWidth() < 32)
    x = arith::ExtFOp::create(b, l, b.getF32Type(), x);
  Type from = x.getType();
  unsigned width = to.getIntOrFloatBitWidth();
  // -2^(width-1) and 2^(width-1), exact in f32 and f64.
  double bound = std::ldexp(1.0, static_cast<int>(width) - 1);
  Value lo = scalarConstant(b, l, from, -bound);
  Value hi = scalarConstant(b, l, from, bound);
  Value zero = scalarConstant(b, l, from, 0);
  // Ordered compares are false on NaN, so NaN converts 0.0 below.
  Value below = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, lo);
  Value above = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, x, hi);
  Value inRange = arith::AndIOp::create(
      b, l, arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGE, x, lo),
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, hi));
  Value safe = arith::SelectOp::create(b, l, inRange, x, zero);
  Value result = arith::FPToSIOp::create(b, l, to, safe);
  APInt min = APInt::getSignedMinValue(width);
  APInt max = APInt::getSignedMaxValue(width);
  result = arith::SelectOp::create(
      b, l, above, arith::ConstantOp::create(b, l, b.getIntegerAttr(to, max)),
      result);
  return arith::SelectOp::create(
      b, l, below, arith::ConstantOp::create(b, l, b.getIntegerAttr(to, min)),
      result);
}

Value lowering::filledTensor(OpBuilder &b, Location loc,
                             RankedTensorType type, Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(),
                                        type.getElementType());
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

namespace {

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }
bool isComplex(Value v) { return isa<ComplexType>(v.getType()); }

/// `FloatOp` on float scalars, `IntOp` on integer ones, `ComplexOp` on
/// complex ones.
template <typename FloatOp, typename IntOp, typename ComplexOp = void>
Value floatOrInt(OpBuilder &b, Location l, Value x, Value y) {
  if constexpr (!std::is_void_v<ComplexOp>)
    if (isComplex(x))
      return ComplexOp::create(b, l, x, y);
  return isFloat(x) ? Value(FloatOp::create(b, l, x, y))
                    : Value(IntOp::create(b, l, x, y));
}


/// Scalar semantics of each elementwise adj op, on float or integer scalars.
struct Scalar {
  static Value add(OpBuilder &b, Location l, Value x, Value y) {
    return floatOrInt<arith::AddFOp, arith::AddIOp,
                      complex::AddOp>(b, l, x, y);
  }
  static Value sub(OpBuilder &b, Location l, Value x, Value y) {
    return floatOrInt<arith::SubFOp, arith::SubIOp,
                      complex::SubOp>(b, l, x, y);
  }
  static Value mul(OpBuilder &b, Location l, Value x, Value y) {
    return floatOrInt<arith::MulFOp, arith::MulIOp,
                      complex::MulOp>(b, l, x, y);
  }
  static Value div(OpBuilder &b, Location l, Value x, Value y) {
    // Integer division truncates toward zero, as the interpreter does.
    return floatOrInt<arith::DivFOp, arith::DivSIOp,
                      complex::DivOp>(b, l, x, y);
  }
  static Value pow(OpBuilder &b, Location l, Value x, Value y) {
    return floatOrInt<math::PowFOp, math::IPowIOp,
                      complex::PowOp>(b, l, x, y);
  }
  // Float only: type inference rejects integer operands.
  static Value atan2(OpBuilder &b, Location l, Value y, Value x) {
    return math::Atan2Op::create(b, l, y, x);
  }
  // On i1, true is 1 and max/min are or/and: unsigned, since signed i1
  // reads true as -1. On floats NaN propagates (maximumf, not maxnumf), as
  // in the interpreter and NumPy: a NaN must not vanish into a maximum.
  static Value max(OpBuilder &b, Location l, Value x, Value y) {
    if (x.getType().isInteger(1))
      return arith::MaxUIOp::create(b, l, x, y);
    return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(b, l, x, y);
  }
  static Value min(OpBuilder &b, Location l, Value x, Value y) {
    if (x.getType().isInteger(1))
      return arith::MinUIOp::create(b, l, x, y);
    return floatOrInt<arith::MinimumFOp, arith::MinSIOp>(b, l, x, y);
  }
  /// Sensitivities add; i1 ones (which carry no gradient) combine by `or`,
  /// as in the interpreter.
  static Value gradAdd(OpBuilder &b, Location l, Value x, Value y) {
    if (x.getType().isInteger(1))
      return arith::OrIOp::create(b, l, x, y);
    return add(b, l, x, y);
  }
  static Value neg(OpBuilder &b, Location l, Value x) {
    if (isComplex(x))
      return complex::NegOp::create(b, l, x);
    if (isFloat(x))
      return arith::NegFOp::create(b, l, x);
    return arith::SubIOp::create(b, l, scalarConstant(b, l, x.getType(), 0),
                                 x);
  }
  static Value abs(OpBuilder &b, Location l, Value x) {
    if (isComplex(x))
      return complex::AbsOp::create(b, l, x);
    return isFloat(x) ? Value(math::AbsFOp::create(b, l, x))
                      : Value(math::AbsIOp::create(b, l, x));
  }
  static Value relu(OpBuilder &b, Location l, Value x) {
    Value zero = scalarConstant(b, l, x.getType(), 0);
    if (!isFloat(x))
      return max(b, l, x, zero);
    // x < 0 ? 0 : x keeps NaN (the interpreter's relu) in a compare and a
    // select, cheaper than maximumf's NaN and signed-zero handling.
    Value negative =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, zero);
    return arith::SelectOp::create(b, l, negative, zero, x);
  }
  static Value sigmoid(OpBuilder &b, Location l, Value x) {
    Value one = scalarConstant(b, l, x.getType(), 1);
    Value e = math::ExpOp::create(b, l, arith::NegFOp::create(b, l, x));
    return arith::DivFOp::create(b, l, one, arith::AddFOp::create(b, l, one, e));
  }
  static Value sign(OpBuilder &b, Location l, Value x) {
    if (isComplex(x))
      return complex::SignOp::create(b, l, x);
    Type t = x.getType();
    Value zero = scalarConstant(b, l, t, 0);
    Value pos, negv;
    if (isFloat(x)) {
      pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, x, zero);
      negv = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, x, zero);
    } else {
      pos = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, x, zero);
      negv = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, zero);
    }
    Value r = arith::SelectOp::create(b, l, negv, scalarConstant(b, l, t, -1),
                                      zero);
    return arith::SelectOp::create(b, l, pos, scalarConstant(b, l, t, 1), r);
  }
  static Value cmp(OpBuilder &b, Location l, adj::CmpPredicate p, Value x,
                   Value y) {
    // Type inference admits eq and ne only on complex operands.
    if (isComplex(x))
      return p == adj::CmpPredicate::eq
                 ? Value(complex::EqualOp::create(b, l, x, y))
                 : Value(complex::NotEqualOp::create(b, l, x, y));
    if (isFloat(x)) {
      // Ordered predicates (false on NaN) except `ne`, which is true on NaN
      // as in C++ and NumPy.
      arith::CmpFPredicate fp;
      switch (p) {
      case adj::CmpPredicate::eq: fp = arith::CmpFPredicate::OEQ; break;
      case adj::CmpPredicate::ne: fp = arith::CmpFPredicate::UNE; break;
      case adj::CmpPredicate::lt: fp = arith::CmpFPredicate::OLT; break;
      case adj::CmpPredicate::le: fp = arith::CmpFPredicate::OLE; break;
      case adj::CmpPredicate::gt: fp = arith::CmpFPredicate::OGT; break;
      case adj::CmpPredicate::ge: fp = arith::CmpFPredicate::OGE; break;
      }
      return arith::CmpFOp::create(b, l, fp, x, y);
    }
    // i1 orders false < true: unsigned, since signed i1 reads true as -1.
    bool isBool = x.getType().isInteger(1);
    using P = arith::CmpIPredicate;
    auto order = [&](P signedP, P unsignedP) {
      return isBool ? unsignedP : signedP;
    };
    P ip = P::eq;
    switch (p) {
    case adj::CmpPredicate::eq: ip = P::eq; break;
    case adj::CmpPredicate::ne: ip = P::ne; break;
    case adj::CmpPredicate::lt: ip = order(P::slt, P::ult); break;
    case adj::CmpPredicate::le: ip = order(P::sle, P::ule); break;
    case adj::CmpPredicate::gt: ip = order(P::sgt, P::ugt); break;
    case adj::CmpPredicate::ge: ip = order(P::sge, P::uge); break;
    }
    return arith::CmpIOp::create(b, l, ip, x, y);
  }
  /// Element conversion with the interpreter's rules: float to integer
  /// truncates toward zero and saturates (NaN -> 0), anything to i1 tests
  /// for non-zero, i1 is 0 or 1.
  static Value cast(OpBuilder &b, Location l, Value x, Type to) {
    Type from = x.getType();
    if (from == to)
      return x;
    // Complex: to i1 tests z != 0; to another type converts the real part
    // (and the imaginary part to a complex type); from a real type the
    // imaginary part is 0.
    if (isa<ComplexType>(from) && to.isInteger(1))
      return complex::NotEqualOp::create(b, l, x,
                                         scalarConstant(b, l, from, 0));
    if (auto toC = dyn_cast<ComplexType>(to)) {
      Type part = toC.getElementType();
      if (isa<ComplexType>(from))
        return complex::CreateOp::create(
            b, l, toC, cast(b, l, complex::ReOp::create(b, l, x), part),
            cast(b, l, complex::ImOp::create(b, l, x), part));
      return complex::CreateOp::create(b, l, toC, cast(b, l, x, part),
                                       scalarConstant(b, l, part, 0));
    }
    if (isa<ComplexType>(from))
      return cast(b, l, complex::ReOp::create(b, l, x), to);
    auto fromF = dyn_cast<FloatType>(from);
    auto toF = dyn_cast<FloatType>(to);
    if (to.isInteger(1)) {
      Value zero = scalarConstant(b, l, from, 0);
      if (fromF)
        return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, x, zero);
      return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, x, zero);
    }
    if (fromF && toF) {
      if (fromF.getWidth() < toF.getWidth())
        return arith::ExtFOp::create(b, l, to, x);
      if (fromF.isF64())
        return roundFromF64(b, l, x, to);
      return arith::TruncFOp::create(b, l, to, x);
    }
    if (fromF)
      return floatToInt(b, l, x, to);
    if (toF)
      return from.isInteger(1) ? Value(arith::UIToFPOp::create(b, l, to, x))
                               : Value(arith::SIToFPOp::create(b, l, to, x));
    unsigned fromW = from.getIntOrFloatBitWidth();
    unsigned toW = to.getIntOrFloatBitWidth();
    if (fromW < toW)
      return from.isInteger(1) ? Value(arith::ExtUIOp::create(b, l, to, x))
                               : Value(arith::ExtSIOp::create(b, l, to, x));
    return arith::TruncIOp::create(b, l, to, x);
  }
};

} // namespace

Value lowering::addScalars(OpBuilder &b, Location l, Value x, Value y) {
  return Scalar::add(b, l, x, y);
}
Value lowering::mulScalars(OpBuilder &b, Location l, Value x, Value y) {
  return Scalar::mul(b, l, x, y);
}
Value lowering::divScalars(OpBuilder &b, Location l, Value x, Value y) {
  return Scalar::div(b, l, x, y);
}

namespace {

/// Rewrites `Op` to one linalg.generic over all its operands whose body is
/// `Fn(builder, loc, scalars, op)`.
template <typename Op, Value (*Fn)(OpBuilder &, Location, ValueRange, Op)>
struct ElementwisePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          return Fn(b, l, args, op);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

template <Value (*F)(OpBuilder &, Location, Value, Value)>
struct Binary {
  template <typename Op>
  static Value apply(OpBuilder &b, Location l, ValueRange a, Op) {
    return F(b, l, a[0], a[1]);
  }
};
template <Value (*F)(OpBuilder &, Location, Value)>
struct Unary {
  template <typename Op>
  static Value apply(OpBuilder &b, Location l, ValueRange a, Op) {
    return F(b, l, a[0]);
  }
};
/// `MathOp` on float scalars, `ComplexOp` (when given) on complex ones.
template <typename MathOp, typename ComplexOp = void>
struct MathUnary {
  template <typename Op>
  static Value apply(OpBuilder &b, Location l, ValueRange a, Op) {
    if constexpr (!std::is_void_v<ComplexOp>)
      if (isComplex(a[0]))
        return ComplexOp::create(b, l, a[0]);
    return MathOp::create(b, l, a[0]);
  }
};

/// log1p of a complex x + iy as log|1 + z| + i atan2(y, 1 + x), not
/// complex.log1p: MLIR 22's lowering of it computes log|1 + z| as log1p of
/// max(|1 + x|, |y|) - 1, which is -1 (a -inf log) wherever |1 + z| is
/// tiny (log1p(-1 + 1e-300i) should be -690.8 + 1.57i) and NaN-bound at
/// z = -1 (it gave 0, not -inf). Here: log1p(x (2 + x) + y^2) / 2 where
/// |1 + z|^2 - 1 is small (accurate near z = 0), else log m + log1p(q^2) / 2
/// with m = max(|1 + x|, |y|) and q the other over m (no overflow, and
/// exact near z = -1, where 1 + x is).
Value complexLog1p(OpBuilder &b, Location l, Value z) {
  auto type = cast<ComplexType>(z.getType());
  Type real = type.getElementType();
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, l, b.getFloatAttr(real, v));
  };
  Value x = complex::ReOp::create(b, l, z), y = complex::ImOp::create(b, l, z);
  Value u = arith::AddFOp::create(b, l, x, constant(1.0));
  Value s = arith::AddFOp::create(
      b, l, arith::MulFOp::create(b, l, x, arith::AddFOp::create(
                                             b, l, x, constant(2.0))),
      arith::MulFOp::create(b, l, y, y));
  Value nearOne = math::Log1pOp::create(b, l, s);
  Value au = math::AbsFOp::create(b, l, u), ay = math::AbsFOp::create(b, l, y);
  Value m = arith::MaximumFOp::create(b, l, au, ay);
  Value n = arith::MinimumFOp::create(b, l, au, ay);
  Value mZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, m,
                                      constant(0.0));
  Value q = arith::SelectOp::create(b, l, mZero, constant(0.0),
                                    arith::DivFOp::create(b, l, n, m));
  Value far = arith::AddFOp::create(
      b, l, arith::MulFOp::create(b, l, math::LogOp::create(b, l, m),
                                  constant(2.0)),
      math::Log1pOp::create(b, l, arith::MulFOp::create(b, l, q, q)));
  Value small = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT,
                                      math::AbsFOp::create(b, l, s),
                                      constant(0.5));
  Value twiceReal = arith::SelectOp::create(b, l, small, nearOne, far);
  Value re = arith::MulFOp::create(b, l, twiceReal, constant(0.5));
  Value im = math::Atan2Op::create(b, l, y, u);
  return complex::CreateOp::create(b, l, type, re, im);
}

/// adj.log1p: math.log1p, or complexLog1p.
Value log1pBody(OpBuilder &b, Location l, ValueRange a, adj::Log1pOp) {
  if (isComplex(a[0]))
    return complexLog1p(b, l, a[0]);
  return math::Log1pOp::create(b, l, a[0]);
}

Value realBody(OpBuilder &b, Location l, ValueRange a, adj::RealOp) {
  return complex::ReOp::create(b, l, a[0]);
}
Value imagBody(OpBuilder &b, Location l, ValueRange a, adj::ImagOp) {
  return complex::ImOp::create(b, l, a[0]);
}
Value complexBody(OpBuilder &b, Location l, ValueRange a, adj::ComplexOp) {
  return complex::CreateOp::create(b, l, ComplexType::get(a[0].getType()),
                                   a[0], a[1]);
}

Value cmpBody(OpBuilder &b, Location l, ValueRange a, adj::CmpOp op) {
  return Scalar::cmp(b, l, op.getPredicate(), a[0], a[1]);
}
Value selectBody(OpBuilder &b, Location l, ValueRange a, adj::SelectOp) {
  return arith::SelectOp::create(b, l, a[0], a[1], a[2]);
}
Value castBody(OpBuilder &b, Location l, ValueRange a, adj::CastOp op) {
  return Scalar::cast(
      b, l, a[0],
      cast<RankedTensorType>(op.getResult().getType()).getElementType());
}

#define ADJ_BINARY(OP, FN)                                                     \
  ElementwisePattern<adj::OP, &Binary<&Scalar::FN>::template apply<adj::OP>>
#define ADJ_UNARY(OP, FN)                                                      \
  ElementwisePattern<adj::OP, &Unary<&Scalar::FN>::template apply<adj::OP>>
#define ADJ_MATH(OP, MOP)                                                      \
  ElementwisePattern<adj::OP, &MathUnary<math::MOP>::template apply<adj::OP>>
#define ADJ_MATH_C(OP, MOP, COP)                                               \
  ElementwisePattern<adj::OP, &MathUnary<math::MOP, complex::COP>::template    \
                                  apply<adj::OP>>

} // namespace

void lowering::populateElementwisePatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ADJ_BINARY(AddOp, add), ADJ_BINARY(SubOp, sub),
               ADJ_BINARY(MulOp, mul), ADJ_BINARY(DivOp, div),
               ADJ_BINARY(PowOp, pow), ADJ_BINARY(MaximumOp, max),
               ADJ_BINARY(MinimumOp, min), ADJ_BINARY(Atan2Op, atan2),
               ADJ_BINARY(GradAddOp, gradAdd)>(ctx);
  patterns.add<ADJ_UNARY(NegOp, neg), ADJ_UNARY(AbsOp, abs),
               ADJ_UNARY(ReluOp, relu), ADJ_UNARY(SigmoidOp, sigmoid),
               ADJ_UNARY(SignOp, sign)>(ctx);
  patterns.add<ADJ_MATH_C(ExpOp, ExpOp, ExpOp), ADJ_MATH_C(LogOp, LogOp, LogOp),
               ADJ_MATH_C(Expm1Op, ExpM1Op, Expm1Op),
               ADJ_MATH_C(TanhOp, TanhOp, TanhOp),
               ADJ_MATH_C(SqrtOp, SqrtOp, SqrtOp),
               ADJ_MATH_C(RsqrtOp, RsqrtOp, RsqrtOp),
               ADJ_MATH_C(SinOp, SinOp, SinOp), ADJ_MATH_C(CosOp, CosOp, CosOp),
               ADJ_MATH(ErfOp, ErfOp)>(ctx);
  patterns.add<ElementwisePattern<adj::Log1pOp, &log1pBody>,
               ElementwisePattern<adj::CmpOp, &cmpBody>,
               ElementwisePattern<adj::SelectOp, &selectBody>,
               ElementwisePattern<adj::CastOp, &castBody>,
               ElementwisePattern<adj::RealOp, &realBody>,
               ElementwisePattern<adj::ImagOp, &imagBody>,
               ElementwisePattern<adj::ComplexOp, &complexBody>>(ctx);
}
