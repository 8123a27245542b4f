//===- Convolution.cpp - Rules of conv2d and pooling ----------------------===//
//
// Every derivative here is built from primitives that have rules themselves
// (conv2d, pad, slice, reshape, transpose, gather, concat), so second
// derivatives need nothing special:
//
// - conv2d's input sensitivity is a transposed convolution: the sensitivity
//   dilated by the stride (zeros interleaved), padded or cropped, convolved
//   with the filter flipped in space and with in/out channels swapped per
//   group. Input rows the forward window never reached (when the stride
//   does not divide the padded extent) get zeros from that padding. Without
//   dilation, a strided one is split by phase instead (one stride-1
//   convolution per sub-filter, interleaved): no multiplications by the
//   interleaved zeros.
// - conv2d's filter sensitivity is a convolution of the input with the
//   output sensitivity as the filter: batch and channels swap roles, the
//   stride becomes the dilation and the dilation the stride.
// - avg_pool2d is a depthwise conv2d with a constant 1/(kh*kw) filter, and
//   its bprop is that convolution's input sensitivity.
// - max_pool2d routes the sensitivity to the window positions equal to the
//   window's maximum (shared equally on ties, as for reduce_max): each
//   window element is a strided slice of the padded input, and the shares
//   interleave back by phase like conv2d's input sensitivity. Its tangent
//   gathers the windows into a [N, C, OH, KH, OW, KW] tensor with constant
//   index tensors.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

using Ts = ArrayRef<Val>;

/// [n - 1, ..., 1, 0]: the index that reverses a dimension through gather.
static Val reversed(Emitter &e, int64_t n) {
  SmallVector<int64_t> values;
  for (int64_t i = n - 1; i >= 0; --i)
    values.push_back(i);
  return e.indices({n}, values);
}

/// [O, C/g, a, b] -> [C, O/g, a, b]: in and out channels swapped per group.
static Val swapChannels(Emitter &e, Val f, int64_t groups) {
  ArrayRef<int64_t> fs = f.shape();
  int64_t og = fs[0] / groups, cg = fs[1];
  f = e.reshape(f, {groups, og, cg, fs[2], fs[3]});
  return e.reshape(e.transpose(f, {0, 2, 1, 3, 4}),
                   {groups * cg, og, fs[2], fs[3]});
}

/// Interleaves phases [N, C, QH, QW] (row-major over (rh, rw)) into
/// [N, C, QH * SH, QW * SW], element (q * SH + rh, p * SW + rw) coming from
/// phase (rh, rw) at (q, p). The phases are stacked along new leading axes
/// (whole-tensor copies) and moved into place by one transpose: stacking
/// along trailing unit axes would copy element by element.
static Val interleavePhases(Emitter &e, ArrayRef<Val> phases, int64_t sh,
                            int64_t sw) {
  ArrayRef<int64_t> ps = phases.front().shape();
  int64_t n = ps[0], c = ps[1], qh = ps[2], qw = ps[3];
  SmallVector<Value> rows;
  for (int64_t rh = 0; rh < sh; ++rh) {
    SmallVector<Value> columns;
    for (int64_t rw = 0; rw < sw; ++rw)
      columns.push_back(
          e.reshape(phases[rh * sw + rw], {1, 1, n, c, qh, qw}));
    rows.push_back(columns.size() == 1
                       ? columns.front()
                       : Value(e.make<ConcatOp>(columns, int64_t(1))));
  }
  Val all = rows.size() == 1 ? e.val(rows.front())
                             : e.make<ConcatOp>(rows, int64_t(0));
  // [SH, SW, N, C, QH, QW] -> [N, C, QH, SH, QW, SW].
  all = e.transpose(all, {2, 3, 4, 0, 5, 1});
  return e.reshape(all, {n, c, qh * sh, qw * sw});
}

/// The phases of input row t = q * s + r (its row q in phase r) in the padded
/// input: row t' = t + low = (q + first) * s + residue.
struct Phase {
  int64_t residue, first;
  Phase(int64_t r, int64_t low, int64_t s)
      : residue((r + low) % s), first((r + low) / s) {}
};

/// The input sensitivity of a strided, undilated conv2d without dilating dy.
/// Input row t = q * s + r is padded row t' = (q + c) * s + r' and is
/// reached by the filter rows u = r' + m * s from output rows q + c - m, so
/// each phase (rh, rw) of the input is a stride-1 full convolution of dy
/// with the flipped sub-filter w[.., r'h::sh, r'w::sw], and the phases
/// interleave into the sensitivity: sh * sw convolutions whose work adds up
/// to the forward's, where one convolution of dy dilated by zeros does
/// sh * sw times as much.
static Val convInputGradByPhase(Emitter &e, Val dy, Val w,
                                RankedTensorType inputType,
                                ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> padding, int64_t groups) {
  ArrayRef<int64_t> in = inputType.getShape(), ws = w.shape(),
                    ys = dy.shape();
  int64_t n = in[0], c = in[1], o = ws[0], cg = ws[1], kh = ws[2],
          kw = ws[3];
  int64_t sh = stride[0], sw = stride[1];
  // Rows per phase (the last phases have one row too many when the stride
  // does not divide the extent: cropped at the end).
  int64_t qh = (in[2] + sh - 1) / sh, qw = (in[3] + sw - 1) / sw;
  auto taps = [](int64_t k, int64_t r, int64_t s) {
    return r < k ? (k - r + s - 1) / s : 0;
  };
  Type element = dy.type().getElementType();
  SmallVector<Val> phases;
  for (int64_t rh = 0; rh < sh; ++rh)
    for (int64_t rw = 0; rw < sw; ++rw) {
      Phase ph(rh, padding[0], sh), pw(rw, padding[2], sw);
      int64_t th = taps(kh, ph.residue, sh), tw = taps(kw, pw.residue, sw);
      Val part;
      if (th == 0 || tw == 0) {
        // No filter row or column lands on this phase (a 1x1 filter).
        part = e.fill(0, RankedTensorType::get({n, c, qh, qw}, element));
      } else {
        // The sub-filter flipped: element (a, b) is
        // w[.., r'h + (th-1-a) * sh, r'w + (tw-1-b) * sw].
        SmallVector<int64_t> flat;
        for (int64_t a = 0; a < th; ++a)
          for (int64_t b = 0; b < tw; ++b)
            flat.push_back((ph.residue + (th - 1 - a) * sh) * kw +
                           pw.residue + (tw - 1 - b) * sw);
        Val f = e.gather(e.reshape(w, {o, cg, kh * kw}),
                         e.indices({th * tw}, flat), 2);
        f = swapChannels(e, e.reshape(f, {o, cg, th, tw}), groups);
        // part[q] = sum_m dy[q + c - m] * w[r' + m * s]: dy padded (or
        // cropped) by th - 1 - c before and to qh outputs after.
        int64_t lowH = th - 1 - ph.first, highH = qh + th - 1 - ys[2] - lowH;
        int64_t lowW = tw - 1 - pw.first, highW = qw + tw - 1 - ys[3] - lowW;
        Val d = e.padOrCrop(
            dy, {0, 0, std::min<int64_t>(lowH, 0), std::min<int64_t>(lowW, 0)},
            {0, 0, std::min<int64_t>(highH, 0), std::min<int64_t>(highW, 0)});
        part = e.conv2d(d, f, {1, 1},
                        {std::max<int64_t>(lowH, 0),
                         std::max<int64_t>(highH, 0),
                         std::max<int64_t>(lowW, 0),
                         std::max<int64_t>(highW, 0)},
                        {1, 1}, groups);
      }
      phases.push_back(part);
    }
  return e.slice(interleavePhases(e, phases, sh, sw), {0, 0, 0, 0},
                 {n, c, in[2], in[3]});
}

/// The sensitivity of conv2d's input, of type `inputType`, given that of its
/// result `dy` ([N, O, OH, OW]) and the filter `w` ([O, C/g, KH, KW]).
/// `symmetric` filters need no flip.
static Val convInputGrad(Emitter &e, Val dy, Val w, RankedTensorType inputType,
                         ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                         ArrayRef<int64_t> dilation, int64_t groups,
                         bool symmetric = false) {
  if ((stride[0] > 1 || stride[1] > 1) && dilation[0] == 1 &&
      dilation[1] == 1)
    return convInputGradByPhase(e, dy, w, inputType, stride, padding, groups);
  ArrayRef<int64_t> in = inputType.getShape(), ws = w.shape();
  int64_t cg = ws[1], kh = ws[2], kw = ws[3];
  // The transposed filter: [O, C/g, KH, KW] -> [C, O/g, KH, KW], flipped.
  // Flipping both spatial axes reverses their row-major flattening: one
  // gather, one pass over the filter instead of two.
  Val f = w;
  if (!symmetric)
    f = e.reshape(e.gather(e.reshape(f, {ws[0], cg, kh * kw}),
                           reversed(e, kh * kw), 2),
                  {ws[0], cg, kh, kw});
  f = swapChannels(e, f, groups);
  // Dilated by the stride, dy has OH * sh rows (trailing zeros included);
  // output row p reads rows p + u * dh - ((KH - 1) * dh - top). The extent
  // on each side may be negative (padding wider than the dilated window,
  // or rows the forward window never read): crop there.
  Val d = e.interleaveZeros(dy, {1, 1, stride[0], stride[1]});
  int64_t lowH = (kh - 1) * dilation[0] - padding[0];
  int64_t lowW = (kw - 1) * dilation[1] - padding[2];
  int64_t highH = in[2] + padding[0] - d.shape()[2];
  int64_t highW = in[3] + padding[2] - d.shape()[3];
  d = e.padOrCrop(d, {0, 0, std::min<int64_t>(lowH, 0),
                      std::min<int64_t>(lowW, 0)},
                  {0, 0, std::min<int64_t>(highH, 0),
                   std::min<int64_t>(highW, 0)});
  // The positive parts go into the convolution's own zero padding.
  SmallVector<int64_t> pads = {std::max<int64_t>(lowH, 0),
                               std::max<int64_t>(highH, 0),
                               std::max<int64_t>(lowW, 0),
                               std::max<int64_t>(highW, 0)};
  return e.conv2d(d, f, {1, 1}, pads, dilation, groups);
}

/// The sensitivity of conv2d's filter, of type `filterType`, given the input
/// `x` ([N, C, H, W]) and the result's sensitivity `dy` ([N, O, OH, OW]).
static Val convFilterGrad(Emitter &e, Val x, Val dy,
                          RankedTensorType filterType,
                          ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                          ArrayRef<int64_t> dilation, int64_t groups) {
  ArrayRef<int64_t> xs = x.shape(), ws = filterType.getShape();
  ArrayRef<int64_t> ys = dy.shape();
  int64_t cg = ws[1], kh = ws[2], kw = ws[3];
  // Rows and columns past the last window the forward conv placed (when the
  // stride does not divide the padded extent) would give outputs beyond
  // KH x KW: take them off the bottom and right padding, or off x itself
  // where the padding is narrower, so that the convolution computes
  // exactly the filter's extent.
  auto slack = [&](int64_t extent, int64_t low, int64_t high, int64_t k,
                   int64_t out, int64_t s, int64_t d) {
    return extent + low + high - ((k - 1) * d + (out - 1) * s + 1);
  };
  int64_t bottom = padding[1] - slack(xs[2], padding[0], padding[1], kh,
                                      ys[2], stride[0], dilation[0]);
  int64_t right = padding[3] - slack(xs[3], padding[2], padding[3], kw,
                                     ys[3], stride[1], dilation[1]);
  x = e.padOrCrop(x, {0, 0, 0, 0},
                  {0, 0, std::min<int64_t>(bottom, 0),
                   std::min<int64_t>(right, 0)});
  int64_t n = xs[0], h = x.shape()[2], w = x.shape()[3];
  SmallVector<int64_t> pads = {padding[0], std::max<int64_t>(bottom, 0),
                               padding[2], std::max<int64_t>(right, 0)};
  // x as [C/g, g * N, H, W]: the "batch" is the channel within a group and
  // the "channels" are (group, sample), so that grouping by g pairs each
  // group's inputs with its outputs. dy as [O, N, OH, OW] is the "filter".
  Val xt = e.reshape(x, {n, groups, cg, h, w});
  xt = e.reshape(e.transpose(xt, {2, 1, 0, 3, 4}), {cg, groups * n, h, w});
  Val dyt = e.transpose(dy, {1, 0, 2, 3});
  Val r = e.conv2d(xt, dyt, dilation, pads, stride, groups);
  return e.transpose(r, {1, 0, 2, 3});
}

/// avg_pool2d as a depthwise convolution: its constant filter [C, 1, KH, KW].
static Val avgFilter(Emitter &e, AvgPool2DOp op) {
  ArrayRef<int64_t> k = op.getKernel();
  auto type = RankedTensorType::get({tensorOf(op.getInput()).getDimSize(1), 1,
                                     k[0], k[1]},
                                    elementOf(op));
  return e.fill(1.0 / static_cast<double>(k[0] * k[1]), type);
}

/// The windows of max_pool2d: gathers of the padded input along H and W
/// with constant indices `rows` [OH, KH] and `cols` [OW, KW].
struct Windows {
  Val rows, cols;

  Windows(Emitter &e, MaxPool2DOp op) {
    ArrayRef<int64_t> out = tensorOf(op).getShape();
    ArrayRef<int64_t> k = op.getKernel(), s = op.getStride();
    rows = positions(e, out[2], k[0], s[0]);
    cols = positions(e, out[3], k[1], s[1]);
  }

  /// [outSize, kernel]: element (i, u) is i * stride + u.
  static Val positions(Emitter &e, int64_t outSize, int64_t kernel,
                       int64_t stride) {
    SmallVector<int64_t> values;
    for (int64_t i = 0; i < outSize; ++i)
      for (int64_t u = 0; u < kernel; ++u)
        values.push_back(i * stride + u);
    return e.indices({outSize, kernel}, values);
  }

  /// [N, C, OH, KH, OW, KW] windows of `x` padded with `fill`.
  Val gather(Emitter &e, MaxPool2DOp op, Val x, double fill) const {
    ArrayRef<int64_t> p = op.getPadding();
    Val xp = e.pad(x, {0, 0, p[0], p[2]}, {0, 0, p[1], p[3]}, fill);
    return e.gather(e.gather(xp, rows, 2), cols, 4);
  }

  /// 1/k at the k positions of each window equal to its maximum, else 0.
  Val weights(Emitter &e, MaxPool2DOp op) const {
    Val x = e.val(op.getInput());
    Val patches = gather(e, op, x, -std::numeric_limits<double>::infinity());
    Val hit = e.indicator(
        e.cmp(CmpPredicate::eq, patches, spread(e, e.val(op.getResult()))), x);
    return hit / e.reduceSum(hit, {3, 5}, /*keepdims=*/true);
  }

  /// [N, C, OH, OW] -> [N, C, OH, 1, OW, 1], to broadcast over windows.
  static Val spread(Emitter &e, Val y) {
    ArrayRef<int64_t> s = y.shape();
    return e.reshape(y, {s[0], s[1], s[2], 1, s[3], 1});
  }
};

/// The input sensitivity of max_pool2d without gathers and scatters. Window
/// element (i, j) of every window is a strided slice of the padded input
/// ([N, C, OH, OW]); it gets dy shared among the window's maxima. Each
/// phase (rh, rw) of the input is a sum of shifted shares, and the phases
/// interleave into the sensitivity (as for conv2d's input).
/// Everything is elementwise on the output's size or a copy.
static Val maxPoolInputGrad(Emitter &e, MaxPool2DOp op, Val dy) {
  ArrayRef<int64_t> k = op.getKernel(), st = op.getStride(),
                    p = op.getPadding();
  ArrayRef<int64_t> in = tensorOf(op.getInput()).getShape();
  ArrayRef<int64_t> out = tensorOf(op).getShape();
  int64_t n = in[0], c = in[1], oh = out[2], ow = out[3];
  int64_t kh = k[0], kw = k[1], sh = st[0], sw = st[1];
  Val x = e.val(op.getInput()), y = e.val(op.getResult());
  Val xp = e.pad(x, {0, 0, p[0], p[2]}, {0, 0, p[1], p[3]},
                 -std::numeric_limits<double>::infinity());
  SmallVector<Val> hits;
  Val count;
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      Val element = e.slice(xp, {0, 0, i, j},
                            {n, c, i + (oh - 1) * sh + 1, j + (ow - 1) * sw + 1},
                            {1, 1, sh, sw});
      hits.push_back(e.indicator(e.cmp(CmpPredicate::eq, element, y), x));
      count = count ? count + hits.back() : hits.back();
    }
  // Input row t = q * s + r is padded row (q + c) * s + r', reached by
  // window element r' + m * s of window row q + c - m.
  int64_t qh = (in[2] + sh - 1) / sh, qw = (in[3] + sw - 1) / sw;
  Type element = dy.type().getElementType();
  SmallVector<Val> phases;
  for (int64_t rh = 0; rh < sh; ++rh)
    for (int64_t rw = 0; rw < sw; ++rw) {
      Phase ph(rh, p[0], sh), pw(rw, p[2], sw);
      SmallVector<Val> terms;
      for (int64_t i = ph.residue, mh = 0; i < kh; i += sh, ++mh)
        for (int64_t j = pw.residue, mw = 0; j < kw; j += sw, ++mw) {
          Val share = hits[i * kw + j] / count * dy;
          int64_t lowH = mh - ph.first, lowW = mw - pw.first;
          terms.push_back(e.padOrCrop(share, {0, 0, lowH, lowW},
                                      {0, 0, qh - lowH - oh, qw - lowW - ow}));
        }
      auto type = RankedTensorType::get({n, c, qh, qw}, element);
      phases.push_back(terms.empty() ? e.fill(0, type) : e.sum(terms, type));
    }
  return e.slice(interleavePhases(e, phases, sh, sw), {0, 0, 0, 0},
                 {n, c, in[2], in[3]});
}

void adjoint::ad::rules::addConvolutionRules(RuleMap &m) {
  define<Conv2DOp>(
      m,
      [](Emitter &e, Conv2DOp op, Val dy) -> Sens {
        Val x = e.val(op.getInput()), w = e.val(op.getFilter());
        return {convInputGrad(e, dy, w, x.type(), op.getStride(),
                              op.getPadding(), op.getDilation(),
                              op.getGroups()),
                convFilterGrad(e, x, dy, w.type(), op.getStride(),
                               op.getPadding(), op.getDilation(),
                               op.getGroups())};
      },
      // Bilinear: conv(tx, w) + conv(x, tw).
      [](Emitter &e, Conv2DOp op, Ts t) {
        auto conv = [&](Value x, Value w) {
          return e.conv2d(e.val(x), e.val(w), op.getStride(), op.getPadding(),
                          op.getDilation(), op.getGroups());
        };
        return e.sum({t[0] ? conv(t[0], op.getFilter()) : Val(),
                      t[1] ? conv(op.getInput(), t[1]) : Val()},
                     op.getType());
      });

  define<AvgPool2DOp>(
      m,
      [](Emitter &e, AvgPool2DOp op, Val dy) -> Sens {
        RankedTensorType in = tensorOf(op.getInput());
        return {convInputGrad(e, dy, avgFilter(e, op), in, op.getStride(),
                              op.getPadding(), {1, 1}, in.getDimSize(1),
                              /*symmetric=*/true)};
      },
      // Linear: the same depthwise convolution of the tangent.
      [](Emitter &e, AvgPool2DOp op, Ts t) {
        return e.conv2d(t[0], avgFilter(e, op), op.getStride(),
                        op.getPadding(), {1, 1},
                        tensorOf(op.getInput()).getDimSize(1));
      });

  define<MaxPool2DOp>(
      m,
      [](Emitter &e, MaxPool2DOp op, Val dy) -> Sens {
        return {maxPoolInputGrad(e, op, dy)};
      },
      // The tangent at the argmax (averaged over ties).
      [](Emitter &e, MaxPool2DOp op, Ts t) {
        Windows windows(e, op);
        Val tangents = windows.gather(e, op, t[0], 0);
        return e.reduceSum(windows.weights(e, op) * tangents, {3, 5});
      });
}
