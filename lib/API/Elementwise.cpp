//===- Elementwise.cpp - Elementwise primitives and operators -------------===//
//
// Arithmetic, math functions, comparisons, select and cast, and the C++
// operators that spell them. A double operand becomes a rank-0 constant of
// the other operand's element type, which then broadcasts (a weakly typed
// scalar); two tensors of different dtypes are promoted (Type.h).
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using llvm::StringRef;
using llvm::cast;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

static Value unary(StringRef op, Value x) {
  return createValue(stateOf(op, x), {op, {x}});
}

static Value binary(StringRef op, Value a, Value b) {
  ModuleState &s = stateOf(op, a);
  std::tie(a, b) = promoteOperands(a, b);
  return createValue(s, {op, {a, b}});
}

Value api::add(Value a, Value b) { return binary("adj.add", a, b); }
Value api::sub(Value a, Value b) { return binary("adj.sub", a, b); }
Value api::mul(Value a, Value b) { return binary("adj.mul", a, b); }
Value api::div(Value a, Value b) { return binary("adj.div", a, b); }
Value api::pow(Value a, Value b) { return binary("adj.pow", a, b); }
Value api::maximum(Value a, Value b) { return binary("adj.maximum", a, b); }
Value api::minimum(Value a, Value b) { return binary("adj.minimum", a, b); }
Value api::atan2(Value y, Value x) { return binary("adj.atan2", y, x); }

Value api::pow(Value a, double b) {
  return pow(a, scalarLike(a, b, "adj.pow"));
}
Value api::maximum(Value a, double b) {
  return maximum(a, scalarLike(a, b, "adj.maximum"));
}
Value api::minimum(Value a, double b) {
  return minimum(a, scalarLike(a, b, "adj.minimum"));
}

Value api::neg(Value x) { return unary("adj.neg", x); }
Value api::exp(Value x) { return unary("adj.exp", x); }
Value api::log(Value x) { return unary("adj.log", x); }
Value api::log1p(Value x) { return unary("adj.log1p", x); }
Value api::expm1(Value x) { return unary("adj.expm1", x); }
Value api::tanh(Value x) { return unary("adj.tanh", x); }
Value api::sigmoid(Value x) { return unary("adj.sigmoid", x); }
Value api::relu(Value x) { return unary("adj.relu", x); }
Value api::sqrt(Value x) { return unary("adj.sqrt", x); }
Value api::rsqrt(Value x) { return unary("adj.rsqrt", x); }
Value api::abs(Value x) { return unary("adj.abs", x); }
Value api::sign(Value x) { return unary("adj.sign", x); }
Value api::sin(Value x) { return unary("adj.sin", x); }
Value api::cos(Value x) { return unary("adj.cos", x); }
Value api::erf(Value x) { return unary("adj.erf", x); }

static bool isComplexValue(const Value &x) {
  return x.type().isTensor() && isComplex(x.type().dtype());
}

Value api::complex(Value re, Value im) {
  ModuleState &s = stateOf("adj.complex", re);
  std::tie(re, im) = promoteOperands(re, im);
  DType part = re.type().dtype();
  if (isComplex(part))
    throw Error("adj.complex: the parts must be real, got " + re.type().str());
  if (part != DType::F64) {
    re = cast(re, DType::F32);
    im = cast(im, DType::F32);
  }
  return createValue(s, {"adj.complex", {re, im}});
}

Value api::real(Value z) {
  return isComplexValue(z) ? unary("adj.real", z) : z;
}

Value api::imag(Value z) {
  if (isComplexValue(z))
    return unary("adj.imag", z);
  // Zeros of z's type, also where z is infinite or NaN (which 0 * z is
  // not).
  return createValue(stateOf("adj.zeros_like", z), {"adj.zeros_like", {z}});
}

Value api::conj(Value z) {
  if (!isComplexValue(z))
    return z;
  return complex(real(z), neg(imag(z)));
}

Value api::angle(Value z) {
  if (isComplexValue(z))
    return atan2(imag(z), real(z));
  Value x = isFloat(z.type().dtype()) ? z : cast(z, DType::F32);
  return atan2(imag(x), x);
}

Value api::cmp(Cmp predicate, Value a, Value b) {
  ModuleState &s = stateOf("adj.cmp", a);
  adj::CmpPredicate p = adj::CmpPredicate::eq;
  switch (predicate) {
  case Cmp::EQ: p = adj::CmpPredicate::eq; break;
  case Cmp::NE: p = adj::CmpPredicate::ne; break;
  case Cmp::LT: p = adj::CmpPredicate::lt; break;
  case Cmp::LE: p = adj::CmpPredicate::le; break;
  case Cmp::GT: p = adj::CmpPredicate::gt; break;
  case Cmp::GE: p = adj::CmpPredicate::ge; break;
  }
  std::tie(a, b) = promoteOperands(a, b);
  // Ordering compares i1 as a signed integer (true is -1) below adj.cmp;
  // booleans order as numbers, false < true, so they are compared as i32.
  bool ordering = p != adj::CmpPredicate::eq && p != adj::CmpPredicate::ne;
  if (ordering && a && b && a.type().isTensor() && b.type().isTensor() &&
      a.dtype() == DType::I1 && b.dtype() == DType::I1) {
    a = cast(a, DType::I32);
    b = cast(b, DType::I32);
  }
  OpSpec spec{"adj.cmp", {a, b}};
  spec.attributes.push_back(s.builder.getNamedAttr(
      "predicate", s.builder.getI32IntegerAttr(static_cast<int32_t>(p))));
  return createValue(s, spec);
}

Value api::select(Value cond, Value a, Value b) {
  ModuleState &s = stateOf("adj.select", cond);
  std::tie(a, b) = promoteOperands(a, b);
  return createValue(s, {"adj.select", {cond, a, b}});
}

Value api::select(Value cond, Value a, double b) {
  return select(cond, a, scalarLike(a, b, "adj.select"));
}

Value api::select(Value cond, double a, Value b) {
  return select(cond, scalarLike(b, a, "adj.select"), b);
}

Value api::cast(Value x, DType dtype) {
  ModuleState &s = stateOf("adj.cast", x);
  Type type = x.type();
  if (!type.isTensor())
    throw Error("adj.cast: expected a tensor, got " + type.str());
  OpSpec spec{"adj.cast", {x}};
  spec.resultTypes =
      std::vector<mlir::Type>{s.mlirType(type.withDType(dtype))};
  return createValue(s, spec);
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

Value api::operator+(Value a, Value b) { return add(a, b); }
Value api::operator-(Value a, Value b) { return sub(a, b); }
Value api::operator*(Value a, Value b) { return mul(a, b); }
Value api::operator/(Value a, Value b) { return div(a, b); }
Value api::operator-(Value x) { return neg(x); }

Value api::operator+(Value a, double b) {
  return add(a, scalarLike(a, b, "adj.add"));
}
Value api::operator-(Value a, double b) {
  return sub(a, scalarLike(a, b, "adj.sub"));
}
Value api::operator*(Value a, double b) {
  return mul(a, scalarLike(a, b, "adj.mul"));
}
Value api::operator/(Value a, double b) {
  return div(a, scalarLike(a, b, "adj.div"));
}
Value api::operator+(double a, Value b) {
  return add(scalarLike(b, a, "adj.add"), b);
}
Value api::operator-(double a, Value b) {
  return sub(scalarLike(b, a, "adj.sub"), b);
}
Value api::operator*(double a, Value b) {
  return mul(scalarLike(b, a, "adj.mul"), b);
}
Value api::operator/(double a, Value b) {
  return div(scalarLike(b, a, "adj.div"), b);
}

Value api::operator<(Value a, Value b) { return cmp(Cmp::LT, a, b); }
Value api::operator<=(Value a, Value b) { return cmp(Cmp::LE, a, b); }
Value api::operator>(Value a, Value b) { return cmp(Cmp::GT, a, b); }
Value api::operator>=(Value a, Value b) { return cmp(Cmp::GE, a, b); }
Value api::operator==(Value a, Value b) { return cmp(Cmp::EQ, a, b); }
Value api::operator!=(Value a, Value b) { return cmp(Cmp::NE, a, b); }

Value api::operator<(Value a, double b) {
  return cmp(Cmp::LT, a, scalarLike(a, b, "adj.cmp"));
}
Value api::operator<=(Value a, double b) {
  return cmp(Cmp::LE, a, scalarLike(a, b, "adj.cmp"));
}
Value api::operator>(Value a, double b) {
  return cmp(Cmp::GT, a, scalarLike(a, b, "adj.cmp"));
}
Value api::operator>=(Value a, double b) {
  return cmp(Cmp::GE, a, scalarLike(a, b, "adj.cmp"));
}
Value api::operator==(Value a, double b) {
  return cmp(Cmp::EQ, a, scalarLike(a, b, "adj.cmp"));
}
Value api::operator!=(Value a, double b) {
  return cmp(Cmp::NE, a, scalarLike(a, b, "adj.cmp"));
}
