//===- PreciseMath.cpp - log1p and expm1 through log and exp --------------===//

#include "adjoint/Codegen/Intel/Passes.h"

#include <cmath>

namespace adjoint {
#define GEN_PASS_DEF_PRECISEMATH
#include "adjoint/Codegen/Intel/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// Arithmetic on one float type (a scalar or a vector of it).
struct Arith {
  OpBuilder &b;
  Location l;
  Type type;

  Value constant(double v) {
    Type element = getElementTypeOrSelf(type);
    TypedAttr attr = b.getFloatAttr(element, v);
    if (auto vector = dyn_cast<VectorType>(type))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, l, type, attr);
  }
  Value eq(Value x, Value y) {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, l, c, x, y);
  }
};

/// u = 1 + x; u == 1 ? x : log(u) * (x / (u - 1)), and u where it is +inf
/// (where the quotient would be inf / inf).
Value log1p(Arith &a, Value x) {
  Value one = a.constant(1.0);
  Value u = arith::AddFOp::create(a.b, a.l, one, x);
  Value um1 = arith::SubFOp::create(a.b, a.l, u, one);
  Value log = math::LogOp::create(a.b, a.l, u);
  Value ratio = arith::DivFOp::create(a.b, a.l, x, um1);
  Value r = arith::MulFOp::create(a.b, a.l, log, ratio);
  r = a.select(a.eq(u, a.constant(INFINITY)), u, r);
  return a.select(a.eq(u, one), x, r);
}

/// u = exp(x); u == 1 ? x : (u - 1 == -1 ? -1 : (u - 1) * (x / log(u))),
/// and u where it is +inf.
Value expm1(Arith &a, Value x) {
  Value one = a.constant(1.0), minusOne = a.constant(-1.0);
  Value u = math::ExpOp::create(a.b, a.l, x);
  Value um1 = arith::SubFOp::create(a.b, a.l, u, one);
  Value log = math::LogOp::create(a.b, a.l, u);
  Value ratio = arith::DivFOp::create(a.b, a.l, x, log);
  Value r = arith::MulFOp::create(a.b, a.l, um1, ratio);
  r = a.select(a.eq(u, a.constant(INFINITY)), u, r);
  r = a.select(a.eq(um1, minusOne), minusOne, r);
  return a.select(a.eq(u, one), x, r);
}

struct PreciseMath : adjoint::impl::PreciseMathBase<PreciseMath> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<math::Log1pOp, math::ExpM1Op>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Arith a{b, op->getLoc(), op->getResult(0).getType()};
      Value x = op->getOperand(0);
      Value r = isa<math::Log1pOp>(op) ? log1p(a, x) : expm1(a, x);
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};

} // namespace
