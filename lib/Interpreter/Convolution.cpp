//===- Convolution.cpp - conv2d, max_pool2d and avg_pool2d ----------------===//
//
// NCHW tensors, OIHW filters. conv2d lowers each (image, group) pair to
// im2col and one Eigen GEMM, in float for f32/f16/bf16 and in double for
// f64; pooling is a direct loop accumulating in double.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"

#include <Eigen/Dense>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

namespace {
/// The geometry of a 2-D window op, checked against the run-time shape.
struct Window {
  int64_t n, c, h, w, kh, kw, oh, ow;
  int64_t sh, sw, dh, dw, top, left;
};
} // namespace

static Window checkWindow(Operation *op, const Tensor &x, int64_t kh,
                          int64_t kw, ArrayRef<int64_t> stride,
                          ArrayRef<int64_t> padding,
                          ArrayRef<int64_t> dilation) {
  requireFloat(op, x);
  if (x.rank() != 4)
    fail(op, "input must be [N, C, H, W], got " + shapeString(x.shape()));
  if (stride.size() != 2 || dilation.size() != 2 || padding.size() != 4)
    fail(op, "stride and dilation need 2 entries and padding 4 "
             "([top, bottom, left, right])");
  for (int64_t s : {stride[0], stride[1], dilation[0], dilation[1], kh, kw})
    if (s < 1)
      fail(op, "stride, dilation and window sizes must be positive");
  for (int64_t p : padding)
    if (p < 0)
      fail(op, "padding must not be negative");
  const std::vector<int64_t> &s = x.shape();
  auto oh = adj::windowOutputSize(s[2], kh, stride[0], dilation[0],
                                  padding[0], padding[1]);
  auto ow = adj::windowOutputSize(s[3], kw, stride[1], dilation[1],
                                  padding[2], padding[3]);
  if (!oh || !ow)
    fail(op, "a " + Twine(kh) + "x" + Twine(kw) + " window does not fit in " +
                 shapeString(s) + " with padding " + shapeString(padding));
  return Window{s[0],      s[1],      s[2],        s[3],        kh,
                kw,        *oh,       *ow,         stride[0],   stride[1],
                dilation[0], dilation[1], padding[0], padding[2]};
}

/// conv2d in the compute type `C`; returns [N, O, OH, OW] row-major.
template <typename C>
static std::vector<C> conv2d(const Tensor &input, const Tensor &filter,
                             const Window &win, int64_t o, int64_t groups) {
  using Mat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  std::vector<C> x = elementsAs<C>(input), w = elementsAs<C>(filter);
  int64_t cg = win.c / groups, og = o / groups;
  int64_t rows = cg * win.kh * win.kw, cols = win.oh * win.ow;
  std::vector<C> out(win.n * o * cols);
  Mat col(rows, cols);
  for (int64_t n = 0; n < win.n; ++n)
    for (int64_t g = 0; g < groups; ++g) {
      // im2col: row (c, kh, kw), column (oh, ow); zeros in the padding.
      for (int64_t c = 0; c < cg; ++c)
        for (int64_t i = 0; i < win.kh; ++i)
          for (int64_t j = 0; j < win.kw; ++j) {
            int64_t row = (c * win.kh + i) * win.kw + j;
            const C *plane =
                x.data() + (n * win.c + g * cg + c) * win.h * win.w;
            for (int64_t p = 0; p < win.oh; ++p) {
              int64_t ih = p * win.sh - win.top + i * win.dh;
              for (int64_t q = 0; q < win.ow; ++q) {
                int64_t iw = q * win.sw - win.left + j * win.dw;
                bool inside = ih >= 0 && ih < win.h && iw >= 0 && iw < win.w;
                col(row, p * win.ow + q) =
                    inside ? plane[ih * win.w + iw] : C(0);
              }
            }
          }
      Eigen::Map<const Mat> wg(w.data() + g * og * rows, og, rows);
      Eigen::Map<Mat> og_out(out.data() + (n * o + g * og) * cols, og, cols);
      og_out.noalias() = wg * col;
    }
  return out;
}

static Tensor evalConv2d(adj::Conv2DOp op, const Tensor &input,
                         const Tensor &filter) {
  requireSameDType(op, {input, filter});
  if (filter.rank() != 4)
    fail(op, "filter must be [O, C/groups, KH, KW], got " +
                 shapeString(filter.shape()));
  const std::vector<int64_t> &f = filter.shape();
  Window win = checkWindow(op, input, f[2], f[3], op.getStride(),
                           op.getPadding(), op.getDilation());
  int64_t groups = op.getGroups(), o = f[0];
  if (groups < 1 || win.c % groups || o % groups || f[1] != win.c / groups)
    fail(op, "input " + shapeString(input.shape()) + " and filter " +
                 shapeString(f) + " do not match with groups = " +
                 Twine(groups));
  Tensor out(input.dtype(), {win.n, o, win.oh, win.ow});
  dispatch(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
      std::vector<C> r = conv2d<C>(input, filter, win, o, groups);
      T *po = ptr<T>(out);
      for (size_t i = 0; i < r.size(); ++i)
        po[i] = static_cast<T>(r[i]);
    }
  });
  return out;
}

template <typename OpTy>
static Tensor evalPool(OpTy op, const Tensor &x, bool isMax) {
  ArrayRef<int64_t> kernel = op.getKernel();
  if (kernel.size() != 2)
    fail(op, "kernel needs 2 entries");
  int64_t ones[] = {1, 1};
  Window win = checkWindow(op, x, kernel[0], kernel[1], op.getStride(),
                           op.getPadding(), ones);
  Tensor out(x.dtype(), {win.n, win.c, win.oh, win.ow});
  std::vector<double> in = elementsAs<double>(x);
  double area = static_cast<double>(win.kh * win.kw);
  std::vector<double> result(out.numel());
  double *r = result.data();
  for (int64_t plane = 0; plane < win.n * win.c; ++plane) {
    const double *src = in.data() + plane * win.h * win.w;
    for (int64_t p = 0; p < win.oh; ++p)
      for (int64_t q = 0; q < win.ow; ++q) {
        double acc = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
        for (int64_t i = 0; i < win.kh; ++i)
          for (int64_t j = 0; j < win.kw; ++j) {
            int64_t ih = p * win.sh - win.top + i;
            int64_t iw = q * win.sw - win.left + j;
            // Padding is -inf for max and 0 for average: it adds nothing.
            if (ih < 0 || ih >= win.h || iw < 0 || iw >= win.w)
              continue;
            double v = src[ih * win.w + iw];
            if (!isMax)
              acc += v;
            else if (std::isnan(v) || v > acc)
              acc = std::isnan(acc) ? acc : v;
          }
        *r++ = isMax ? acc : acc / area;
      }
  }
  dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *po = ptr<T>(out);
    for (size_t i = 0; i < result.size(); ++i)
      po[i] = fromDouble<T>(result[i]);
  });
  return out;
}

std::optional<Tensor> adjoint::interp::detail::evalConvolution(Operation *op,
                                              ArrayRef<Tensor> operands) {
  if (auto conv = dyn_cast<adj::Conv2DOp>(op))
    return evalConv2d(conv, operands[0], operands[1]);
  if (auto pool = dyn_cast<adj::MaxPool2DOp>(op))
    return evalPool(pool, operands[0], /*isMax=*/true);
  if (auto pool = dyn_cast<adj::AvgPool2DOp>(op))
    return evalPool(pool, operands[0], /*isMax=*/false);
  return std::nullopt;
}
