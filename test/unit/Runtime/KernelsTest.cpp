//===- KernelsTest.cpp - Matmul and convolution kernels vs definitions ----===//
//
// The kernels that -adj-cpu-linalg-to-kernels calls, through their C entry
// points (memref descriptors, as compiled code passes them), against the
// definitions computed in double: every layout the GEMM path takes (row- or
// column-major operands, padded rows, transposed views), the fallback for
// other strides, products large enough to be split over threads, overwrite
// and accumulate, and each convolution scheme (one image per GEMM in
// place, 1x1 without a copy, blocks of images scattered into place,
// channel- and pixel-major patches, a packed filter) with strides,
// dilations and zero padding read in place.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Kernels.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

using namespace adjoint::rt;

namespace {

template <typename T> struct IsComplex : std::false_type {};
template <typename R> struct IsComplex<std::complex<R>> : std::true_type {};

/// T's type in double precision (the references are computed in it).
template <typename T>
using Wide = std::conditional_t<IsComplex<T>::value, std::complex<double>,
                                double>;

template <typename T>
std::vector<T> randomVector(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> v(n);
  for (T &x : v) {
    if constexpr (IsComplex<T>::value) {
      double re = dist(gen);
      x = T(re, dist(gen));
    } else {
      x = static_cast<T>(dist(gen));
    }
  }
  return v;
}

template <typename T> double tolerance() {
  return std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>
             ? 1e-5
             : 1e-12;
}

template <typename T, int Rank>
MemRefDescriptor<T, Rank> descriptor(T *data, std::array<int64_t, Rank> sizes,
                                     std::array<int64_t, Rank> strides) {
  MemRefDescriptor<T, Rank> d{data, data, 0, {}, {}};
  for (int i = 0; i < Rank; ++i) {
    d.sizes[i] = sizes[i];
    d.strides[i] = strides[i];
  }
  return d;
}

/// How a test stores an [r, c] matrix: row-major with 3 extra elements per
/// row, column-major (a transposed view) with 2 extra per column, or with
/// both strides > 1.
enum class Layout { RowMajor, ColMajor, Strided };

template <typename T> struct Stored {
  std::vector<T> data;
  int64_t rows, cols, rowStride, colStride;
  T at(int64_t i, int64_t j) const {
    return data[i * rowStride + j * colStride];
  }
};

template <typename T>
Stored<T> store(int64_t rows, int64_t cols, Layout layout, unsigned seed) {
  Stored<T> s{{}, rows, cols, 0, 0};
  switch (layout) {
  case Layout::RowMajor:
    s.rowStride = cols + 3;
    s.colStride = 1;
    break;
  case Layout::ColMajor:
    s.rowStride = 1;
    s.colStride = rows + 2;
    break;
  case Layout::Strided:
    s.rowStride = 2 * cols;
    s.colStride = 2;
    break;
  }
  s.data = randomVector<T>(rows * s.rowStride + cols * s.colStride, seed);
  return s;
}

/// The definition of (a @ b)[i, j] in double, with the sum of the terms'
/// magnitudes (the scale of the rounding error).
template <typename T>
std::pair<Wide<T>, double> dot(const Stored<T> &a, const Stored<T> &b,
                               int64_t i, int64_t j) {
  Wide<T> sum = 0.0;
  double scale = 1.0;
  for (int64_t p = 0; p < a.cols; ++p) {
    sum += Wide<T>(a.at(i, p)) * Wide<T>(b.at(p, j));
    scale += std::abs(Wide<T>(a.at(i, p)) * Wide<T>(b.at(p, j)));
  }
  return {sum, scale};
}

/// The matmul entry point of T.
template <typename T>
void matmulKernel(MemRefDescriptor<T, 2> *a, MemRefDescriptor<T, 2> *b,
                  MemRefDescriptor<T, 2> *c, bool accumulate) {
  if constexpr (std::is_same_v<T, float>)
    _mlir_ciface_adj_kernel_matmul_f32(a, b, c, accumulate);
  else if constexpr (std::is_same_v<T, double>)
    _mlir_ciface_adj_kernel_matmul_f64(a, b, c, accumulate);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    _mlir_ciface_adj_kernel_matmul_c64(a, b, c, accumulate);
  else
    _mlir_ciface_adj_kernel_matmul_c128(a, b, c, accumulate);
}

/// Runs the matmul entry point on [m, k] x [k, n] into C stored as `lc` and
/// compares with the definition. An overwritten C starts as NaN (it must
/// not be read); elements of C's storage outside the view stay untouched.
template <typename T>
void checkMatmul(int64_t m, int64_t k, int64_t n, Layout la, Layout lb,
                 bool accumulate, Layout lc = Layout::RowMajor) {
  INFO("m=" << m << " k=" << k << " n=" << n << " layouts " << int(la) << ","
            << int(lb) << "," << int(lc) << " accumulate=" << accumulate);
  Stored<T> a = store<T>(m, k, la, 1), b = store<T>(k, n, lb, 2);
  Stored<T> c = store<T>(m, n, lc, 3);
  if (!accumulate)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        c.data[i * c.rowStride + j * c.colStride] = T(std::nan(""));
  std::vector<T> before = c.data;
  auto da = descriptor<T, 2>(a.data.data(), {m, k}, {a.rowStride, a.colStride});
  auto db = descriptor<T, 2>(b.data.data(), {k, n}, {b.rowStride, b.colStride});
  auto dc = descriptor<T, 2>(c.data.data(), {m, n}, {c.rowStride, c.colStride});
  matmulKernel(&da, &db, &dc, accumulate);
  std::vector<bool> inView(c.data.size(), false);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t at = i * c.rowStride + j * c.colStride;
      inView[at] = true;
      auto [sum, scale] = dot(a, b, i, j);
      if (accumulate)
        sum += Wide<T>(before[at]);
      REQUIRE(std::abs(Wide<T>(c.data[at]) - sum) <= tolerance<T>() * scale);
    }
  for (size_t at = 0; at < c.data.size(); ++at)
    if (!inView[at])
      REQUIRE(c.data[at] == before[at]);
}

/// One convolution problem: sizes, window, padding, and how the operands
/// are stored.
struct ConvCase {
  int64_t n, c, h, w, f, kh, kw;
  ConvParams p;
  /// Bottom and right padding (top and left are in `p`).
  int64_t padBottom = 0, padRight = 0;
  /// The filter is the [F, C, KH, KW] corner of a wider one (packed).
  bool contiguousFilter = true;
  /// The input is stored [C, N, H, W] and read through swapped strides.
  bool transposedInput = false;
  /// The output's rows are wider than OW (scattered, not written in place).
  bool paddedOutputRows = false;
};

/// Runs the convolution entry point on `k` and compares with the definition
/// on the zero-padded input, computed in double.
template <typename T>
void checkConv(const ConvCase &k, bool accumulate) {
  const ConvParams &p = k.p;
  int64_t n = k.n, c = k.c, h = k.h, w = k.w, f = k.f, kh = k.kh, kw = k.kw;
  int64_t oh = (h + p.padTop + k.padBottom - (kh - 1) * p.dilationH - 1) /
                   p.strideH + 1;
  int64_t ow = (w + p.padLeft + k.padRight - (kw - 1) * p.dilationW - 1) /
                   p.strideW + 1;
  INFO("n=" << n << " c=" << c << " " << h << "x" << w << " f=" << f
            << " k=" << kh << "x" << kw << " stride " << p.strideH << ","
            << p.strideW << " dilation " << p.dilationH << ","
            << p.dilationW << " padding " << p.padTop << "," << k.padBottom
            << "," << p.padLeft << "," << k.padRight
            << " accumulate=" << accumulate);
  std::vector<T> in = randomVector<T>(n * c * h * w, 4);
  int64_t fw = k.contiguousFilter ? kw : kw + 1;
  std::vector<T> filt = randomVector<T>(f * c * kh * fw, 5);
  int64_t ldo = k.paddedOutputRows ? ow + 2 : ow;
  std::vector<T> out = randomVector<T>(n * f * oh * ldo, 6), before = out;
  // Element (b, ch, y, x) of the input.
  int64_t sn = k.transposedInput ? h * w : c * h * w;
  int64_t sc = k.transposedInput ? n * h * w : h * w;
  auto input = [&](int64_t b, int64_t ch, int64_t y, int64_t x) {
    return in[b * sn + ch * sc + y * w + x];
  };
  auto di = descriptor<T, 4>(in.data(), {n, c, h, w}, {sn, sc, w, 1});
  auto df = descriptor<T, 4>(filt.data(), {f, c, kh, kw},
                             {c * kh * fw, kh * fw, fw, 1});
  auto dout = descriptor<T, 4>(out.data(), {n, f, oh, ow},
                               {f * oh * ldo, oh * ldo, ldo, 1});
  if constexpr (std::is_same_v<T, float>)
    _mlir_ciface_adj_kernel_conv2d_nchw_fchw_f32(
        &di, &df, &dout, p.strideH, p.strideW, p.dilationH, p.dilationW,
        p.padTop, p.padLeft, accumulate);
  else
    _mlir_ciface_adj_kernel_conv2d_nchw_fchw_f64(
        &di, &df, &dout, p.strideH, p.strideW, p.dilationH, p.dilationW,
        p.padTop, p.padLeft, accumulate);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t o = 0; o < f; ++o)
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          int64_t idx = ((b * f + o) * oh + y) * ldo + x;
          double sum = accumulate ? before[idx] : 0.0, scale = 1.0;
          for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                int64_t iy = y * p.strideH + i * p.dilationH - p.padTop;
                int64_t ix = x * p.strideW + j * p.dilationW - p.padLeft;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                  continue;
                double v = double(input(b, ch, iy, ix)) *
                           double(filt[((o * c + ch) * kh + i) * fw + j]);
                sum += v;
                scale += std::abs(v);
              }
          REQUIRE(std::abs(out[idx] - sum) <= tolerance<T>() * scale);
        }
        // The gap between output rows stays untouched.
        for (int64_t x = ow; x < ldo; ++x) {
          int64_t idx = ((b * f + o) * oh + y) * ldo + x;
          REQUIRE(out[idx] == before[idx]);
        }
      }
}

} // namespace

TEMPLATE_TEST_CASE("matmul kernel: every layout, overwrite and accumulate",
                   "[kernels]", float, double, std::complex<float>,
                   std::complex<double>) {
  for (Layout la : {Layout::RowMajor, Layout::ColMajor, Layout::Strided})
    for (Layout lb : {Layout::RowMajor, Layout::ColMajor, Layout::Strided})
      for (bool accumulate : {false, true}) {
        checkMatmul<TestType>(1, 1, 1, la, lb, accumulate);
        checkMatmul<TestType>(7, 13, 5, la, lb, accumulate);
        checkMatmul<TestType>(33, 1, 17, la, lb, accumulate);
      }
}

TEMPLATE_TEST_CASE("matmul kernel: shapes split over threads and the "
                   "column-major scratch path",
                   "[kernels]", float, double, std::complex<float>,
                   std::complex<double>) {
  for (bool accumulate : {false, true}) {
    // Tall: row blocks; wide: column blocks (both above the threshold).
    checkMatmul<TestType>(300, 160, 70, Layout::RowMajor, Layout::RowMajor,
                          accumulate);
    checkMatmul<TestType>(40, 170, 390, Layout::RowMajor, Layout::ColMajor,
                          accumulate);
    // A transposed and narrow: computed column-major, then transposed.
    checkMatmul<TestType>(200, 64, 10, Layout::ColMajor, Layout::RowMajor,
                          accumulate);
  }
  // Empty products: nothing to add, or zeros to write.
  checkMatmul<TestType>(4, 0, 3, Layout::RowMajor, Layout::RowMajor, true);
  checkMatmul<TestType>(4, 0, 3, Layout::RowMajor, Layout::RowMajor, false);
  checkMatmul<TestType>(0, 5, 3, Layout::RowMajor, Layout::RowMajor, false);
}

TEMPLATE_TEST_CASE("matmul kernel: products above oneDNN's threshold in "
                   "every layout of A, B and C",
                   "[kernels]", float, double) {
  // 40x50x60 is 240 kflop: f32 runs on oneDNN where libdnnl is installed
  // (a column-major C as its transpose), f64 on Eigen; views with both
  // strides > 1 fall back to Eigen or the loops.
  const Layout layouts[] = {Layout::RowMajor, Layout::ColMajor,
                            Layout::Strided};
  for (Layout la : layouts)
    for (Layout lb : layouts)
      for (Layout lc : layouts)
        for (bool accumulate : {false, true})
          checkMatmul<TestType>(40, 50, 60, la, lb, accumulate, lc);
}

TEMPLATE_TEST_CASE("matmul kernel: skinny, single-row, single-column and "
                   "empty products",
                   "[kernels]", float, double) {
  for (bool accumulate : {false, true}) {
    // A transposed B with a longer inner dimension than C's columns (Eigen)
    // and a shorter one (oneDNN).
    checkMatmul<TestType>(16, 256, 100, Layout::RowMajor, Layout::ColMajor,
                          accumulate);
    checkMatmul<TestType>(16, 40, 300, Layout::RowMajor, Layout::ColMajor,
                          accumulate);
    // A transposed A (h^T @ dy) with 16 rows of C.
    checkMatmul<TestType>(16, 300, 64, Layout::ColMajor, Layout::RowMajor,
                          accumulate);
    // One row, one column, an inner dimension of 1: the size-1 dimension's
    // stride must not decide the leading dimension.
    checkMatmul<TestType>(1, 300, 400, Layout::ColMajor, Layout::RowMajor,
                          accumulate, Layout::ColMajor);
    checkMatmul<TestType>(300, 400, 1, Layout::RowMajor, Layout::ColMajor,
                          accumulate);
    checkMatmul<TestType>(200, 1, 300, Layout::ColMajor, Layout::RowMajor,
                          accumulate, Layout::ColMajor);
  }
  // An empty inner dimension: zeros over NaN, or C as it was.
  checkMatmul<TestType>(64, 0, 64, Layout::RowMajor, Layout::RowMajor, false);
  checkMatmul<TestType>(64, 0, 64, Layout::RowMajor, Layout::RowMajor, true);
  checkMatmul<TestType>(64, 0, 64, Layout::ColMajor, Layout::RowMajor, false,
                        Layout::ColMajor);
}

TEMPLATE_TEST_CASE("batch matmul kernel: a batch stride of 0 broadcasts one "
                   "operand",
                   "[kernels]", float, double) {
  const int64_t batches = 3, m = 40, k = 50, n = 60;
  // A: one [m, k] matrix or a batch of them. B: stored [n, k] (one or a
  // batch) and read as [k, n], transposed.
  std::vector<TestType> aOne = randomVector<TestType>(m * k, 9);
  std::vector<TestType> aMany = randomVector<TestType>(batches * m * k, 10);
  std::vector<TestType> bOne = randomVector<TestType>(n * k, 11);
  std::vector<TestType> bMany = randomVector<TestType>(batches * n * k, 12);
  for (bool broadcastA : {true, false}) {
    INFO("broadcast " << (broadcastA ? "A" : "B"));
    TestType *a = broadcastA ? aOne.data() : aMany.data();
    TestType *b = broadcastA ? bMany.data() : bOne.data();
    int64_t aBatchStride = broadcastA ? 0 : m * k;
    int64_t bBatchStride = broadcastA ? n * k : 0;
    std::vector<TestType> c(batches * m * n, std::nan(""));
    auto da = descriptor<TestType, 3>(a, {batches, m, k}, {aBatchStride, k, 1});
    auto db = descriptor<TestType, 3>(b, {batches, k, n}, {bBatchStride, 1, k});
    auto dc = descriptor<TestType, 3>(c.data(), {batches, m, n},
                                      {m * n, n, 1});
    if constexpr (std::is_same_v<TestType, float>)
      _mlir_ciface_adj_kernel_batch_matmul_f32(&da, &db, &dc, 0);
    else
      _mlir_ciface_adj_kernel_batch_matmul_f64(&da, &db, &dc, 0);
    for (int64_t g = 0; g < batches; ++g)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0, scale = 1;
          for (int64_t p = 0; p < k; ++p) {
            double x = double(a[g * aBatchStride + i * k + p]);
            double y = double(b[g * bBatchStride + j * k + p]);
            sum += x * y;
            scale += std::abs(x * y);
          }
          REQUIRE(std::abs(c[(g * m + i) * n + j] - sum) <=
                  tolerance<TestType>() * scale);
        }
  }
}

TEMPLATE_TEST_CASE("batch matmul kernel with a transposed operand",
                   "[kernels]", float, std::complex<float>,
                   std::complex<double>) {
  using T = TestType;
  const int64_t batches = 5, m = 6, k = 7, n = 4;
  std::vector<T> a = randomVector<T>(batches * m * k, 7);
  // B stored as [batch, n, k] and read as its transpose [batch, k, n].
  std::vector<T> b = randomVector<T>(batches * n * k, 8);
  std::vector<T> c(batches * m * n, T(99.0f));
  auto da = descriptor<T, 3>(a.data(), {batches, m, k}, {m * k, k, 1});
  auto db = descriptor<T, 3>(b.data(), {batches, k, n}, {n * k, 1, k});
  auto dc = descriptor<T, 3>(c.data(), {batches, m, n}, {m * n, n, 1});
  if constexpr (std::is_same_v<T, float>)
    _mlir_ciface_adj_kernel_batch_matmul_f32(&da, &db, &dc, 0);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    _mlir_ciface_adj_kernel_batch_matmul_c64(&da, &db, &dc, 0);
  else
    _mlir_ciface_adj_kernel_batch_matmul_c128(&da, &db, &dc, 0);
  for (int64_t g = 0; g < batches; ++g)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        Wide<T> sum = 0.0;
        for (int64_t p = 0; p < k; ++p)
          sum += Wide<T>(a[(g * m + i) * k + p]) *
                 Wide<T>(b[(g * n + j) * k + p]);
        REQUIRE(std::abs(Wide<T>(c[(g * m + i) * n + j]) - sum) <=
                10 * tolerance<T>());
      }
}

TEMPLATE_TEST_CASE("conv2d kernel: every scheme, strides and dilations",
                   "[kernels]", float, double) {
  for (bool accumulate : {false, true}) {
    // One image per block, in place (>= 256 output pixels), whole images
    // per thread; with 3 images each GEMM is split instead.
    checkConv<TestType>({4, 3, 18, 18, 8, 3, 3, {1, 1, 1, 1}}, accumulate);
    checkConv<TestType>({3, 5, 20, 18, 6, 3, 2, {1, 1, 1, 1}}, accumulate);
    // 1x1 with unit stride on wide images: the input is the GEMM operand.
    checkConv<TestType>({2, 4, 17, 17, 5, 1, 1, {1, 1, 1, 1}}, accumulate);
    // Several images per block, scattered into place (small outputs).
    checkConv<TestType>({5, 4, 6, 6, 6, 3, 3, {1, 1, 1, 1}}, accumulate);
    checkConv<TestType>({3, 4, 9, 9, 5, 1, 1, {1, 1, 1, 1}}, accumulate);
    // Windows wider than the output: patches stored pixel-major (the shape
    // of a filter gradient, whose "filter" is the output sensitivity).
    checkConv<TestType>({3, 4, 10, 10, 6, 8, 8, {1, 1, 1, 1}}, accumulate);
    checkConv<TestType>({5, 6, 12, 12, 7, 6, 6, {1, 1, 2, 2, 1, 1}, 1, 1},
                        accumulate);
    // Strides and dilations.
    checkConv<TestType>({2, 3, 40, 36, 4, 3, 3, {2, 1, 1, 2}}, accumulate);
    checkConv<TestType>({2, 3, 11, 13, 4, 3, 2, {2, 3, 2, 1}}, accumulate);
  }
}

TEMPLATE_TEST_CASE("conv2d kernel: zero padding read in place",
                   "[kernels]", float, double) {
  for (bool accumulate : {false, true}) {
    // ResNet's shapes: 3x3 padding 1 at strides 1 and 2, the 7x7/2 stem
    // with padding 3, 1x1/2 projections without padding.
    checkConv<TestType>({2, 3, 16, 16, 4, 3, 3, {1, 1, 1, 1, 1, 1}, 1, 1},
                        accumulate);
    checkConv<TestType>({3, 4, 9, 9, 5, 3, 3, {2, 2, 1, 1, 1, 1}, 1, 1},
                        accumulate);
    checkConv<TestType>({2, 3, 21, 21, 4, 7, 7, {2, 2, 1, 1, 3, 3}, 2, 2},
                        accumulate);
    checkConv<TestType>({2, 6, 7, 7, 3, 1, 1, {2, 2, 1, 1}}, accumulate);
    // Batch 1, odd and uneven padding; windows wholly in the padding.
    checkConv<TestType>({1, 2, 5, 7, 3, 3, 3, {1, 2, 1, 1, 0, 2}, 2, 1},
                        accumulate);
    checkConv<TestType>({1, 2, 3, 3, 2, 7, 7, {1, 1, 1, 1, 3, 3}, 3, 3},
                        accumulate);
    // Padding with dilation and pixel-major patches.
    checkConv<TestType>({2, 3, 8, 8, 2, 5, 5, {1, 1, 2, 2, 2, 2}, 2, 2},
                        accumulate);
  }
}

TEMPLATE_TEST_CASE("conv2d kernel: strided operands", "[kernels]", float,
                   double) {
  for (bool accumulate : {false, true}) {
    // A filter that is not contiguous: packed first.
    checkConv<TestType>({2, 2, 7, 7, 3, 3, 3, {1, 2, 1, 1}, 0, 0, false},
                        accumulate);
    // A transposed input (the filter gradient's [C, N, H, W] view).
    checkConv<TestType>({3, 4, 9, 9, 5, 3, 3, {1, 1, 1, 1, 1, 1}, 1, 1, true,
                         true},
                        accumulate);
    // Output rows with gaps: the product is scattered into them.
    checkConv<TestType>({2, 3, 18, 18, 4, 3, 3, {1, 1, 1, 1, 1, 1}, 1, 1,
                         true, false, true},
                        accumulate);
    checkConv<TestType>({4, 3, 6, 6, 4, 3, 3, {1, 1, 1, 1}, 0, 0, true,
                         false, true},
                        accumulate);
  }
}
