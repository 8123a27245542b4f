//===- Bits.cpp - adj bit manipulation ops to linalg.generic --------------===//
//
// Bitwise operators, shifts, bitcast and threefry2x32 become one
// linalg.generic each (broadcasting through the indexing maps, as for the
// other elementwise ops) whose bodies use only integer arith ops that
// every target has, so the random numbers derived from them are the same
// bits on the CPU and on every GPU.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Support/Threefry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

Value wordConstant(OpBuilder &b, Location l, Type type, uint64_t value) {
  return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, value));
}

/// `x << n` or `x >> n` (logical), 0 where `n`, read unsigned, is the width
/// or more: arith's shifts are poison there, the interpreter's give 0.
template <typename ShiftOp>
Value shift(OpBuilder &b, Location l, Value x, Value n) {
  Type type = x.getType();
  Value width = wordConstant(b, l, type, type.getIntOrFloatBitWidth());
  Value inRange =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, n, width);
  Value shifted = ShiftOp::create(b, l, x, n);
  return arith::SelectOp::create(b, l, inRange, shifted,
                                 wordConstant(b, l, type, 0));
}

Value rotateLeft(OpBuilder &b, Location l, Value v, unsigned r) {
  Type i32 = v.getType();
  Value left = arith::ShLIOp::create(b, l, v, wordConstant(b, l, i32, r));
  Value right =
      arith::ShRUIOp::create(b, l, v, wordConstant(b, l, i32, 32 - r));
  return arith::OrIOp::create(b, l, left, right);
}

/// The schedule of threefry::threefry2x32 on i32 scalars (arith.addi wraps
/// like uint32_t), packed into an i64 with the first word high.
Value threefry(OpBuilder &b, Location l, ValueRange words) {
  Type i32 = words[0].getType();
  auto add = [&](Value x, Value y) { return arith::AddIOp::create(b, l, x, y); };
  auto xorOf = [&](Value x, Value y) {
    return arith::XOrIOp::create(b, l, x, y);
  };
  Value ks[3] = {words[0], words[1],
                 xorOf(xorOf(words[0], words[1]),
                       wordConstant(b, l, i32, threefry::kParity))};
  Value x0 = add(words[2], ks[0]);
  Value x1 = add(words[3], ks[1]);
  for (unsigned g = 0; g < threefry::kGroups; ++g) {
    for (unsigned r : threefry::kRotations[g % 2]) {
      x0 = add(x0, x1);
      x1 = xorOf(rotateLeft(b, l, x1, r), x0);
    }
    x0 = add(x0, ks[(g + 1) % 3]);
    x1 = add(x1, add(ks[(g + 2) % 3], wordConstant(b, l, i32, g + 1)));
  }
  Type i64 = b.getI64Type();
  Value high = arith::ShLIOp::create(b, l, arith::ExtUIOp::create(b, l, i64, x0),
                                     wordConstant(b, l, i64, 32));
  return arith::OrIOp::create(b, l, high,
                              arith::ExtUIOp::create(b, l, i64, x1));
}

/// Rewrites `Op` to one linalg.generic whose body is `Fn(b, l, scalars)`;
/// `Fn` may also read the result's element type from its argument.
template <typename Op>
struct BitsPattern : OpConversionPattern<Op> {
  using Body = Value (*)(OpBuilder &, Location, ValueRange, Type);
  BitsPattern(MLIRContext *ctx, Body body)
      : OpConversionPattern<Op>(ctx), body(body) {}
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location l, ValueRange args) {
          return body(b, l, args, resultType.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
  Body body;
};

template <typename ArithOp>
Value binaryBody(OpBuilder &b, Location l, ValueRange a, Type) {
  return ArithOp::create(b, l, a[0], a[1]);
}
template <typename ShiftOp>
Value shiftBody(OpBuilder &b, Location l, ValueRange a, Type) {
  return shift<ShiftOp>(b, l, a[0], a[1]);
}
Value bitcastBody(OpBuilder &b, Location l, ValueRange a, Type to) {
  return arith::BitcastOp::create(b, l, to, a[0]);
}
Value threefryBody(OpBuilder &b, Location l, ValueRange a, Type) {
  return threefry(b, l, a);
}

} // namespace

void lowering::populateBitsPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BitsPattern<adj::BitwiseAndOp>>(ctx,
                                               &binaryBody<arith::AndIOp>);
  patterns.add<BitsPattern<adj::BitwiseOrOp>>(ctx, &binaryBody<arith::OrIOp>);
  patterns.add<BitsPattern<adj::BitwiseXorOp>>(ctx,
                                               &binaryBody<arith::XOrIOp>);
  patterns.add<BitsPattern<adj::ShiftLeftOp>>(ctx, &shiftBody<arith::ShLIOp>);
  patterns.add<BitsPattern<adj::ShiftRightLogicalOp>>(
      ctx, &shiftBody<arith::ShRUIOp>);
  patterns.add<BitsPattern<adj::BitcastOp>>(ctx, &bitcastBody);
  patterns.add<BitsPattern<adj::Threefry2x32Op>>(ctx, &threefryBody);
}
