//===- KernelsMatmul.cpp - GEMM kernels on oneDNN, Eigen and the pool -----===//
//
// f32 products of more than a few thousand flops run on oneDNN's sgemm when
// libdnnl is installed (CPU/OneDnn.h: 1.0-2.7x Eigen's throughput here),
// everything else (f64, complex<f32> and complex<f64>) on Eigen's GEMM,
// which packs and blocks for the host's caches and vector units. Strided views are passed without copying
// (row-major when the column stride is 1, column-major when the row stride
// is 1, which covers transposed views), and large products are split into
// row or column blocks of the output, one per thread of the global pool, as
// XLA's CPU runtime splits Eigen contractions.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Kernels.h"
#include "adjoint/Runtime/ThreadPool.h"

#include "CPU/OneDnn.h"

// This file is built with -march=native, the interpreter (linked into the
// same programs) without: both instantiate the same Eigen GEMM templates,
// and the linker keeps one copy of each, so the kernels could end up running
// the baseline (SSE) code; perf showed 58% of an MLP step in it. Renaming
// Eigen's namespace in this file gives the kernels instantiations of their
// own.
#define Eigen AdjointNativeEigen
#include <Eigen/Core>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>

using namespace adjoint::rt;

namespace {

template <typename T>
using RowMajorMatrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using ColMajorMatrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

/// The least work worth a thread of its own: about 10 us of GEMM, a few
/// times what starting a polling pool thread costs (a sleeping one costs
/// more, but the pool's threads poll for a while after each loop).
constexpr double kMinFlopsPerTask = 1e6;
/// The shortest inner dimension worth splitting a product over threads.
constexpr int64_t kMinParallelDepth = 32;
/// The widest (or, with a transposed B, shortest) product computed
/// column-major and transposed into place.
constexpr int64_t kMaxNarrowColumns = 32;
/// The smallest block of output rows or columns worth a thread.
constexpr int64_t kMinBlock = 16;
/// The smallest product oneDNN computes: below 32^3, its fixed cost per call
/// (~0.2 us) makes Eigen faster (16^3: 53 vs 33 GFLOP/s on one core).
constexpr double kMinOneDnnFlops = 2.0 * 32 * 32 * 32;

/// Whether oneDNN computes `c (+)= a * b`: f32 (oneDNN has no f64 GEMM),
/// not tiny, and not a column-major (transposed) B with a longer inner
/// dimension than C has columns and more than a few rows of C, where Eigen
/// is 1.1x faster (64x4096 @ (256x4096)^T; with fewer rows computeTransposed
/// makes oneDNN 1.8x faster than Eigen). ADJOINT_CPU_GEMM=eigen turns oneDNN
/// off.
template <typename T>
bool preferOneDnn(const MatrixView<const T> &a, const MatrixView<const T> &b,
                  const MatrixView<T> &c) {
  if constexpr (!std::is_same_v<T, float>) {
    return false;
  } else {
    static const bool disabled = [] {
      const char *choice = std::getenv("ADJOINT_CPU_GEMM");
      return choice && std::strcmp(choice, "eigen") == 0;
    }();
    if (disabled || 2.0 * c.rows * c.cols * a.cols < kMinOneDnnFlops)
      return false;
    bool bColumnMajor = b.rowStride == 1 && b.colStride != 1 && b.cols > 1;
    if (bColumnMajor && b.rows > b.cols && c.rows > kMaxNarrowColumns)
      return false;
    return cpu::oneDnnAvailable();
  }
}

/// Calls `fn` with `v` as an Eigen map (const or not, following `T`) and
/// returns true, or returns false when neither stride is 1. A size-1
/// dimension's stride is never used, so it does not decide the layout.
template <typename T, typename Fn>
bool withEigenMap(const MatrixView<T> &v, Fn &&fn) {
  using Plain = std::remove_const_t<T>;
  if (v.colStride == 1 || v.cols == 1) {
    int64_t outer = v.rows == 1 ? std::max<int64_t>(v.cols, 1) : v.rowStride;
    using M = std::conditional_t<std::is_const_v<T>,
                                 const RowMajorMatrix<Plain>,
                                 RowMajorMatrix<Plain>>;
    fn(Eigen::Map<M, 0, Eigen::OuterStride<>>(v.data, v.rows, v.cols,
                                              Eigen::OuterStride<>(outer)));
    return true;
  }
  if (v.rowStride == 1 || v.rows == 1) {
    int64_t outer = v.cols == 1 ? std::max<int64_t>(v.rows, 1) : v.colStride;
    using M = std::conditional_t<std::is_const_v<T>,
                                 const ColMajorMatrix<Plain>,
                                 ColMajorMatrix<Plain>>;
    fn(Eigen::Map<M, 0, Eigen::OuterStride<>>(v.data, v.rows, v.cols,
                                              Eigen::OuterStride<>(outer)));
    return true;
  }
  return false;
}

/// The product by definition: needs no memory, handles any strides.
template <typename T>
void gemmLoops(const MatrixView<const T> &a, const MatrixView<const T> &b,
               const MatrixView<T> &c, bool accumulate) {
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.cols; ++j) {
      T *out = c.data + i * c.rowStride + j * c.colStride;
      T sum = accumulate ? *out : T(0);
      for (int64_t p = 0; p < a.cols; ++p)
        sum += a.data[i * a.rowStride + p * a.colStride] *
               b.data[p * b.rowStride + j * b.colStride];
      *out = sum;
    }
}

/// `c (+)= a * b` on Eigen's GEMM; false (with `c` untouched or fully
/// overwritten, never half-accumulated) when the layouts or the memory do
/// not allow it.
template <typename T>
bool gemmEigen(const MatrixView<const T> &a, const MatrixView<const T> &b,
               const MatrixView<T> &c, bool accumulate) {
  // Eigen zeroes a strided destination row by row before an overwriting
  // product; a contiguous one is cleared faster with memset (a quarter of
  // the time of a product with a short inner dimension).
  bool contiguous = (c.colStride == 1 && c.rowStride == c.cols) ||
                    (c.rowStride == 1 && c.colStride == c.rows);
  if (!accumulate && contiguous && a.cols > 0) {
    std::memset(c.data, 0, sizeof(T) * c.rows * c.cols);
    accumulate = true;
  }
  bool done = false;
  // Eigen allocates its packing buffers with operator new; LLVM frames
  // above us must not see an exception, so a failed allocation reports
  // false instead (Eigen throws before it accumulates anything).
  try {
    withEigenMap(c, [&](auto &&cm) {
      withEigenMap(a, [&](const auto &am) {
        withEigenMap(b, [&](const auto &bm) {
          if (accumulate)
            cm.noalias() += am * bm;
          else
            cm.noalias() = am * bm;
          done = true;
        });
      });
    });
  } catch (...) {
    done = false;
  }
  return done;
}

/// `c (+)= a * b` on oneDNN when `oneDnn` (and it takes the layouts), else
/// on Eigen; false as gemmEigen.
template <typename T>
bool gemmLibrary(const MatrixView<const T> &a, const MatrixView<const T> &b,
                 const MatrixView<T> &c, bool accumulate, bool oneDnn) {
  if constexpr (std::is_same_v<T, float>)
    if (oneDnn && cpu::oneDnnGemm(a, b, c, accumulate))
      return true;
  return gemmEigen(a, b, c, accumulate);
}

/// Whether a row-major `c` is computed faster column-major, then transposed
/// into place. Only narrow products take this path: the transposing copy is
/// strided.
template <typename T>
bool computeTransposed(const MatrixView<const T> &a,
                       const MatrixView<const T> &b, const MatrixView<T> &c,
                       bool oneDnn) {
  if (c.colStride != 1 || c.cols <= 1)
    return false;
  // A column-major (transposed) A and a product narrower than tall (h^T @
  // dy in a backward pass: 512x256 times 256x10): Eigen is 2.5x, oneDNN
  // 1.5x slower writing it row-major.
  bool aColumnMajor = a.rowStride == 1 && a.colStride != 1 && a.rows > 1;
  if (aColumnMajor && c.cols <= kMaxNarrowColumns && c.cols < c.rows)
    return true;
  // A column-major B, a few rows and a longer inner dimension than C has
  // columns (dg @ W^T in an LSTM's backward pass: 16x1024 times 1024x256):
  // oneDNN is 2x slower writing it row-major.
  bool bColumnMajor = b.rowStride == 1 && b.colStride != 1 && b.cols > 1;
  return oneDnn && bColumnMajor && c.rows <= kMaxNarrowColumns &&
         a.cols > c.cols;
}

/// One product on the calling thread, on oneDNN when `oneDnn` (and it
/// takes the layouts), else on Eigen, else by the loops.
template <typename T>
void gemmSerial(const MatrixView<const T> &a, const MatrixView<const T> &b,
                const MatrixView<T> &c, bool accumulate, bool oneDnn) {
  if (computeTransposed(a, b, c, oneDnn)) {
    std::unique_ptr<T[]> buffer(new (std::nothrow) T[c.rows * c.cols]);
    MatrixView<T> t{buffer.get(), c.rows, c.cols, 1, c.rows};
    if (buffer && gemmLibrary(a, b, t, /*accumulate=*/false, oneDnn)) {
      for (int64_t i = 0; i < c.rows; ++i) {
        T *row = c.data + i * c.rowStride;
        for (int64_t j = 0; j < c.cols; ++j)
          row[j] = (accumulate ? row[j] : T(0)) + t.data[i + j * c.rows];
      }
      return;
    }
  }
  if (!gemmLibrary(a, b, c, accumulate, oneDnn))
    gemmLoops(a, b, c, accumulate);
}

template <typename T>
MatrixView<T> rowBlock(const MatrixView<T> &v, int64_t begin, int64_t end) {
  return {v.data + begin * v.rowStride, end - begin, v.cols, v.rowStride,
          v.colStride};
}

template <typename T>
MatrixView<T> colBlock(const MatrixView<T> &v, int64_t begin, int64_t end) {
  return {v.data + begin * v.colStride, v.rows, end - begin, v.rowStride,
          v.colStride};
}

template <typename T>
MatrixView<const T> asConst(const MatrixView<T> &v) {
  return {v.data, v.rows, v.cols, v.rowStride, v.colStride};
}

template <typename T, int Rank>
MatrixView<T> matrixOf(const MemRefDescriptor<T, Rank> *d, int64_t batch) {
  T *base = d->data() + (Rank == 3 ? batch * d->strides[0] : 0);
  return {base, d->sizes[Rank - 2], d->sizes[Rank - 1], d->strides[Rank - 2],
          d->strides[Rank - 1]};
}

template <typename T>
void matmulEntry(MemRefDescriptor<T, 2> *a, MemRefDescriptor<T, 2> *b,
                 MemRefDescriptor<T, 2> *c, int64_t accumulate) {
  gemm<T>(asConst(matrixOf(a, 0)), asConst(matrixOf(b, 0)), matrixOf(c, 0),
          accumulate != 0);
}

template <typename T>
void batchMatmulEntry(MemRefDescriptor<T, 3> *a, MemRefDescriptor<T, 3> *b,
                      MemRefDescriptor<T, 3> *c, int64_t accumulate) {
  int64_t batches = c->sizes[0];
  auto one = [&](int64_t i, bool parallel) {
    gemm<T>(asConst(matrixOf(a, i)), asConst(matrixOf(b, i)), matrixOf(c, i),
            accumulate != 0, parallel);
  };
  // Many products: one thread per block of batches; few: split each
  // product instead.
  int64_t threads = kernelThreads();
  if (batches >= threads && threads > 1) {
    int64_t grain = (batches + threads - 1) / threads;
    auto run = [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        one(i, /*parallel=*/false);
    };
    if (!kernelParallelFor(batches, grain, run))
      run(0, batches);
    return;
  }
  for (int64_t i = 0; i < batches; ++i)
    one(i, /*parallel=*/true);
}

} // namespace

template <typename T>
void adjoint::rt::gemm(const MatrixView<const T> &a,
                       const MatrixView<const T> &b, const MatrixView<T> &c,
                       bool accumulate, bool parallel) {
  if (c.rows == 0 || c.cols == 0)
    return;
  bool oneDnn = preferOneDnn(a, b, c);
  double flops = 2.0 * c.rows * c.cols * a.cols;
  int64_t threads = parallel ? kernelThreads() : 1;
  // Split the larger output dimension: each block is then a full GEMM of
  // its own with B (or A) shared read-only.
  bool splitRows = c.rows >= c.cols;
  int64_t extent = splitRows ? c.rows : c.cols;
  // A short inner dimension makes the product a stream over C that one
  // core already saturates; splitting it only adds the pool's overhead.
  if (a.cols < kMinParallelDepth)
    threads = 1;
  int64_t tasks = std::min({threads, (extent + kMinBlock - 1) / kMinBlock,
                            static_cast<int64_t>(flops / kMinFlopsPerTask)});
  if (tasks <= 1) {
    gemmSerial(a, b, c, accumulate, oneDnn);
    return;
  }
  int64_t grain = (extent + tasks - 1) / tasks;
  // Blocks of columns are strided even when C is not: clear C whole for
  // Eigen (oneDNN overwrites strided blocks as fast).
  if (!oneDnn && !accumulate && c.colStride == 1 && c.rowStride == c.cols &&
      a.cols > 0) {
    std::memset(c.data, 0, sizeof(T) * c.rows * c.cols);
    accumulate = true;
  }
  auto block = [&](int64_t begin, int64_t end) {
    if (splitRows)
      gemmSerial(rowBlock(a, begin, end), b, rowBlock(c, begin, end),
                 accumulate, oneDnn);
    else
      gemmSerial(a, colBlock(b, begin, end), colBlock(c, begin, end),
                 accumulate, oneDnn);
  };
  if (!kernelParallelFor(extent, grain, block))
    gemmSerial(a, b, c, accumulate, oneDnn);
}

unsigned adjoint::rt::kernelThreads() {
  try {
    return ThreadPool::global().numThreads();
  } catch (...) {
    // No threads could be started: everything runs on the caller.
    return 1;
  }
}

template void adjoint::rt::gemm<float>(const MatrixView<const float> &,
                                       const MatrixView<const float> &,
                                       const MatrixView<float> &, bool, bool);
template void adjoint::rt::gemm<double>(const MatrixView<const double> &,
                                        const MatrixView<const double> &,
                                        const MatrixView<double> &, bool,
                                        bool);
template void adjoint::rt::gemm<std::complex<float>>(
    const MatrixView<const std::complex<float>> &,
    const MatrixView<const std::complex<float>> &,
    const MatrixView<std::complex<float>> &, bool, bool);
template void adjoint::rt::gemm<std::complex<double>>(
    const MatrixView<const std::complex<double>> &,
    const MatrixView<const std::complex<double>> &,
    const MatrixView<std::complex<double>> &, bool, bool);

// The entry points (Kernels.h) of each element type.
#define ADJ_MATMUL_ENTRIES(T, suffix)                                          \
  void _mlir_ciface_adj_kernel_matmul_##suffix(                                \
      MemRefDescriptor<T, 2> *a, MemRefDescriptor<T, 2> *b,                    \
      MemRefDescriptor<T, 2> *c, int64_t accumulate) {                         \
    matmulEntry(a, b, c, accumulate);                                          \
  }                                                                            \
  void _mlir_ciface_adj_kernel_batch_matmul_##suffix(                          \
      MemRefDescriptor<T, 3> *a, MemRefDescriptor<T, 3> *b,                    \
      MemRefDescriptor<T, 3> *c, int64_t accumulate) {                         \
    batchMatmulEntry(a, b, c, accumulate);                                     \
  }

extern "C" {
ADJ_MATMUL_ENTRIES(float, f32)
ADJ_MATMUL_ENTRIES(double, f64)
ADJ_MATMUL_ENTRIES(std::complex<float>, c64)
ADJ_MATMUL_ENTRIES(std::complex<double>, c128)
}

#undef ADJ_MATMUL_ENTRIES
