//===- Convolution.cpp - adj conv2d and pooling to linalg -----------------===//
//
// Windows over NCHW tensors become linalg's named convolution and pooling
// ops on an input padded with tensor.pad, so that later passes can match
// them (linalg.conv_2d_nchw_fchw is the one an optimized kernel replaces).
// Grouped convolutions view the channels as [groups, channels per group] and
// use linalg.conv_2d_ngchw_gfchw. f16 and bf16 accumulate in f32 and round
// once at the end, as the interpreter does.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// The geometry of one 2-D window op on a static NCHW input.
struct Window {
  int64_t kh, kw, sh, sw, dh, dw;
  /// [top, bottom, left, right], as the adj ops spell it.
  ArrayRef<int64_t> padding;
};

/// Pads the two spatial dimensions of the NCHW tensor `input` with `value`.
/// Only the rows and columns that some window reads are added: a stride that
/// does not divide the padded extent leaves the rest of `bottom` and `right`
/// unread.
Value padSpatial(OpBuilder &b, Location loc, Value input, const Window &w,
                 int64_t oh, int64_t ow, TypedAttr value) {
  auto type = cast<RankedTensorType>(input.getType());
  auto used = [](int64_t out, int64_t k, int64_t s, int64_t d) {
    return out == 0 ? 0 : (out - 1) * s + d * (k - 1) + 1;
  };
  int64_t h = type.getDimSize(2), wd = type.getDimSize(3);
  int64_t top = w.padding[0], left = w.padding[2];
  int64_t bottom = std::max<int64_t>(0, used(oh, w.kh, w.sh, w.dh) - h - top);
  int64_t right = std::max<int64_t>(0, used(ow, w.kw, w.sw, w.dw) - wd - left);
  if (top == 0 && bottom == 0 && left == 0 && right == 0)
    return input;
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += top + bottom;
  shape[3] += left + right;
  SmallVector<OpFoldResult> low{b.getIndexAttr(0), b.getIndexAttr(0),
                                b.getIndexAttr(top), b.getIndexAttr(left)};
  SmallVector<OpFoldResult> high{b.getIndexAttr(0), b.getIndexAttr(0),
                                 b.getIndexAttr(bottom),
                                 b.getIndexAttr(right)};
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), input, low,
      high, Value(arith::ConstantOp::create(b, loc, value)));
}

/// linalg's `strides`/`dilations` attribute.
DenseIntElementsAttr pair(OpBuilder &b, int64_t x, int64_t y) {
  return b.getI64TensorAttr({x, y});
}

FloatAttr negativeInfinity(OpBuilder &b, Type type) {
  auto f = cast<FloatType>(type);
  return b.getFloatAttr(
      f, llvm::APFloat::getInf(f.getFloatSemantics(), /*Negative=*/true));
}

struct Conv2DPattern : OpConversionPattern<adj::Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filterType = cast<RankedTensorType>(op.getFilter().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type element = resultType.getElementType();
    Type acc = accumulatorType(element);
    ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
    Window w{filterType.getDimSize(2), filterType.getDimSize(3), stride[0],
             stride[1], dilation[0], dilation[1], op.getPadding()};
    int64_t n = resultType.getDimSize(0), o = resultType.getDimSize(1);
    int64_t oh = resultType.getDimSize(2), ow = resultType.getDimSize(3);
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), w, oh, ow,
                             rewriter.getZeroAttr(element));
    Value filter = adaptor.getFilter();
    Value zero = scalarConstant(rewriter, loc, acc, 0);
    auto strides = pair(rewriter, w.sh, w.sw);
    auto dilations = pair(rewriter, w.dh, w.dw);
    int64_t groups = op.getGroups();
    Value result;
    if (groups == 1) {
      auto type = RankedTensorType::get(resultType.getShape(), acc);
      Value init = filledTensor(rewriter, loc, type, zero);
      result = linalg::Conv2DNchwFchwOp::create(
                   rewriter, loc, TypeRange{type}, ValueRange{input, filter},
                   ValueRange{init}, strides, dilations)
                   .getResult(0);
    } else {
      // [N, C, H, W] -> [N, G, C/G, H, W]; [O, C/G, KH, KW] ->
      // [G, O/G, C/G, KH, KW]: group g owns filters g*O/G .. (g+1)*O/G - 1.
      auto inType = cast<RankedTensorType>(input.getType());
      int64_t cg = inType.getDimSize(1) / groups, og = o / groups;
      auto inType5 = RankedTensorType::get(
          {inType.getDimSize(0), groups, cg, inType.getDimSize(2),
           inType.getDimSize(3)},
          element);
      input = tensor::ExpandShapeOp::create(
          rewriter, loc, inType5, input,
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
      auto filterType5 = RankedTensorType::get(
          {groups, og, cg, w.kh, w.kw}, element);
      filter = tensor::ExpandShapeOp::create(
          rewriter, loc, filterType5, filter,
          SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
      auto type5 = RankedTensorType::get({n, groups, og, oh, ow}, acc);
      Value init = filledTensor(rewriter, loc, type5, zero);
      Value conv = linalg::Conv2DNgchwGfchwOp::create(
                       rewriter, loc, TypeRange{type5},
                       ValueRange{input, filter}, ValueRange{init}, strides,
                       dilations)
                       .getResult(0);
      result = tensor::CollapseShapeOp::create(
          rewriter, loc, conv,
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    }
    rewriter.replaceOp(op, truncateTo(rewriter, loc, result, resultType));
    return success();
  }
};

/// The largest window max pooling takes as one elementwise op.
constexpr int64_t kMaxUnrolledWindow = 16;

/// max over the window elements (i, j), each a strided slice of the padded
/// input with the result's shape: one elementwise op that fusion and the
/// vectorizer handle like any other, with the running maximum in a register
/// (linalg.pooling_nchw_max becomes a loop nest that loads and stores the
/// output once per window element).
Value maxOfWindowElements(OpBuilder &b, Location loc, Value input,
                          const Window &w, RankedTensorType resultType) {
  ArrayRef<int64_t> shape = resultType.getShape();
  SmallVector<Value> elements;
  for (int64_t i = 0; i < w.kh; ++i)
    for (int64_t j = 0; j < w.kw; ++j)
      elements.push_back(tensor::ExtractSliceOp::create(
          b, loc, resultType, input,
          ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0),
                                 b.getIndexAttr(i), b.getIndexAttr(j)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(shape[0]),
                                 b.getIndexAttr(shape[1]),
                                 b.getIndexAttr(shape[2]),
                                 b.getIndexAttr(shape[3])},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1),
                                 b.getIndexAttr(w.sh), b.getIndexAttr(w.sw)}));
  return buildElementwise(b, loc, resultType, elements,
                          [](OpBuilder &b, Location l, ValueRange a) {
                            Value m = a[0];
                            for (Value v : a.drop_front())
                              m = arith::MaximumFOp::create(b, l, m, v);
                            return m;
                          });
}

/// Max pooling pads with -inf and takes the maximum of the window elements
/// (small windows) or linalg.pooling_nchw_max (maximumf propagates NaN in
/// both, as the interpreter does); average pooling pads
/// with zeros, sums with linalg.pooling_nchw_sum and divides by the full
/// window size (count_include_pad).
template <typename Op, bool isMax>
struct PoolPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type element = resultType.getElementType();
    // A maximum is exact in any type; a sum is not.
    Type acc = isMax ? element : accumulatorType(element);
    ArrayRef<int64_t> kernel = op.getKernel(), stride = op.getStride();
    Window w{kernel[0], kernel[1], stride[0], stride[1], 1, 1,
             op.getPadding()};
    int64_t oh = resultType.getDimSize(2), ow = resultType.getDimSize(3);
    TypedAttr padValue = isMax ? TypedAttr(negativeInfinity(rewriter, element))
                               : rewriter.getZeroAttr(element);
    Value input =
        padSpatial(rewriter, loc, adaptor.getInput(), w, oh, ow, padValue);
    if (isMax && w.kh * w.kw <= kMaxUnrolledWindow) {
      rewriter.replaceOp(op, maxOfWindowElements(rewriter, loc, input, w,
                                                 resultType));
      return success();
    }
    Value initValue = arith::ConstantOp::create(
        rewriter, loc,
        isMax ? TypedAttr(negativeInfinity(rewriter, acc))
              : rewriter.getZeroAttr(acc));
    auto type = RankedTensorType::get(resultType.getShape(), acc);
    Value init = filledTensor(rewriter, loc, type, initValue);
    // The second input only carries the window's shape.
    Value window = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{w.kh, w.kw}, element);
    auto strides = pair(rewriter, w.sh, w.sw);
    auto dilations = pair(rewriter, 1, 1);
    Value result;
    if constexpr (isMax) {
      result = linalg::PoolingNchwMaxOp::create(
                   rewriter, loc, TypeRange{type}, ValueRange{input, window},
                   ValueRange{init}, strides, dilations)
                   .getResult(0);
    } else {
      Value sum = linalg::PoolingNchwSumOp::create(
                      rewriter, loc, TypeRange{type},
                      ValueRange{input, window}, ValueRange{init}, strides,
                      dilations)
                      .getResult(0);
      // Divided and rounded to the element type in one pass.
      result = buildElementwise(
          rewriter, loc, resultType, sum,
          [&](OpBuilder &b, Location l, ValueRange a) -> Value {
            Value area = scalarConstant(b, l, acc,
                                        static_cast<double>(w.kh * w.kw));
            Value mean = arith::DivFOp::create(b, l, a[0], area);
            if (acc == element)
              return mean;
            return arith::TruncFOp::create(b, l, element, mean);
          });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void lowering::populateConvolutionPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DPattern, PoolPattern<adj::MaxPool2DOp, true>,
               PoolPattern<adj::AvgPool2DOp, false>>(patterns.getContext());
}
