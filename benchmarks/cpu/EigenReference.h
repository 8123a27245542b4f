//===- EigenReference.h - Eigen baselines for the CPU benchmarks -*- C++ -*-===//
//
// The references that compiled code is compared with, in their own file so
// that it can be built with -O3 -march=native (the best Eigen can do on this
// host) and without MLIR. Multi-threaded work runs Eigen's Tensor module on
// an Eigen::ThreadPoolDevice, the way TensorFlow and XLA's CPU runtime use
// Eigen: contractions for matrix products, and image patches + contraction
// (TensorFlow's SpatialConvolution scheme) for convolutions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_BENCHMARKS_CPU_EIGENREFERENCE_H
#define ADJOINT_BENCHMARKS_CPU_EIGENREFERENCE_H

#include <cstdint>
#include <memory>

namespace adjoint::bench {

class EigenReference {
public:
  /// Uses `threads` threads for the multi-threaded references.
  explicit EigenReference(int threads);
  ~EigenReference();

  /// c[m, n] = op(a) op(b), row-major, where op(a) is a [m, k] matrix stored
  /// as [k, m] when `transA` (likewise b: [k, n], stored [n, k] when
  /// `transB`). Eigen Tensor contraction on the thread pool.
  void matmul(const float *a, const float *b, float *c, int64_t m, int64_t k,
              int64_t n, bool transA, bool transB);
  /// The same with Eigen's dense matrix product on one thread.
  void matmulSingleThread(const float *a, const float *b, float *c, int64_t m,
                          int64_t k, int64_t n, bool transA, bool transB);

  /// out[n, y, x, f] = 2-D convolution (cross-correlation) of in[n, h, w, c]
  /// (NHWC) with filter[kh, kw, c, f] (HWIO), stride s, zero padding p on
  /// every side. Image patches + contraction on the thread pool.
  void conv2d(const float *in, const float *filter, float *out, int64_t n,
              int64_t h, int64_t w, int64_t c, int64_t f, int64_t kh,
              int64_t kw, int64_t stride, int64_t pad);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace adjoint::bench

#endif // ADJOINT_BENCHMARKS_CPU_EIGENREFERENCE_H
