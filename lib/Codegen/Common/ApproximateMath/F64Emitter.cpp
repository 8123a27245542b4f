//===- F64Emitter.cpp - Arithmetic on f64 scalars or vectors --------------===//

#include "F64Emitter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace adjoint::f64math;

F64Emitter::F64Emitter(OpBuilder &builder, Location loc, Type type)
    : b(builder), loc(loc), floatType(type) {
  Type i64 = b.getI64Type();
  auto vector = dyn_cast<VectorType>(type);
  intType = vector ? Type(vector.clone(i64)) : i64;
}

namespace {
Value splat(OpBuilder &b, Location loc, Type type, TypedAttr scalar) {
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vector, Attribute(scalar)));
  return arith::ConstantOp::create(b, loc, scalar);
}
} // namespace

Value F64Emitter::f(double value) {
  return splat(b, loc, floatType, b.getF64FloatAttr(value));
}
Value F64Emitter::i(int64_t value) {
  return splat(b, loc, intType, b.getI64IntegerAttr(value));
}

Value F64Emitter::add(Value a, Value c) {
  return arith::AddFOp::create(b, loc, a, c);
}
Value F64Emitter::sub(Value a, Value c) {
  return arith::SubFOp::create(b, loc, a, c);
}
Value F64Emitter::mul(Value a, Value c) {
  return arith::MulFOp::create(b, loc, a, c);
}
Value F64Emitter::div(Value a, Value c) {
  return arith::DivFOp::create(b, loc, a, c);
}
Value F64Emitter::fma(Value a, Value c, Value d) {
  return math::FmaOp::create(b, loc, a, c, d);
}
Value F64Emitter::abs(Value a) { return math::AbsFOp::create(b, loc, a); }
Value F64Emitter::copySign(Value magnitude, Value sign) {
  return math::CopySignOp::create(b, loc, magnitude, sign);
}
Value F64Emitter::roundEven(Value a) {
  return math::RoundEvenOp::create(b, loc, a);
}
Value F64Emitter::floor(Value a) { return math::FloorOp::create(b, loc, a); }

Value F64Emitter::cmp(arith::CmpFPredicate predicate, Value a, Value c) {
  return arith::CmpFOp::create(b, loc, predicate, a, c);
}
Value F64Emitter::cmpi(arith::CmpIPredicate predicate, Value a, Value c) {
  return arith::CmpIOp::create(b, loc, predicate, a, c);
}
Value F64Emitter::select(Value condition, Value a, Value c) {
  return arith::SelectOp::create(b, loc, condition, a, c);
}
Value F64Emitter::keepNaN(Value value, Value result) {
  return select(cmp(arith::CmpFPredicate::UNO, value, value), value, result);
}

Value F64Emitter::bits(Value a) {
  return arith::BitcastOp::create(b, loc, intType, a);
}
Value F64Emitter::fromBits(Value a) {
  return arith::BitcastOp::create(b, loc, floatType, a);
}
Value F64Emitter::toInt(Value a) {
  return arith::FPToSIOp::create(b, loc, intType, a);
}
Value F64Emitter::toFloat(Value a) {
  return arith::SIToFPOp::create(b, loc, floatType, a);
}
Value F64Emitter::addi(Value a, Value c) {
  return arith::AddIOp::create(b, loc, a, c);
}
Value F64Emitter::subi(Value a, Value c) {
  return arith::SubIOp::create(b, loc, a, c);
}
Value F64Emitter::andi(Value a, Value c) {
  return arith::AndIOp::create(b, loc, a, c);
}
Value F64Emitter::ori(Value a, Value c) {
  return arith::OrIOp::create(b, loc, a, c);
}
Value F64Emitter::shl(Value a, int64_t amount) {
  return arith::ShLIOp::create(b, loc, a, i(amount));
}
Value F64Emitter::ashr(Value a, int64_t amount) {
  return arith::ShRSIOp::create(b, loc, a, i(amount));
}
Value F64Emitter::pow2(Value n) {
  // The biased exponent in the exponent field, a zero fraction.
  return fromBits(shl(addi(n, i(1023)), 52));
}

Value F64Emitter::horner(Value x, ArrayRef<double> c) {
  Value acc = f(c.front());
  for (double coefficient : c.drop_front())
    acc = fma(acc, x, f(coefficient));
  return acc;
}
Value F64Emitter::horner(Value x, ArrayRef<Value> c) {
  Value acc = c.front();
  for (Value coefficient : c.drop_front())
    acc = fma(acc, x, coefficient);
  return acc;
}
