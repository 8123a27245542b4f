//===- Conv.cpp - 2-D convolutions to implicit-GEMM GPU kernels -----------===//
//
// conv_2d_nchw_fchw as C[f, p] += sum_k W[f, k] * I[k, p] with p = (n, y, x)
// and k = (c, i, j), computed by the tiled kernel of TiledGemm.h reading
// W from the filter and I from the input (never materialized). See
// Passes.td and docs/gpu-kernels.md.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "PaddedOperand.h"
#include "TiledGemm.h"

#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace adjoint {
#define GEN_PASS_DEF_CONV
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// The implicit GEMM of a 2-D convolution in NCHW/FCHW layout; `grouped`:
/// NGCHW/GFCHW with one GEMM per group g (the grid's z), input
/// [N, G, C, H, W], filter [G, F, C, KH, KW], output [N, G, F, OH, OW].
/// `paddings` collects the padded operands the problem reads from their
/// sources, for erasing once the convolution is rewritten.
template <typename ConvOp>
FailureOr<GemmProblem> matchConv(ConvOp op, bool grouped,
                                 SmallVectorImpl<PaddedOperand> &paddings) {
  if (!hasStaticMemrefOperands(op))
    return failure();
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value output = op.getDpsInitOperand(0)->get();
  Type element = getElementTypeOrSelf(output);
  if (!isa<Float16Type, Float32Type, Float64Type>(element) ||
      getElementTypeOrSelf(input) != element ||
      getElementTypeOrSelf(filter) != element)
    return failure();
  // Shapes without the group dim: filter [F, C, KH, KW], output
  // [N, F, OH, OW].
  SmallVector<int64_t> fShape(cast<MemRefType>(filter.getType()).getShape());
  SmallVector<int64_t> oShape(cast<MemRefType>(output.getType()).getShape());
  int64_t groups = 1;
  if (grouped) {
    groups = fShape[0];
    fShape.erase(fShape.begin());
    oShape.erase(oShape.begin() + 1);
  }
  SmallVector<int64_t> strides(op.getStrides().template getValues<int64_t>());
  SmallVector<int64_t> dilations(
      op.getDilations().template getValues<int64_t>());
  int64_t channels = fShape[1], kh = fShape[2], kw = fShape[3];
  int64_t images = oShape[0], oh = oShape[2], ow = oShape[3];
  // Inserts the group index where the layout has it.
  auto withGroup = [=](SmallVector<Value> idx, Value g, unsigned at) {
    if (grouped)
      idx.insert(idx.begin() + at, g);
    return idx;
  };

  // A padded input or filter is read from what was copied into it, the
  // padding computed: no fill and no copy kernel before the convolution.
  SmallVector<PaddedOperand, 2> padded;
  for (Value operand : {filter, input}) {
    if (!padded.empty() && padded.front().buffer == operand)
      continue; // the input is the (padded) filter
    if (std::optional<PaddedOperand> found =
            findPaddedOperand(op.getOperation(), operand))
      padded.push_back(*found);
  }
  paddings.append(padded.begin(), padded.end());

  GemmProblem p;
  p.element = element;
  p.batch = groups;
  p.m = oShape[1];                 // filters
  p.n = images * oh * ow;          // every output pixel of every image
  p.k = channels * kh * kw;        // channel x window
  p.aKContiguous = true;           // W[f, (c, i, j)] is row-major in k
  p.bKContiguous = false;          // adjacent pixels are adjacent in x
  p.loadA = [=](OpBuilder &b, Location loc, Value g, Value f, Value k) {
    SmallVector<Value> cij = delinearize(b, loc, k, {channels, kh, kw});
    return loadThroughPadding(b, loc, padded, filter,
                              withGroup({f, cij[0], cij[1], cij[2]}, g, 0));
  };
  p.loadB = [=](OpBuilder &b, Location loc, Value g, Value k, Value pixel) {
    SmallVector<Value> cij = delinearize(b, loc, k, {channels, kh, kw});
    SmallVector<Value> nyx = delinearize(b, loc, pixel, {images, oh, ow});
    auto at = [&](Value out, int64_t stride, Value win, int64_t dilation) {
      Value scaled = arith::MulIOp::create(b, loc, out,
                                           indexConstant(b, loc, stride));
      Value offset = arith::MulIOp::create(b, loc, win,
                                           indexConstant(b, loc, dilation));
      return arith::AddIOp::create(b, loc, scaled, offset).getResult();
    };
    Value y = at(nyx[1], strides[0], cij[1], dilations[0]);
    Value x = at(nyx[2], strides[1], cij[2], dilations[1]);
    return loadThroughPadding(b, loc, padded, input,
                              withGroup({nyx[0], cij[0], y, x}, g, 1));
  };
  // The output from its fill's zero (-adj-gpu-fold-fills) is the sum
  // alone.
  bool overwrite =
      initConstant(cast<linalg::LinalgOp>(op.getOperation()),
                   *op.getDpsInitOperand(0))
          .has_value();
  p.accumulateC = [=](OpBuilder &b, Location loc, Value g, Value f,
                      Value pixel, Value acc) {
    SmallVector<Value> nyx = delinearize(b, loc, pixel, {images, oh, ow});
    SmallVector<Value> at = withGroup({nyx[0], f, nyx[1], nyx[2]}, g, 1);
    Value sum = overwrite ? acc
                          : arith::AddFOp::create(
                                b, loc,
                                memref::LoadOp::create(b, loc, output, at),
                                acc);
    memref::StoreOp::create(b, loc, sum, output, at);
  };
  return p;
}

struct ConvPass : adjoint::impl::ConvBase<ConvPass> {
  using ConvBase::ConvBase;

  void runOnOperation() override {
    GemmTiles tiles{tileM, tileN, tileK, threadM, threadN};
    SmallVector<PaddedOperand> paddings;
    auto matchOp = [&](Operation *op) -> FailureOr<GemmProblem> {
      if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op))
        return matchConv(conv, /*grouped=*/false, paddings);
      if (auto conv = dyn_cast<linalg::Conv2DNgchwGfchwOp>(op))
        return matchConv(conv, /*grouped=*/true, paddings);
      return failure();
    };
    if (failed(replaceWithTiledGemm(getOperation(), tiles, getArgument(),
                                    matchOp)))
      return signalPassFailure();
    // A convolution left as it was (a grid too large) still reads its
    // padded buffer, which then stays.
    for (const PaddedOperand &padded : paddings)
      (void)erasePaddingIfUnread(padded);
  }
};

} // namespace
