//===- Movement.cpp - adj data movement ops to tensor/linalg/scf ----------===//
//
// Shapes are static here, so reshapes are collapse/expand_shape pairs that
// bufferize to views; transpose and broadcast_to are their linalg ops.
// slice, concat and pad are tensor slicing ops that bufferize to views and
// copies. gather is a linalg.generic over the result that reads the table
// with tensor.extract. scatter_add and scatter combine repeated indices in
// order, which no parallel loop expresses, so each is a sequential scf.for
// over the index positions that combines one contiguous row of updates per
// step.
//
// Out-of-range indices: the interpreter reports an error, which compiled code
// cannot. Compiled code clamps every index into [0, N) instead, so it never
// reads or writes out of bounds: gather returns the first or last slice,
// the scatters combine into it. With N == 0 there is no slice: gather returns
// zeros and the scatters return their target.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

Value lowering::reshapeTo(OpBuilder &b, Location loc, Value v,
                          RankedTensorType type) {
  auto from = cast<RankedTensorType>(v.getType());
  if (from == type)
    return v;
  // Through a rank-1 tensor: one group holds every dimension. A rank-0 end
  // needs the empty reassociation instead (all other dims are size 1).
  if (from.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, type, v,
                                         ArrayRef<ReassociationIndices>{});
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, v,
                                           ArrayRef<ReassociationIndices>{});
  auto all = [](int64_t rank) {
    ReassociationIndices group;
    for (int64_t i = 0; i < rank; ++i)
      group.push_back(i);
    return SmallVector<ReassociationIndices>{group};
  };
  Value flat = v;
  if (from.getRank() != 1)
    flat = tensor::CollapseShapeOp::create(b, loc, v, all(from.getRank()));
  if (type.getRank() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(b, loc, type, flat, all(type.getRank()));
}

namespace {

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  return llvm::map_to_vector(
      values, [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); });
}

/// `value` as a constant of `type` with the interpreter's conversion: floats
/// round to nearest, integers truncate toward zero and saturate (NaN is 0),
/// i1 tests for non-zero.
Value convertedConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType, ComplexType>(type) || type.isInteger(1))
    return scalarConstant(b, loc, type, value);
  unsigned width = type.getIntOrFloatBitWidth();
  APInt bits(width, 0);
  double t = std::trunc(value);
  double lowest = -std::ldexp(1.0, width - 1);
  if (std::isnan(value))
    bits = APInt(width, 0);
  else if (t <= lowest)
    bits = APInt::getSignedMinValue(width);
  else if (t >= -lowest)
    bits = APInt::getSignedMaxValue(width);
  else
    bits = APInt(width, static_cast<int64_t>(t), /*isSigned=*/true);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, bits));
}

/// An i32 or i64 index as `index`, clamped into [0, size) (size > 0).
Value clampedIndex(OpBuilder &b, Location loc, Value raw, int64_t size) {
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value last = arith::ConstantIndexOp::create(b, loc, size - 1);
  return arith::MaxSIOp::create(b, loc,
                                arith::MinSIOp::create(b, loc, i, last), zero);
}

struct SlicePattern : OpConversionPattern<adj::SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, adaptor.getInput(), indexAttrs(rewriter, op.getStart()),
        indexAttrs(rewriter, type.getShape()),
        indexAttrs(rewriter, op.getStride()));
    return success();
  }
};

/// Each input is inserted at its offset along the axis of an empty result.
struct ConcatPattern : OpConversionPattern<adj::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getResult().getType());
    if (adaptor.getInputs().size() == 1) {
      rewriter.replaceOp(op, adaptor.getInputs().front());
      return success();
    }
    int64_t axis = op.getAxis();
    Value result = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                           type.getElementType());
    SmallVector<int64_t> offsets(type.getRank(), 0);
    SmallVector<int64_t> strides(type.getRank(), 1);
    for (Value input : adaptor.getInputs()) {
      auto inType = cast<RankedTensorType>(input.getType());
      if (inType.getDimSize(axis) == 0)
        continue;
      result = tensor::InsertSliceOp::create(
          rewriter, loc, input, result, indexAttrs(rewriter, offsets),
          indexAttrs(rewriter, inType.getShape()),
          indexAttrs(rewriter, strides));
      offsets[axis] += inType.getDimSize(axis);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PadPattern : OpConversionPattern<adj::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Value value = convertedConstant(rewriter, op.getLoc(),
                                    type.getElementType(),
                                    op.getValue().convertToDouble());
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        op, type, adaptor.getInput(), indexAttrs(rewriter, op.getLow()),
        indexAttrs(rewriter, op.getHigh()), value);
    return success();
  }
};

/// result[a..., i..., b...] = table[a..., clamp(indices[i...]), b...].
struct GatherPattern : OpConversionPattern<adj::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getResult().getType());
    auto tableType = cast<RankedTensorType>(op.getTable().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t axis = op.getAxis(), size = tableType.getDimSize(axis);
    if (size == 0) {
      Value zero = scalarConstant(rewriter, loc, type.getElementType(), 0);
      rewriter.replaceOp(op, filledTensor(rewriter, loc, type, zero));
      return success();
    }
    int64_t rank = type.getRank(), indexRank = indicesType.getRank();
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> indexDims;
    for (int64_t d = axis; d < axis + indexRank; ++d)
      indexDims.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps{AffineMap::get(rank, 0, indexDims, ctx),
                                rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                         type.getElementType());
    Value table = adaptor.getTable();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{adaptor.getIndices()},
        ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < axis; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          at.push_back(clampedIndex(b, l, args[0], size));
          for (int64_t d = axis + indexRank; d < rank; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          Value v = tensor::ExtractOp::create(b, l, table, at);
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// How one slot of a scatter's target takes its update: scatter_add's sum
/// or adj.scatter's mode. Integers wrap, as in the interpreter; float min and
/// max propagate NaN, as adj.minimum/maximum do.
Value combineSlot(OpBuilder &b, Location l, adj::ScatterAddOp, Value slot,
                  Value update) {
  return addScalars(b, l, slot, update);
}

Value combineSlot(OpBuilder &b, Location l, adj::ScatterOp op, Value slot,
                  Value update) {
  bool isFloat = isa<FloatType>(slot.getType());
  switch (op.getMode()) {
  case adj::ScatterMode::set:
    return update;
  case adj::ScatterMode::mul:
    return mulScalars(b, l, slot, update);
  case adj::ScatterMode::min:
    return isFloat ? Value(arith::MinimumFOp::create(b, l, slot, update))
                   : Value(arith::MinSIOp::create(b, l, slot, update));
  case adj::ScatterMode::max:
    return isFloat ? Value(arith::MaximumFOp::create(b, l, slot, update))
                   : Value(arith::MaxSIOp::create(b, l, slot, update));
  }
  return update;
}

/// With target [A..., N, B...] viewed as [A, N, B] and updates as [A, I, B]:
/// for a in A, for j in I (in order, as the interpreter combines),
/// target[a, clamp(indices[j]), :] = combine(that row, updates[a, j, :]).
/// The order makes a repeated index's last `set` win on every target.
template <typename OpT>
struct ScatterPattern : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using OpAdaptor = typename OpT::Adaptor;
  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getResult().getType());
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    Type element = type.getElementType();
    int64_t axis = op.getAxis(), size = type.getDimSize(axis);
    int64_t outer = product(type.getShape().take_front(axis));
    int64_t inner = product(type.getShape().drop_front(axis + 1));
    int64_t count = indicesType.getNumElements();
    Value target = adaptor.getTarget();
    if (size == 0 || outer * inner * count == 0) {
      rewriter.replaceOp(op, target);
      return success();
    }
    auto view = [&](Value v, int64_t middle) {
      return reshapeTo(rewriter, loc, v,
                       RankedTensorType::get({outer, middle, inner}, element));
    };
    Value acc = view(target, size);
    Value updates = view(adaptor.getUpdates(), count);
    Value indices = reshapeTo(
        rewriter, loc, adaptor.getIndices(),
        RankedTensorType::get({count}, indicesType.getElementType()));
    auto rowType = RankedTensorType::get({inner}, element);
    SmallVector<OpFoldResult> rowSizes = indexAttrs(rewriter, {1, 1, inner});
    SmallVector<OpFoldResult> ones = indexAttrs(rewriter, {1, 1, 1});
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value countEnd = arith::ConstantIndexOp::create(rewriter, loc, count);

    auto addRow = [&](OpBuilder &b, Location l, Value a, Value j,
                      Value current) -> Value {
      Value raw = tensor::ExtractOp::create(b, l, indices, j);
      Value n = clampedIndex(b, l, raw, size);
      SmallVector<OpFoldResult> slot{a, n, b.getIndexAttr(0)};
      SmallVector<OpFoldResult> source{a, j, b.getIndexAttr(0)};
      Value row = tensor::ExtractSliceOp::create(b, l, rowType, current, slot,
                                                 rowSizes, ones);
      Value update = tensor::ExtractSliceOp::create(b, l, rowType, updates,
                                                    source, rowSizes, ones);
      // The row is the generic's init, so the update bufferizes in place.
      AffineMap id = b.getMultiDimIdentityMap(1);
      Value combined =
          linalg::GenericOp::create(
              b, l, TypeRange{rowType}, ValueRange{update}, ValueRange{row},
              SmallVector<AffineMap>{id, id},
              SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
              [&](OpBuilder &nb, Location nl, ValueRange args) {
                linalg::YieldOp::create(
                    nb, nl, combineSlot(nb, nl, op, args[1], args[0]));
              })
              .getResult(0);
      return tensor::InsertSliceOp::create(b, l, combined, current, slot,
                                           rowSizes, ones);
    };
    // Both loops carry kScatterLoopAttrName: the GPU pipeline makes them
    // one kernel (-adj-gpu-scatters), and only them.
    auto tag = [&](scf::ForOp loop) {
      loop->setAttr(adjoint::kScatterLoopAttrName, rewriter.getUnitAttr());
      return loop.getResult(0);
    };
    auto rowLoop = [&](OpBuilder &b, Location l, Value a, Value init) {
      return tag(scf::ForOp::create(
          b, l, zero, countEnd, one, ValueRange{init},
          [&](OpBuilder &nb, Location nl, Value j, ValueRange args) {
            scf::YieldOp::create(nb, nl, addRow(nb, nl, a, j, args[0]));
          }));
    };
    Value result;
    if (outer == 1) {
      result = rowLoop(rewriter, loc, zero, acc);
    } else {
      Value outerEnd = arith::ConstantIndexOp::create(rewriter, loc, outer);
      result = tag(scf::ForOp::create(
          rewriter, loc, zero, outerEnd, one, ValueRange{acc},
          [&](OpBuilder &b, Location l, Value a, ValueRange args) {
            scf::YieldOp::create(b, l, rowLoop(b, l, a, args[0]));
          }));
    }
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, result, type));
    return success();
  }
};

struct TransposePattern : OpConversionPattern<adj::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getResult().getType());
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(),
                                         type.getShape(),
                                         type.getElementType());
    auto t = linalg::TransposeOp::create(rewriter, op.getLoc(),
                                         adaptor.getInput(), init,
                                         op.getPerm());
    rewriter.replaceOp(op, t->getResult(0));
    return success();
  }
};

struct ReshapePattern : OpConversionPattern<adj::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, reshapeTo(rewriter, op.getLoc(), adaptor.getInput(),
                      cast<RankedTensorType>(op.getResult().getType())));
    return success();
  }
};

struct BroadcastToPattern : OpConversionPattern<adj::BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The elementwise maps already encode NumPy broadcasting, size-1
    // dimensions included, which linalg.broadcast does not.
    rewriter.replaceOp(
        op, buildElementwise(
                rewriter, op.getLoc(),
                cast<RankedTensorType>(op.getResult().getType()),
                adaptor.getInput(),
                [](OpBuilder &, Location, ValueRange a) { return a[0]; }));
    return success();
  }
};

} // namespace

void lowering::populateMovementPatterns(RewritePatternSet &patterns) {
  patterns.add<TransposePattern, ReshapePattern, BroadcastToPattern,
               SlicePattern, ConcatPattern, PadPattern, GatherPattern,
               ScatterPattern<adj::ScatterAddOp>,
               ScatterPattern<adj::ScatterOp>>(patterns.getContext());
}
