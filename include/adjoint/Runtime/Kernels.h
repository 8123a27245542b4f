//===- Kernels.h - Matmul and convolution kernels for compiled code -*- C++ -*-===//
//
// -adj-cpu-linalg-to-kernels replaces linalg.matmul, linalg.batch_matmul and
// linalg.conv_2d_nchw_fchw on f32/f64 memrefs by calls of these entry points,
// as XLA's CPU backend calls Eigen: the products run on oneDNN's or Eigen's
// GEMM, split over the runtime's thread pool. Compiled code passes MLIR memref
// descriptors by pointer (the `_mlir_ciface_` convention of
// llvm.emit_c_interface), so one entry point serves every shape and every
// strided view: a transposed operand is a view with swapped strides.
//
// Every product accumulates into its output (`C += A B`) when `accumulate`
// is non-zero and overwrites it otherwise. The kernels never throw and never
// abort: when scratch memory cannot be had they fall back to loops that need
// none.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_KERNELS_H
#define ADJOINT_RUNTIME_KERNELS_H

#include "adjoint/Runtime/ThreadPool.h"

#include <complex>
#include <cstdint>
#include <functional>

namespace adjoint::rt {

/// The layout of a rank-`Rank` MLIR memref descriptor.
template <typename T, int Rank>
struct MemRefDescriptor {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];

  T *data() const { return aligned + offset; }
};

/// A strided matrix: element (i, j) is at `data[i * rowStride + j *
/// colStride]`.
template <typename T>
struct MatrixView {
  T *data;
  int64_t rows, cols;
  int64_t rowStride, colStride;
};

/// `c (+)= a * b` on oneDNN's sgemm (f32, where libdnnl is installed) or
/// Eigen's GEMM (KernelsMatmul.cpp says which). With `parallel`, large
/// products are split into blocks of rows or columns of `c` on the global
/// thread pool. The shapes must agree (a: m x k, b: k x n, c: m x n).
template <typename T>
void gemm(const MatrixView<const T> &a, const MatrixView<const T> &b,
          const MatrixView<T> &c, bool accumulate, bool parallel = true);

extern template void gemm<float>(const MatrixView<const float> &,
                                 const MatrixView<const float> &,
                                 const MatrixView<float> &, bool, bool);
extern template void gemm<std::complex<float>>(
    const MatrixView<const std::complex<float>> &,
    const MatrixView<const std::complex<float>> &,
    const MatrixView<std::complex<float>> &, bool, bool);
extern template void gemm<std::complex<double>>(
    const MatrixView<const std::complex<double>> &,
    const MatrixView<const std::complex<double>> &,
    const MatrixView<std::complex<double>> &, bool, bool);
extern template void gemm<double>(const MatrixView<const double> &,
                                  const MatrixView<const double> &,
                                  const MatrixView<double> &, bool, bool);

/// The number of threads kernels split work over (1 when the global pool
/// cannot start).
unsigned kernelThreads();
/// Runs `body(begin, end)` over [0, extent) in chunks of `grain` on the
/// global pool and returns true, or returns false without having run
/// anything when the pool fails. `body` must not throw. (Kernels are called
/// from compiled code, which no exception may cross.)
template <typename Fn>
bool kernelParallelFor(int64_t extent, int64_t grain, Fn &body) noexcept {
  try {
    // A reference_wrapper fits std::function's inline storage: no
    // allocation here.
    ThreadPool::global().parallelFor(
        0, extent, grain,
        std::function<void(int64_t, int64_t)>(std::ref(body)));
    return true;
  } catch (...) {
    return false;
  }
}

/// Stride, dilation and zero padding of a 2-D convolution. The padding is
/// read, not stored: input rows and columns outside the tensor are zeros,
/// so `padTop`/`padLeft` shift the windows and the output's size implies
/// the bottom and right padding.
struct ConvParams {
  int64_t strideH, strideW, dilationH, dilationW;
  int64_t padTop = 0, padLeft = 0;
};

/// out[n, f, y, x] (+)= sum_{c, i, j} in[n, c, y*sh + i*dh - top,
/// x*sw + j*dw - left] * filter[f, c, i, j], with zeros outside `input`:
/// linalg.conv_2d_nchw_fchw's definition on the zero-padded input.
template <typename T>
void conv2dNchwFchw(const MemRefDescriptor<const T, 4> &input,
                    const MemRefDescriptor<const T, 4> &filter,
                    const MemRefDescriptor<T, 4> &output,
                    const ConvParams &params, bool accumulate);

extern template void conv2dNchwFchw<float>(
    const MemRefDescriptor<const float, 4> &,
    const MemRefDescriptor<const float, 4> &,
    const MemRefDescriptor<float, 4> &, const ConvParams &, bool);
extern template void conv2dNchwFchw<double>(
    const MemRefDescriptor<const double, 4> &,
    const MemRefDescriptor<const double, 4> &,
    const MemRefDescriptor<double, 4> &, const ConvParams &, bool);

} // namespace adjoint::rt

extern "C" {
// The symbols generated code calls (listed in Symbols.def for the JIT).
// Products (batched: over the leading dimension) for f32, f64, c64 and
// c128 (complex<f32> and complex<f64>: Eigen's complex GEMM).
#define ADJ_MATMUL_ENTRIES(T, suffix)                                          \
  void _mlir_ciface_adj_kernel_matmul_##suffix(                                \
      adjoint::rt::MemRefDescriptor<T, 2> *a,                                  \
      adjoint::rt::MemRefDescriptor<T, 2> *b,                                  \
      adjoint::rt::MemRefDescriptor<T, 2> *c, int64_t accumulate);             \
  void _mlir_ciface_adj_kernel_batch_matmul_##suffix(                          \
      adjoint::rt::MemRefDescriptor<T, 3> *a,                                  \
      adjoint::rt::MemRefDescriptor<T, 3> *b,                                  \
      adjoint::rt::MemRefDescriptor<T, 3> *c, int64_t accumulate);
ADJ_MATMUL_ENTRIES(float, f32)
ADJ_MATMUL_ENTRIES(double, f64)
ADJ_MATMUL_ENTRIES(std::complex<float>, c64)
ADJ_MATMUL_ENTRIES(std::complex<double>, c128)
#undef ADJ_MATMUL_ENTRIES
void _mlir_ciface_adj_kernel_conv2d_nchw_fchw_f32(
    adjoint::rt::MemRefDescriptor<float, 4> *input,
    adjoint::rt::MemRefDescriptor<float, 4> *filter,
    adjoint::rt::MemRefDescriptor<float, 4> *output, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padTop,
    int64_t padLeft, int64_t accumulate);
void _mlir_ciface_adj_kernel_conv2d_nchw_fchw_f64(
    adjoint::rt::MemRefDescriptor<double, 4> *input,
    adjoint::rt::MemRefDescriptor<double, 4> *filter,
    adjoint::rt::MemRefDescriptor<double, 4> *output, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padTop,
    int64_t padLeft, int64_t accumulate);
}

#endif // ADJOINT_RUNTIME_KERNELS_H
