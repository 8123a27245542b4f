//===- EigenReference.cpp - Eigen baselines for the CPU benchmarks --------===//

#define EIGEN_USE_THREADS
#include "EigenReference.h"

// Built with -march=native while the interpreter, linked into the same
// benchmark, instantiates the same Eigen templates for the baseline ISA; the
// linker would keep one copy of each. Its own namespace keeps the reference
// at its best (lib/Runtime/KernelsMatmul.cpp does the same).
#define Eigen AdjointReferenceEigen
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>

using namespace adjoint::bench;

struct EigenReference::Impl {
  explicit Impl(int threads) : pool(threads), device(&pool, threads) {}
  Eigen::ThreadPool pool;
  Eigen::ThreadPoolDevice device;
};

EigenReference::EigenReference(int threads)
    : impl_(std::make_unique<Impl>(threads)) {}
EigenReference::~EigenReference() = default;

namespace {
using ConstMatrix =
    Eigen::TensorMap<Eigen::Tensor<const float, 2, Eigen::RowMajor>>;
using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
using DimPair = Eigen::IndexPair<Eigen::Index>;
} // namespace

void EigenReference::matmul(const float *a, const float *b, float *c,
                            int64_t m, int64_t k, int64_t n, bool transA,
                            bool transB) {
  ConstMatrix ta(a, transA ? k : m, transA ? m : k);
  ConstMatrix tb(b, transB ? n : k, transB ? k : n);
  Matrix tc(c, m, n);
  Eigen::array<DimPair, 1> dims{DimPair(transA ? 0 : 1, transB ? 1 : 0)};
  tc.device(impl_->device) = ta.contract(tb, dims);
}

void EigenReference::matmulSingleThread(const float *a, const float *b,
                                        float *c, int64_t m, int64_t k,
                                        int64_t n, bool transA, bool transB) {
  using RowMajor =
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const RowMajor> ma(a, transA ? k : m, transA ? m : k);
  Eigen::Map<const RowMajor> mb(b, transB ? n : k, transB ? k : n);
  Eigen::Map<RowMajor> mc(c, m, n);
  if (transA && transB)
    mc.noalias() = ma.transpose() * mb.transpose();
  else if (transA)
    mc.noalias() = ma.transpose() * mb;
  else if (transB)
    mc.noalias() = ma * mb.transpose();
  else
    mc.noalias() = ma * mb;
}

void EigenReference::conv2d(const float *in, const float *filter, float *out,
                            int64_t n, int64_t h, int64_t w, int64_t c,
                            int64_t f, int64_t kh, int64_t kw, int64_t stride,
                            int64_t pad) {
  int64_t oh = (h + 2 * pad - kh) / stride + 1;
  int64_t ow = (w + 2 * pad - kw) / stride + 1;
  Eigen::TensorMap<Eigen::Tensor<const float, 4, Eigen::RowMajor>> input(
      in, n, h, w, c);
  ConstMatrix kernel(filter, kh * kw * c, f);
  Matrix output(out, n * oh * ow, f);
  // [n, patches, kh, kw, c] -> [n * patches, kh * kw * c].
  Eigen::array<Eigen::Index, 2> patchShape{n * oh * ow, kh * kw * c};
  auto patches = input
                     .extract_image_patches(kh, kw, stride, stride, 1, 1, 1,
                                            1, pad, pad, pad, pad, 0.0f)
                     .reshape(patchShape);
  Eigen::array<DimPair, 1> dims{DimPair(1, 0)};
  output.device(impl_->device) = patches.contract(kernel, dims);
}
