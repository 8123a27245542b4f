//===- Reductions.cpp - adj reductions to linalg.reduce -------------------===//
//
// linalg.reduce drops the reduced dimensions; keepdims is an expand_shape
// afterwards. The mean is the sum divided by the element count, in the
// element type (integer means truncate, like the interpreter's division).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

enum class Kind { Sum, Max, Mean };

/// The identity of the combining function: 0 for sums, the lowest value of
/// the type (-inf for floats) for maxima.
Value identity(OpBuilder &b, Location loc, Type type, Kind kind) {
  if (kind != Kind::Max)
    return scalarConstant(b, loc, type, 0);
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc,
        b.getFloatAttr(f, llvm::APFloat::getInf(f.getFloatSemantics(),
                                                /*Negative=*/true)));
  unsigned width = type.getIntOrFloatBitWidth();
  // i1 is a truth value: its maximum is "any", whose identity is false.
  llvm::APInt lowest = width == 1 ? llvm::APInt(1, 0)
                                  : llvm::APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, lowest));
}

template <typename Op, Kind kind>
struct ReducePattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type elem = inputType.getElementType();
    SmallVector<int64_t> axes(op.getAxes());
    llvm::sort(axes);
    SmallVector<int64_t> reducedShape;
    int64_t count = 1;
    for (int64_t i = 0; i < inputType.getRank(); ++i) {
      if (llvm::is_contained(axes, i))
        count *= inputType.getDimSize(i);
      else
        reducedShape.push_back(inputType.getDimSize(i));
    }
    auto reducedType = RankedTensorType::get(reducedShape, elem);
    Value init = filledTensor(rewriter, loc, reducedType,
                              identity(rewriter, loc, elem, kind));
    bool isFloat = isa<FloatType>(elem);
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{adaptor.getInput()}, ValueRange{init}, axes,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value r;
          // NaN wins (maximumf), as in the interpreter and NumPy; i1 is
          // unsigned (any).
          if (kind == Kind::Max && isFloat)
            r = arith::MaximumFOp::create(b, l, args[0], args[1]);
          else if (kind == Kind::Max && elem.isInteger(1))
            r = arith::MaxUIOp::create(b, l, args[0], args[1]);
          else if (kind == Kind::Max)
            r = arith::MaxSIOp::create(b, l, args[0], args[1]);
          else if (isFloat)
            // f32 sums may be reassociated, so that LLVM vectorizes a sum
            // along the innermost dimension (its order differs from the
            // interpreter's f64 accumulation anyway; f32 results are
            // compared to rtol 1e-5). Other sums keep their order.
            r = arith::AddFOp::create(b, l, args[0], args[1],
                                      elem.isF32()
                                          ? arith::FastMathFlags::reassoc
                                          : arith::FastMathFlags::none);
          else
            r = addScalars(b, l, args[0], args[1]);
          linalg::YieldOp::create(b, l, r);
        });
    Value result = reduce.getResult(0);
    if (kind == Kind::Mean) {
      result = buildElementwise(
          rewriter, loc, reducedType, ValueRange{result},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value n = scalarConstant(b, l, elem, static_cast<double>(count));
            return divScalars(b, l, args[0], n);
          });
    }
    if (resultType != reducedType)
      result = reshapeTo(rewriter, loc, result, resultType);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void lowering::populateReductionsPatterns(RewritePatternSet &patterns) {
  patterns.add<ReducePattern<adj::ReduceSumOp, Kind::Sum>,
               ReducePattern<adj::ReduceMaxOp, Kind::Max>,
               ReducePattern<adj::ReduceMeanOp, Kind::Mean>>(
      patterns.getContext());
}
