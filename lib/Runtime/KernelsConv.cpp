//===- KernelsConv.cpp - 2-D convolution as im2col + GEMM -----------------===//
//
// Each image's receptive fields are copied into a [C*KH*KW, OH*OW] matrix
// (im2col), so that the convolution is one GEMM per image with the filter
// as a row-major [F, C*KH*KW] matrix: out[n] (+)= filter * col. This is the
// scheme of Caffe and of TensorFlow's Eigen SpatialConvolution; the copy is
// O(KH*KW) times the input, small next to the GEMM's F-fold reuse of it. A
// 1x1 convolution with unit stride needs no copy at all. Batches split over
// images; a batch too small to balance splits each GEMM instead.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Kernels.h"

#include <cstring>
#include <memory>
#include <new>

using namespace adjoint::rt;

namespace {

/// The sizes of one convolution, read from the descriptors.
struct Shape {
  int64_t n, c, h, w;   // input
  int64_t f, kh, kw;    // filter (its channel count is c)
  int64_t oh, ow;       // output
  int64_t rows() const { return c * kh * kw; } // of the im2col matrix
  int64_t cols() const { return oh * ow; }
};

template <typename T>
Shape shapeOf(const MemRefDescriptor<const T, 4> &in,
              const MemRefDescriptor<const T, 4> &filter,
              const MemRefDescriptor<T, 4> &out) {
  return {in.sizes[0],     in.sizes[1],     in.sizes[2],
          in.sizes[3],     filter.sizes[0], filter.sizes[2],
          filter.sizes[3], out.sizes[2],    out.sizes[3]};
}

/// The definition, for layouts the GEMM path does not take and for when
/// scratch memory cannot be had.
template <typename T>
void convLoops(const MemRefDescriptor<const T, 4> &in,
               const MemRefDescriptor<const T, 4> &filter,
               const MemRefDescriptor<T, 4> &out, const Shape &s,
               const ConvParams &p, bool accumulate, int64_t n) {
  const int64_t *is = in.strides, *fs = filter.strides, *os = out.strides;
  for (int64_t f = 0; f < s.f; ++f)
    for (int64_t y = 0; y < s.oh; ++y)
      for (int64_t x = 0; x < s.ow; ++x) {
        T *dst = out.data() + n * os[0] + f * os[1] + y * os[2] + x * os[3];
        T sum = accumulate ? *dst : T(0);
        for (int64_t c = 0; c < s.c; ++c)
          for (int64_t i = 0; i < s.kh; ++i)
            for (int64_t j = 0; j < s.kw; ++j)
              sum += in.data()[n * is[0] + c * is[1] +
                               (y * p.strideH + i * p.dilationH) * is[2] +
                               (x * p.strideW + j * p.dilationW) * is[3]] *
                     filter.data()[f * fs[0] + c * fs[1] + i * fs[2] +
                                   j * fs[3]];
        *dst = sum;
      }
}

/// Copies image `n`'s receptive fields into `col` ([C*KH*KW, OH*OW],
/// row-major).
template <typename T>
void im2col(const MemRefDescriptor<const T, 4> &in, const Shape &s,
            const ConvParams &p, int64_t n, T *col) {
  const int64_t *is = in.strides;
  bool contiguousRows = is[3] == 1 && p.strideW == 1;
  for (int64_t c = 0; c < s.c; ++c)
    for (int64_t i = 0; i < s.kh; ++i)
      for (int64_t j = 0; j < s.kw; ++j) {
        T *row = col + ((c * s.kh + i) * s.kw + j) * s.cols();
        for (int64_t y = 0; y < s.oh; ++y) {
          const T *src = in.data() + n * is[0] + c * is[1] +
                         (y * p.strideH + i * p.dilationH) * is[2] +
                         j * p.dilationW * is[3];
          T *dst = row + y * s.ow;
          if (contiguousRows) {
            std::memcpy(dst, src, s.ow * sizeof(T));
            continue;
          }
          for (int64_t x = 0; x < s.ow; ++x)
            dst[x] = src[x * p.strideW * is[3]];
        }
      }
}

/// Below this many output pixels per image, the batch is one GEMM.
constexpr int64_t kMinColumnsPerImage = 64;

template <typename T>
class Convolution {
public:
  Convolution(const MemRefDescriptor<const T, 4> &in,
              const MemRefDescriptor<const T, 4> &filter,
              const MemRefDescriptor<T, 4> &out, const ConvParams &p,
              bool accumulate)
      : in(in), filter(filter), out(out), p(p), accumulate(accumulate),
        s(shapeOf(in, filter, out)) {}

  void run() {
    if (s.n == 0 || s.f == 0 || s.cols() == 0)
      return;
    const int64_t *fs = filter.strides, *os = out.strides;
    // The GEMM reads the filter as [F, C*KH*KW] and writes each output
    // image as [F, OH*OW]: both need their trailing dimensions contiguous.
    bool gemmLayout = fs[3] == 1 && fs[2] == s.kw && fs[1] == s.kh * s.kw &&
                      os[3] == 1 && os[2] == s.ow;
    if (!gemmLayout || s.rows() == 0) {
      for (int64_t n = 0; n < s.n; ++n)
        convLoops(in, filter, out, s, p, accumulate, n);
      return;
    }
    if (s.cols() < kMinColumnsPerImage && s.n > 1 && runBatched())
      return;
    int64_t threads = kernelThreads();
    // Whole images per thread when that balances; otherwise each image's
    // GEMM is split.
    if (threads > 1 && (s.n % threads == 0 || s.n >= 4 * threads)) {
      int64_t grain = (s.n + threads - 1) / threads;
      auto images = [&](int64_t begin, int64_t end) {
        runImages(begin, end, /*parallel=*/false);
      };
      if (kernelParallelFor(s.n, grain, images))
        return;
    }
    runImages(0, s.n, /*parallel=*/threads > 1);
  }

private:
  /// One GEMM for the whole batch on patch-major scratch: row n*P + p of
  /// `patches` holds output pixel p's receptive field of image n (C*KH*KW
  /// values, KW-long input runs), and [N*P, F] = patches * filter^T is then
  /// scattered into place. For small outputs (a filter gradient, whose
  /// "image" is the 3x3 filter) per-image GEMMs would be too narrow to run
  /// at speed and their im2col would copy OW-long runs. False when the
  /// scratch memory cannot be had.
  bool runBatched() {
    int64_t pixels = s.n * s.cols(), depth = s.rows();
    std::unique_ptr<T[]> patches(new (std::nothrow) T[pixels * depth]);
    std::unique_ptr<T[]> product(new (std::nothrow) T[pixels * s.f]);
    if (!patches || !product)
      return false;
    const int64_t *is = in.strides;
    bool contiguous = is[3] == 1 && p.dilationW == 1;
    auto gather = [&](int64_t begin, int64_t end) {
      for (int64_t n = begin; n < end; ++n)
        for (int64_t y = 0; y < s.oh; ++y)
          for (int64_t x = 0; x < s.ow; ++x) {
            T *row = patches.get() + ((n * s.oh + y) * s.ow + x) * depth;
            for (int64_t c = 0; c < s.c; ++c)
              for (int64_t i = 0; i < s.kh; ++i) {
                const T *src = in.data() + n * is[0] + c * is[1] +
                               (y * p.strideH + i * p.dilationH) * is[2] +
                               x * p.strideW * is[3];
                T *dst = row + (c * s.kh + i) * s.kw;
                if (contiguous) {
                  std::memcpy(dst, src, s.kw * sizeof(T));
                  continue;
                }
                for (int64_t j = 0; j < s.kw; ++j)
                  dst[j] = src[j * p.dilationW * is[3]];
              }
          }
    };
    int64_t threads = kernelThreads();
    if (threads <= 1 ||
        !kernelParallelFor(s.n, (s.n + threads - 1) / threads, gather))
      gather(0, s.n);
    // The filter as [C*KH*KW, F]: a column-major view of [F, C*KH*KW].
    MatrixView<const T> filterT{filter.data(), depth, s.f, 1,
                                filter.strides[0]};
    gemm<T>({patches.get(), pixels, depth, depth, 1}, filterT,
            {product.get(), pixels, s.f, s.f, 1}, /*accumulate=*/false);
    const int64_t *os = out.strides;
    for (int64_t n = 0; n < s.n; ++n)
      for (int64_t f = 0; f < s.f; ++f) {
        T *dst = out.data() + n * os[0] + f * os[1];
        const T *src = product.get() + n * s.cols() * s.f + f;
        for (int64_t i = 0; i < s.cols(); ++i)
          dst[i] = accumulate ? dst[i] + src[i * s.f] : src[i * s.f];
      }
    return true;
  }

  /// Images [begin, end) with one scratch matrix between them.
  void runImages(int64_t begin, int64_t end, bool parallel) {
    const int64_t *is = in.strides;
    bool direct = s.kh == 1 && s.kw == 1 && p.strideH == 1 &&
                  p.strideW == 1 && s.oh == s.h && s.ow == s.w &&
                  is[3] == 1 && is[2] == s.w;
    std::unique_ptr<T[]> col;
    if (!direct)
      col.reset(new (std::nothrow) T[s.rows() * s.cols()]);
    MatrixView<const T> weights{filter.data(), s.f, s.rows(),
                                filter.strides[0], 1};
    for (int64_t n = begin; n < end; ++n) {
      if (!direct && !col) {
        convLoops(in, filter, out, s, p, accumulate, n);
        continue;
      }
      MatrixView<const T> patches{col.get(), s.rows(), s.cols(), s.cols(), 1};
      if (direct)
        patches = {in.data() + n * is[0], s.c, s.cols(), is[1], 1};
      else
        im2col(in, s, p, n, col.get());
      MatrixView<T> image{out.data() + n * out.strides[0], s.f, s.cols(),
                          out.strides[1], 1};
      gemm<T>(weights, patches, image, accumulate, parallel);
    }
  }

  const MemRefDescriptor<const T, 4> &in;
  const MemRefDescriptor<const T, 4> &filter;
  const MemRefDescriptor<T, 4> &out;
  ConvParams p;
  bool accumulate;
  Shape s;
};

template <typename T>
MemRefDescriptor<const T, 4> asConst(const MemRefDescriptor<T, 4> &d) {
  MemRefDescriptor<const T, 4> c{d.allocated, d.aligned, d.offset, {}, {}};
  for (int i = 0; i < 4; ++i) {
    c.sizes[i] = d.sizes[i];
    c.strides[i] = d.strides[i];
  }
  return c;
}

template <typename T>
void convEntry(MemRefDescriptor<T, 4> *input, MemRefDescriptor<T, 4> *filter,
               MemRefDescriptor<T, 4> *output, int64_t strideH,
               int64_t strideW, int64_t dilationH, int64_t dilationW,
               int64_t accumulate) {
  conv2dNchwFchw<T>(asConst(*input), asConst(*filter), *output,
                    {strideH, strideW, dilationH, dilationW}, accumulate != 0);
}

} // namespace

template <typename T>
void adjoint::rt::conv2dNchwFchw(const MemRefDescriptor<const T, 4> &input,
                                 const MemRefDescriptor<const T, 4> &filter,
                                 const MemRefDescriptor<T, 4> &output,
                                 const ConvParams &params, bool accumulate) {
  Convolution<T>(input, filter, output, params, accumulate).run();
}

template void adjoint::rt::conv2dNchwFchw<float>(
    const MemRefDescriptor<const float, 4> &,
    const MemRefDescriptor<const float, 4> &,
    const MemRefDescriptor<float, 4> &, const ConvParams &, bool);
template void adjoint::rt::conv2dNchwFchw<double>(
    const MemRefDescriptor<const double, 4> &,
    const MemRefDescriptor<const double, 4> &,
    const MemRefDescriptor<double, 4> &, const ConvParams &, bool);

extern "C" {
void _mlir_ciface_adj_kernel_conv2d_nchw_fchw_f32(
    MemRefDescriptor<float, 4> *input, MemRefDescriptor<float, 4> *filter,
    MemRefDescriptor<float, 4> *output, int64_t strideH, int64_t strideW,
    int64_t dilationH, int64_t dilationW, int64_t accumulate) {
  convEntry(input, filter, output, strideH, strideW, dilationH, dilationW,
            accumulate);
}
void _mlir_ciface_adj_kernel_conv2d_nchw_fchw_f64(
    MemRefDescriptor<double, 4> *input, MemRefDescriptor<double, 4> *filter,
    MemRefDescriptor<double, 4> *output, int64_t strideH, int64_t strideW,
    int64_t dilationH, int64_t dilationW, int64_t accumulate) {
  convEntry(input, filter, output, strideH, strideW, dilationH, dilationW,
            accumulate);
}
}
