//===- conv2d.cpp - Compiled adj.conv2d vs Eigen, GFLOP/s -----------------===//
//
// bench-cpu-conv2d: the convolutions of a small CNN's training step (batch
// 32: 3 -> 32 channels at 32x32 and 32 -> 64 at 16x16, 3x3 kernels, padding
// 1), plus the two convolutions that the backward pass of the second one
// runs (its input gradient, 64 -> 32 channels, and its filter gradient, a
// 16x16 "filter" over the padded input with batch and channels swapped),
// compiled from adj.conv2d through the compile API (NCHW), against Eigen's
// Tensor module on a thread pool of the same size (NHWC image patches +
// contraction, TensorFlow's CPU scheme). Prints GFLOP/s, their ratio and
// the largest relative difference of the results.
//
//   ADJOINT_NUM_THREADS=N bench-cpu-conv2d     (default: all cores)
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "EigenReference.h"

#include "adjoint/Runtime/ThreadPool.h"

#include <cstdio>

using namespace adjoint;
using namespace adjoint::bench;

namespace {

struct Case {
  const char *name;
  int64_t n, c, h, w, f, k, pad;
  int64_t out() const { return h + 2 * pad - k + 1; }
};

std::string program(const Case &c) {
  std::string x = tensorType({c.n, c.c, c.h, c.w});
  std::string w = tensorType({c.f, c.c, c.k, c.k});
  std::string y = tensorType({c.n, c.f, c.out(), c.out()});
  std::string p = std::to_string(c.pad);
  return "adj.func @conv(%x: " + x + ", %w: " + w + ") -> " + y + " {\n" +
         "  %y = adj.conv2d %x, %w stride = [1, 1] padding = [" + p + ", " +
         p + ", " + p + ", " + p + "] dilation = [1, 1] groups = 1 : " + x +
         ", " + w + "\n  adj.return %y : " + y + "\n}\n";
}

} // namespace

int main() {
  const Case cases[] = {
      {"cnn conv1 fwd", 32, 3, 32, 32, 32, 3, 1},
      {"cnn conv2 fwd", 32, 32, 16, 16, 64, 3, 1},
      {"cnn conv2 dx", 32, 64, 16, 16, 32, 3, 1},
      {"cnn conv2 dw", 32, 32, 16, 16, 64, 16, 1},
  };
  int threads = static_cast<int>(rt::ThreadPool::global().numThreads());
  EigenReference eigen(threads);
  std::printf("bench-cpu-conv2d: f32, stride 1, %d threads (compiled and "
              "Eigen Tensor)\n",
              threads);
  std::printf("%-15s %26s %9s %9s %7s %9s\n", "case", "NxC->F HxW kxk", "adj",
              "eigen", "ratio", "max-rel");
  std::printf("%-15s %26s %9s %9s %7s %9s\n", "", "", "GFLOP/s", "GFLOP/s", "",
              "diff");
  double worst = 1e9;
  for (const Case &c : cases) {
    int64_t o = c.out();
    Executable exe = compileText(program(c), "conv");
    rt::Tensor x = randomTensor({c.n, c.c, c.h, c.w}, 1);
    rt::Tensor w = randomTensor({c.f, c.c, c.k, c.k}, 2);
    // Eigen's layouts: NHWC input, HWIO filter, NHWC output.
    std::vector<float> xh(x.numel()), wh(w.numel()), yh(c.n * o * o * c.f);
    const float *xp = x.data<float>(), *wp = w.data<float>();
    for (int64_t n = 0; n < c.n; ++n)
      for (int64_t ch = 0; ch < c.c; ++ch)
        for (int64_t i = 0; i < c.h * c.w; ++i)
          xh[(n * c.h * c.w + i) * c.c + ch] = xp[(n * c.c + ch) * c.h * c.w + i];
    for (int64_t f = 0; f < c.f; ++f)
      for (int64_t ch = 0; ch < c.c; ++ch)
        for (int64_t i = 0; i < c.k * c.k; ++i)
          wh[(i * c.c + ch) * c.f + f] = wp[(f * c.c + ch) * c.k * c.k + i];
    std::vector<rt::Tensor> out;
    std::vector<double> t = timeInterleaved({
        [&] { out = exe.run({x, w}); },
        [&] {
          eigen.conv2d(xh.data(), wh.data(), yh.data(), c.n, c.h, c.w, c.c,
                       c.f, c.k, c.k, 1, c.pad);
        },
    });
    // NCHW against NHWC.
    std::vector<float> yc(yh.size());
    for (int64_t n = 0; n < c.n; ++n)
      for (int64_t f = 0; f < c.f; ++f)
        for (int64_t i = 0; i < o * o; ++i)
          yc[(n * c.f + f) * o * o + i] = yh[(n * o * o + i) * c.f + f];
    double gflop = 2.0 * c.n * c.f * o * o * c.c * c.k * c.k * 1e-9;
    double ratio = t[1] / t[0];
    worst = std::min(worst, ratio);
    char dims[64];
    std::snprintf(dims, sizeof dims, "%lldx%lld->%lld %lldx%lld %lldx%lld",
                  (long long)c.n, (long long)c.c, (long long)c.f,
                  (long long)c.h, (long long)c.w, (long long)c.k,
                  (long long)c.k);
    std::printf("%-15s %26s %9.1f %9.1f %7.2f %9.1e\n", c.name, dims,
                gflop / t[0], gflop / t[1], ratio,
                maxRelativeError(out[0].data<float>(), yc.data(),
                                 static_cast<int64_t>(yc.size())));
  }
  std::printf("lowest ratio (compiled / Eigen): %.2f (goal >= 0.80)\n",
              worst);
  return 0;
}
