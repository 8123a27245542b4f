//===- KernelsConv.cpp - 2-D convolution as blocked im2col + GEMM ---------===//
//
// A block of images' receptive fields is copied into one matrix (im2col),
// so that the convolution is one GEMM per block with the filter as a
// row-major [F, C*KH*KW] matrix: out[block] (+)= filter * patches. This is
// the scheme of Caffe and of TensorFlow's Eigen SpatialConvolution; the
// copy is O(KH*KW) times the input, small next to the GEMM's F-fold reuse
// of it. The zero padding is read, not stored: im2col writes zeros where a
// window leaves the input, so compiled code passes the unpadded tensor.
//
// Blocks hold whole images, enough of them that the GEMM has a few hundred
// columns (a 2x2 output or a 3x3 filter gradient is too narrow alone), and
// they go to the threads of the pool whole when there are enough of them;
// otherwise each block's GEMM is split. The patches are laid out so that
// im2col copies the longer runs: rows of a channel's window position hold
// OW-long output rows, rows of an output pixel hold KW-long window rows
// (the filter gradient's "filter" is the output sensitivity, KW = OW).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

using namespace adjoint::rt;

namespace {

/// The sizes of one convolution, read from the descriptors.
struct Shape {
  int64_t n, c, h, w; // input (unpadded)
  int64_t f, kh, kw;  // filter (its channel count is c)
  int64_t oh, ow;     // output
  /// The GEMM's inner dimension: one receptive field.
  int64_t depth() const { return c * kh * kw; }
  int64_t pixels() const { return oh * ow; }
};

template <typename T>
Shape shapeOf(const MemRefDescriptor<const T, 4> &in,
              const MemRefDescriptor<const T, 4> &filter,
              const MemRefDescriptor<T, 4> &out) {
  return {in.sizes[0],     in.sizes[1],     in.sizes[2],
          in.sizes[3],     filter.sizes[0], filter.sizes[2],
          filter.sizes[3], out.sizes[2],    out.sizes[3]};
}

/// A GEMM block aims at this many columns (output pixels of its images).
constexpr int64_t kTargetColumns = 256;
/// Fewer columns than this per block are not worth a thread of their own.
constexpr int64_t kMinColumnsPerTask = 64;
/// The most patch elements one block holds (8 MB of f32): a bound on the
/// scratch memory of each thread, above a block's cache-friendly size.
constexpr int64_t kMaxPatchElements = int64_t(1) << 21;

/// Per-thread scratch that grows and is kept between calls: a training step
/// calls the kernel dozens of times with similar sizes, and a fresh
/// multi-megabyte block per call costs page faults (malloc hands such
/// blocks back to the system). Slot 0 holds patches, 1 a block's product, 2
/// a packed filter (written before threads start, read by all of them).
template <typename T>
T *scratch(int slot, int64_t count) noexcept {
  struct Buffer {
    std::unique_ptr<T[]> data;
    int64_t size = 0;
  };
  thread_local Buffer buffers[3];
  Buffer &b = buffers[slot];
  if (b.size < count) {
    b.data.reset();
    b.size = 0;
    b.data.reset(new (std::nothrow) T[count]);
    if (!b.data)
      return nullptr;
    b.size = count;
  }
  return b.data.get();
}

/// The elements k < count of a run that read input index start + k * step:
/// those in [lo, hi) are inside [0, limit), the others read the zero
/// padding. (Computed once per run shape: divisions cost more than a
/// short run's copy.)
struct Run {
  int64_t lo, hi;
  Run(int64_t start, int64_t step, int64_t count, int64_t limit) {
    lo = start >= 0 ? 0 : (-start + step - 1) / step;
    hi = start >= limit ? 0 : (limit - 1 - start) / step + 1;
    lo = std::min(lo, count);
    hi = std::clamp(hi, lo, count);
  }
};

/// The input and the window geometry, by value: im2col's loops keep them in
/// registers (read through the kernel object, every store into the patches
/// could alias them and they would be reloaded per run).
template <typename T>
struct Geometry {
  const T *data;
  int64_t s0, s1, s2, s3; // input strides
  int64_t c, h, w, kh, kw, oh, ow;
  int64_t sh, sw, dh, dw, top, left;
};

// Runs are a few to a few dozen elements: inline loops, not memcpy and
// memset calls (which cost more than such a copy); strided reads stay
// scalar (gathers are slower on the machines measured).
#define ADJ_INLINE_COPIES __attribute__((no_builtin("memcpy", "memset", "memmove")))

#if defined(__AVX512F__)
/// A contiguous run on AVX-512: each vector of the run is one masked load
/// (zeros in the lanes outside [r.lo, r.hi)) and one masked store, whatever
/// the run's length; the loops below would copy a 15-element run (3x3
/// windows over 16-wide rows with padding 1) one element at a time.
/// `first` is the address of input element `start` as an integer: it lies
/// before the row when the run begins in the padding, where no lane reads.
template <typename T>
inline void maskedRun(T *dst, uintptr_t first, int64_t count, Run r) {
  constexpr int64_t lanes = 64 / sizeof(T);
  for (int64_t k = 0; k < count; k += lanes) {
    int64_t n = std::min(lanes, count - k);
    int64_t a = std::clamp<int64_t>(r.lo - k, 0, n);
    int64_t b = std::clamp<int64_t>(r.hi - k, a, n);
    uint32_t valid = ((uint32_t(1) << b) - 1) & ~((uint32_t(1) << a) - 1);
    uint32_t all = (uint32_t(1) << n) - 1;
    const void *src = reinterpret_cast<const void *>(first + k * sizeof(T));
    if constexpr (std::is_same_v<T, float>)
      _mm512_mask_storeu_ps(dst + k, __mmask16(all),
                            _mm512_maskz_loadu_ps(__mmask16(valid), src));
    else
      _mm512_mask_storeu_pd(dst + k, __mmask8(all),
                            _mm512_maskz_loadu_pd(__mmask8(valid), src));
  }
}
#endif

/// dst[k] = row[(start + k * step) * stride] for k in [r.lo, r.hi), zero
/// for the other k < count.
template <typename T>
ADJ_INLINE_COPIES inline void copyRun(T *__restrict dst,
                                      const T *__restrict row, int64_t start,
                                      int64_t step, int64_t count,
                                      int64_t stride, Run r) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (step * stride == 1) {
      maskedRun(dst, reinterpret_cast<uintptr_t>(row) + start * sizeof(T),
                count, r);
      return;
    }
  }
#endif
  for (int64_t k = 0; k < r.lo; ++k)
    dst[k] = T(0);
  if (step * stride == 1) {
    const T *__restrict src = row + start + r.lo;
    T *__restrict to = dst + r.lo;
    for (int64_t k = 0; k < r.hi - r.lo; ++k)
      to[k] = src[k];
  } else if (step * stride == 2) {
    // Stride 2 (the stem, strided 3x3 and their gradients' dilation): a
    // constant step vectorizes as wide loads and shuffles.
    const T *__restrict src = row + (start + r.lo * step) * stride;
    T *__restrict to = dst + r.lo;
    for (int64_t k = 0; k < r.hi - r.lo; ++k)
      to[k] = src[2 * k];
  } else {
#pragma clang loop vectorize(disable)
    for (int64_t k = r.lo; k < r.hi; ++k)
      dst[k] = row[(start + k * step) * stride];
  }
  for (int64_t k = r.hi; k < count; ++k)
    dst[k] = T(0);
}

template <typename T>
ADJ_INLINE_COPIES inline void zeroRun(T *__restrict dst, int64_t count) {
  for (int64_t k = 0; k < count; ++k)
    dst[k] = T(0);
}

/// Rows of channels [cBegin, cEnd) of the patches of images [b, e), stored
/// as [C*KH*KW, images * OH*OW], row-major: row (c, i, j) holds
/// in[n, c, y*sh + i*dh - top, x*sw + j*dw - left] at column (n, y, x).
template <typename T>
ADJ_INLINE_COPIES void channelMajor(const Geometry<T> g, int64_t b, int64_t e,
                                    int64_t cBegin, int64_t cEnd,
                                    T *__restrict patches) {
  int64_t columns = (e - b) * g.oh * g.ow;
  for (int64_t c = cBegin; c < cEnd; ++c)
    for (int64_t i = 0; i < g.kh; ++i)
      for (int64_t j = 0; j < g.kw; ++j) {
        T *row = patches + ((c * g.kh + i) * g.kw + j) * columns;
        int64_t left = j * g.dw - g.left;
        Run run(left, g.sw, g.ow, g.w);
        for (int64_t n = b; n < e; ++n)
          for (int64_t y = 0; y < g.oh; ++y) {
            T *dst = row + ((n - b) * g.oh + y) * g.ow;
            int64_t iy = y * g.sh + i * g.dh - g.top;
            if (iy < 0 || iy >= g.h) {
              zeroRun(dst, g.ow);
              continue;
            }
            const T *src = g.data + n * g.s0 + c * g.s1 + iy * g.s2;
            copyRun(dst, src, left, g.sw, g.ow, g.s3, run);
          }
      }
}

/// Patches of images [b, e) as [images * OH*OW, C*KH*KW], row-major: row
/// (n, y, x) is the receptive field of output pixel (y, x) of image n; the
/// block's rows start at image `first`.
template <typename T>
ADJ_INLINE_COPIES void pixelMajor(const Geometry<T> g, int64_t b, int64_t e,
                                  int64_t first, T *__restrict patches) {
  int64_t depth = g.c * g.kh * g.kw;
  for (int64_t n = b; n < e; ++n)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t x = 0; x < g.ow; ++x) {
        T *field = patches + (((n - first) * g.oh + y) * g.ow + x) * depth;
        int64_t left = x * g.sw - g.left;
        Run run(left, g.dw, g.kw, g.w);
        for (int64_t c = 0; c < g.c; ++c)
          for (int64_t i = 0; i < g.kh; ++i) {
            T *dst = field + (c * g.kh + i) * g.kw;
            int64_t iy = y * g.sh + i * g.dh - g.top;
            if (iy < 0 || iy >= g.h) {
              zeroRun(dst, g.kw);
              continue;
            }
            const T *src = g.data + n * g.s0 + c * g.s1 + iy * g.s2;
            copyRun(dst, src, left, g.dw, g.kw, g.s3, run);
          }
      }
}

/// out[n, f, y, x] (+)= result[f, (n - b) * OH*OW + y * OW + x] for the
/// images n of [b, e): a block's product spread over its images.
template <typename T>
ADJ_INLINE_COPIES void spread(const T *__restrict result, int64_t columns,
                              T *__restrict out, const int64_t *os, int64_t b,
                              int64_t e, int64_t filters, int64_t oh,
                              int64_t ow, bool accumulate) {
  int64_t s0 = os[0], s1 = os[1], s2 = os[2], s3 = os[3];
  // Rows back to back are one run (a 3x3 filter gradient: 9, not 3 x 3).
  int64_t rows = oh, run = ow;
  if (s3 == 1 && s2 == ow) {
    rows = 1;
    run = oh * ow;
  }
  for (int64_t n = b; n < e; ++n)
    for (int64_t f = 0; f < filters; ++f) {
      const T *src = result + f * columns + (n - b) * oh * ow;
      for (int64_t y = 0; y < rows; ++y) {
        T *dst = out + n * s0 + f * s1 + y * s2;
        const T *from = src + y * run;
        if (accumulate)
          for (int64_t x = 0; x < run; ++x)
            dst[x * s3] += from[x];
        else
          for (int64_t x = 0; x < run; ++x)
            dst[x * s3] = from[x];
      }
    }
}

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
    if (s.n == 0 || s.f == 0 || s.pixels() == 0)
      return;
    if (s.depth() == 0) {
      if (!accumulate)
        for (int64_t n = 0; n < s.n; ++n)
          zeroImage(n);
      return;
    }
    if (!packFilter()) {
      for (int64_t n = 0; n < s.n; ++n)
        loops(n);
      return;
    }
    if (direct()) {
      forImages(1, [&](int64_t b, int64_t e, bool parallel) {
        for (int64_t n = b; n < e; ++n) {
          MatrixView<const T> x{in.data() + n * in.strides[0], s.c,
                                s.pixels(), in.strides[1], 1};
          product(n, n + 1, x, parallel);
        }
      });
      return;
    }
    // Images per block: about kTargetColumns columns, within the scratch
    // bound.
    int64_t perBlock = (kTargetColumns + s.pixels() - 1) / s.pixels();
    perBlock = std::min(
        perBlock, std::max<int64_t>(1, kMaxPatchElements /
                                           (s.depth() * s.pixels())));
    // Equal blocks, as many as a multiple of the threads where each still
    // has kMinColumnsPerTask columns (32 images of a 3x3 filter gradient:
    // two blocks of 16, not 29 and 3).
    int64_t blocks = (s.n + perBlock - 1) / perBlock;
    int64_t threads = kernelThreads();
    if (threads > 1 && blocks % threads != 0) {
      int64_t more = std::min(s.n, (blocks + threads - 1) / threads * threads);
      if ((s.n + more - 1) / more * s.pixels() >= kMinColumnsPerTask)
        blocks = more;
    }
    perBlock = (s.n + blocks - 1) / blocks;
    forImages(perBlock, [&](int64_t b, int64_t e, bool parallel) {
      for (int64_t n = b; n < e; n += perBlock)
        block(n, std::min(n + perBlock, e), parallel);
    });
  }

private:
  /// Runs `body(begin, end, parallelGemm)` over the images in whole blocks
  /// of `perBlock`: blocks over threads when there are enough of them for
  /// the pool, else every block on this thread with its GEMM split.
  template <typename Body>
  void forImages(int64_t perBlock, Body &&body) {
    int64_t blocks = (s.n + perBlock - 1) / perBlock;
    int64_t threads = kernelThreads();
    if (threads > 1 && blocks >= threads &&
        perBlock * s.pixels() >= kMinColumnsPerTask &&
        (blocks % threads == 0 || blocks >= 4 * threads)) {
      int64_t grain = (blocks + threads - 1) / threads * perBlock;
      auto task = [&](int64_t b, int64_t e) { body(b, e, false); };
      if (kernelParallelFor(s.n, grain, task))
        return;
    }
    body(0, s.n, threads > 1);
  }

  /// A 1x1 convolution with unit stride and no padding reads the input as
  /// the GEMM's right operand: no copy, when images are wide enough.
  bool direct() const {
    const int64_t *is = in.strides;
    return s.kh == 1 && s.kw == 1 && p.strideH == 1 && p.strideW == 1 &&
           p.padTop == 0 && p.padLeft == 0 && s.oh == s.h && s.ow == s.w &&
           is[3] == 1 && is[2] == s.w && s.pixels() >= kTargetColumns;
  }

  /// The filter as a row-major [F, C*KH*KW] matrix: a view of it when its
  /// trailing dimensions are contiguous, else a packed copy. False when the
  /// copy's memory cannot be had.
  bool packFilter() {
    const int64_t *fs = filter.strides;
    if (fs[3] == 1 && fs[2] == s.kw && fs[1] == s.kh * s.kw) {
      weights = {filter.data(), s.f, s.depth(), fs[0], 1};
      return true;
    }
    T *packed = scratch<T>(2, s.f * s.depth());
    if (!packed)
      return false;
    for (int64_t f = 0; f < s.f; ++f)
      for (int64_t c = 0; c < s.c; ++c)
        for (int64_t i = 0; i < s.kh; ++i)
          for (int64_t j = 0; j < s.kw; ++j)
            packed[((f * s.c + c) * s.kh + i) * s.kw + j] =
                filter.data()[f * fs[0] + c * fs[1] + i * fs[2] + j * fs[3]];
    weights = {packed, s.f, s.depth(), s.depth(), 1};
    return true;
  }

  /// Images [b, e): their patches, then the product.
  void block(int64_t b, int64_t e, bool parallel) {
    int64_t columns = (e - b) * s.pixels();
    T *patches = scratch<T>(0, s.depth() * columns);
    if (!patches) {
      for (int64_t n = b; n < e; ++n)
        loops(n);
      return;
    }
    // Copy runs along the longer of an output row and a window row.
    const int64_t *is = in.strides;
    Geometry<T> g{in.data(), is[0],       is[1],       is[2],
                  is[3],     s.c,         s.h,         s.w,
                  s.kh,      s.kw,        s.oh,        s.ow,
                  p.strideH, p.strideW,   p.dilationH, p.dilationW,
                  p.padTop,  p.padLeft};
    // One block at a time (its GEMM split over the threads): its patches
    // are split too, by channel or by image.
    bool channels = s.ow >= s.kw;
    auto copy = [&](int64_t begin, int64_t end) {
      if (channels)
        channelMajor(g, b, e, begin, end, patches);
      else
        pixelMajor(g, b + begin, b + end, b, patches);
    };
    int64_t extent = channels ? s.c : e - b;
    int64_t threads = parallel ? kernelThreads() : 1;
    if (threads <= 1 || extent < threads ||
        !kernelParallelFor(extent, (extent + threads - 1) / threads, copy))
      copy(0, extent);
    if (channels)
      product(b, e, {patches, s.depth(), columns, columns, 1}, parallel);
    else
      product(b, e, {patches, s.depth(), columns, 1, s.depth()}, parallel);
  }

  /// out[b..e) (+)= weights * x, x being [C*KH*KW, (e - b) * OH*OW]. One
  /// image with a row-contiguous output is written in place; more go
  /// through a [F, columns] product that is then spread over the images.
  void product(int64_t b, int64_t e, const MatrixView<const T> &x,
               bool parallel) {
    const int64_t *os = out.strides;
    bool rowsContiguous = os[3] == 1 && os[2] == s.ow;
    if (e - b == 1 && rowsContiguous) {
      MatrixView<T> image{out.data() + b * os[0], s.f, s.pixels(), os[1], 1};
      gemm<T>(weights, x, image, accumulate, parallel);
      return;
    }
    T *result = scratch<T>(1, s.f * x.cols);
    if (!result) {
      for (int64_t n = b; n < e; ++n)
        loops(n);
      return;
    }
    gemm<T>(weights, x, {result, s.f, x.cols, x.cols, 1},
            /*accumulate=*/false, parallel);
    spread(result, x.cols, out.data(), out.strides, b, e, s.f, s.oh, s.ow,
           accumulate);
  }

  void zeroImage(int64_t n) {
    const int64_t *os = out.strides;
    for (int64_t f = 0; f < s.f; ++f)
      for (int64_t y = 0; y < s.oh; ++y)
        for (int64_t x = 0; x < s.ow; ++x)
          out.data()[n * os[0] + f * os[1] + y * os[2] + x * os[3]] = T(0);
  }

  /// The definition, for when scratch memory cannot be had.
  void loops(int64_t n) {
    const int64_t *is = in.strides, *fs = filter.strides, *os = out.strides;
    for (int64_t f = 0; f < s.f; ++f)
      for (int64_t y = 0; y < s.oh; ++y)
        for (int64_t x = 0; x < s.ow; ++x) {
          T *dst = out.data() + n * os[0] + f * os[1] + y * os[2] + x * os[3];
          T sum = accumulate ? *dst : T(0);
          for (int64_t c = 0; c < s.c; ++c)
            for (int64_t i = 0; i < s.kh; ++i) {
              int64_t iy = y * p.strideH + i * p.dilationH - p.padTop;
              if (iy < 0 || iy >= s.h)
                continue;
              for (int64_t j = 0; j < s.kw; ++j) {
                int64_t ix = x * p.strideW + j * p.dilationW - p.padLeft;
                if (ix < 0 || ix >= s.w)
                  continue;
                sum += in.data()[n * is[0] + c * is[1] + iy * is[2] +
                                 ix * is[3]] *
                       filter.data()[f * fs[0] + c * fs[1] + i * fs[2] +
                                     j * fs[3]];
              }
            }
          *dst = sum;
        }
  }

  const MemRefDescriptor<const T, 4> &in;
  const MemRefDescriptor<const T, 4> &filter;
  const MemRefDescriptor<T, 4> &out;
  ConvParams p;
  bool accumulate;
  Shape s;
  MatrixView<const T> weights{};
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
               int64_t padTop, int64_t padLeft, int64_t accumulate) {
  conv2dNchwFchw<T>(
      asConst(*input), asConst(*filter), *output,
      {strideH, strideW, dilationH, dilationW, padTop, padLeft},
      accumulate != 0);
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
    int64_t dilationH, int64_t dilationW, int64_t padTop, int64_t padLeft,
    int64_t accumulate) {
  convEntry(input, filter, output, strideH, strideW, dilationH, dilationW,
            padTop, padLeft, accumulate);
}
void _mlir_ciface_adj_kernel_conv2d_nchw_fchw_f64(
    MemRefDescriptor<double, 4> *input, MemRefDescriptor<double, 4> *filter,
    MemRefDescriptor<double, 4> *output, int64_t strideH, int64_t strideW,
    int64_t dilationH, int64_t dilationW, int64_t padTop, int64_t padLeft,
    int64_t accumulate) {
  convEntry(input, filter, output, strideH, strideW, dilationH, dilationW,
            padTop, padLeft, accumulate);
}
}
