//===- Creation.cpp - adj creation ops to arith/linalg --------------------===//
//
// Constants stay arith.constant so that later passes can fold them; fill and
// zeros_like are linalg.fill.
// iota is a linalg.generic without data inputs whose body computes each
// element from its position (linalg.index).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// The body of a created element: its position, the generic's scalar inputs.
using ElementBuilder = llvm::function_ref<Value(
    OpBuilder &, Location, ArrayRef<Value> position, ValueRange inputs)>;

/// A tensor of `type` whose elements `body` computes; `inputs` are rank-0
/// tensors read as scalars.
Value buildCreated(OpBuilder &b, Location loc, RankedTensorType type,
                   ValueRange inputs, ElementBuilder body) {
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps(inputs.size(), AffineMap::get(rank, 0, ctx));
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                       type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               SmallVector<Value> position;
               for (int64_t d = 0; d < rank; ++d)
                 position.push_back(linalg::IndexOp::create(nb, l, d));
               Value v = body(nb, l, position, args.drop_back());
               linalg::YieldOp::create(nb, l, v);
             })
      .getResult(0);
}

Value i64Constant(OpBuilder &b, Location loc, uint64_t value) {
  return arith::ConstantOp::create(
      b, loc, b.getI64IntegerAttr(static_cast<int64_t>(value)));
}

/// An i64 scalar converted to `type` as the interpreter's fromInt does: f16
/// and bf16 through f32, i32 wraps, i1 tests for non-zero.
Value fromI64(OpBuilder &b, Location loc, Value v, Type type) {
  if (type.isInteger(64))
    return v;
  if (type.isInteger(1))
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                 i64Constant(b, loc, 0));
  if (isa<IntegerType>(type))
    return arith::TruncIOp::create(b, loc, type, v);
  if (type.isF64() || type.isF32())
    return arith::SIToFPOp::create(b, loc, type, v);
  Value f = arith::SIToFPOp::create(b, loc, b.getF32Type(), v);
  return arith::TruncFOp::create(b, loc, type, f);
}

struct IotaPattern : OpConversionPattern<adj::IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    int64_t axis = op.getAxis();
    rewriter.replaceOp(
        op, buildCreated(rewriter, op.getLoc(), type, {},
                         [&](OpBuilder &b, Location l, ArrayRef<Value> pos,
                             ValueRange) {
                           Value i = arith::IndexCastOp::create(
                               b, l, b.getI64Type(), pos[axis]);
                           return fromI64(b, l, i, type.getElementType());
                         }));
    return success();
  }
};

struct ConstantPattern : OpConversionPattern<adj::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "untyped constant attribute");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

struct FillPattern : OpConversionPattern<adj::FillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::FillOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Value scalar = scalarConstant(rewriter, op.getLoc(),
                                  type.getElementType(),
                                  op.getValue().convertToDouble());
    rewriter.replaceOp(op, filledTensor(rewriter, op.getLoc(), type, scalar));
    return success();
  }
};

/// The zero sensitivity of a tensor is a zero-filled tensor.
struct ZerosLikePattern : OpConversionPattern<adj::ZerosLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ZerosLikeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Value zero =
        scalarConstant(rewriter, op.getLoc(), type.getElementType(), 0);
    rewriter.replaceOp(op, filledTensor(rewriter, op.getLoc(), type, zero));
    return success();
  }
};

} // namespace

// f16 and bf16 go through f32 rounded to odd, which makes the second
// rounding exact (the interpreter's roundToOddFloat); LLVM's f64 -> bf16
// truncation rounds twice.
Value lowering::roundFromF64(OpBuilder &b, Location loc, Value v, Type type) {
  if (type.isF64())
    return v;
  Type f32 = b.getF32Type();
  Value nearest = arith::TruncFOp::create(b, loc, f32, v);
  if (type.isF32())
    return nearest;
  Value back = arith::ExtFOp::create(b, loc, b.getF64Type(), nearest);
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), nearest);
  Value i32One = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  Value i32Zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value inf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
  // Kept as it is when exact, odd, infinite or NaN.
  Value exact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, back, v);
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  Value infinite = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OEQ, math::AbsFOp::create(b, loc, nearest),
      inf);
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    arith::AndIOp::create(b, loc, bits, i32One),
                                    i32Zero);
  // (One op per statement: the order of evaluation of call arguments, and
  // so of the printed ops, is unspecified in C++.)
  Value exactOrNaN = arith::OrIOp::create(b, loc, exact, nan);
  Value keep = arith::OrIOp::create(
      b, loc, exactOrNaN, arith::OrIOp::create(b, loc, infinite, odd));
  // Otherwise `v` lies between `nearest` (even) and its neighbour away from
  // or towards zero: the odd one of the two.
  Value absV = math::AbsFOp::create(b, loc, v);
  Value absBack = math::AbsFOp::create(b, loc, back);
  Value away = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, absV,
                                     absBack);
  Value up = arith::AddIOp::create(b, loc, bits, i32One);
  Value down = arith::SubIOp::create(b, loc, bits, i32One);
  Value neighbour = arith::SelectOp::create(b, loc, away, up, down);
  Value odds = arith::BitcastOp::create(b, loc, f32, neighbour);
  Value rounded = arith::SelectOp::create(b, loc, keep, nearest, odds);
  return arith::TruncFOp::create(b, loc, type, rounded);
}

void lowering::populateCreationPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantPattern, FillPattern, ZerosLikePattern, IotaPattern>(
      patterns.getContext());
}
