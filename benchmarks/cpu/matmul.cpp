//===- matmul.cpp - Compiled adj.matmul vs Eigen, GFLOP/s -----------------===//
//
// bench-cpu-matmul: for 1024^3, the matrix products of an MLP training
// step (784 -> 512 -> 10, batch 256: the forward products and the
// transposed ones its backward pass computes), the 16-row products of an
// LSTM step (batch 16, hidden 256) and the per-image GEMMs of a 3x3
// convolution (im2col, 64 channels), times the compiled adj
// function `c = a @ b` (with adj.transpose on an operand for the transposed
// variants) through the compile API, and Eigen on the same inputs in the
// same process: the Tensor contraction on a thread pool of the same size
// and the dense product on one thread (Eigen is what the runtime ran before
// oneDNN, and what XLA's CPU backend runs). Prints GFLOP/s, the ratio of
// compiled to the faster Eigen, and the largest relative difference of the
// results.
//
//   ADJOINT_NUM_THREADS=N bench-cpu-matmul     (default: all cores)
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "EigenReference.h"

#include "adjoint/Runtime/ThreadPool.h"

#include <cmath>
#include <cstdio>
#include <iterator>

using namespace adjoint;
using namespace adjoint::bench;

namespace {

struct Case {
  const char *name;
  int64_t m, k, n;
  bool transA, transB;
};

/// @mm(a, b) = op(a) @ op(b) with a stored [k, m] when transposed.
std::string program(const Case &c) {
  std::vector<int64_t> aShape = c.transA ? std::vector<int64_t>{c.k, c.m}
                                         : std::vector<int64_t>{c.m, c.k};
  std::vector<int64_t> bShape = c.transB ? std::vector<int64_t>{c.n, c.k}
                                         : std::vector<int64_t>{c.k, c.n};
  std::string a = tensorType(aShape), b = tensorType(bShape);
  std::string am = tensorType({c.m, c.k}), bm = tensorType({c.k, c.n});
  std::string text = "adj.func @mm(%a: " + a + ", %b: " + b + ") -> " +
                     tensorType({c.m, c.n}) + " {\n";
  std::string lhs = "%a", rhs = "%b";
  if (c.transA) {
    text += "  %ta = adj.transpose %a perm = [1, 0] : " + a + "\n";
    lhs = "%ta";
  }
  if (c.transB) {
    text += "  %tb = adj.transpose %b perm = [1, 0] : " + b + "\n";
    rhs = "%tb";
  }
  text += "  %c = adj.matmul " + lhs + ", " + rhs + " : " + am + ", " + bm +
          "\n  adj.return %c : " + tensorType({c.m, c.n}) + "\n}\n";
  return text;
}

} // namespace

int main() {
  const Case cases[] = {
      {"square 1024^3", 1024, 1024, 1024, false, false},
      {"mlp fwd x@W1", 256, 784, 512, false, false},
      {"mlp fwd h@W2", 256, 512, 10, false, false},
      {"mlp bwd dy@W2^T", 256, 10, 512, false, true},
      {"mlp bwd h^T@dy", 512, 256, 10, true, false},
      {"mlp bwd dh@W1^T", 256, 512, 784, false, true},
      {"mlp bwd x^T@dh", 784, 256, 512, true, false},
      {"lstm x@Wx", 16, 256, 1024, false, false},
      {"lstm dg@Wx^T", 16, 1024, 256, false, true},
      {"lstm h^T@dg", 256, 16, 1024, true, false},
      {"wide 16x256x4096", 16, 256, 4096, false, false},
      {"long-k B^T", 16, 4096, 256, false, true},
      {"conv W@patches", 64, 576, 256, false, false},
      {"conv patches^T", 256, 576, 64, false, false},
  };
  int threads = static_cast<int>(rt::ThreadPool::global().numThreads());
  EigenReference eigen(threads);
  std::printf("bench-cpu-matmul: f32, %d threads (compiled and Eigen "
              "Tensor), Eigen dense product on 1 thread\n",
              threads);
  std::printf("%-18s %16s %9s %9s %9s %7s %9s\n", "case", "m x k x n",
              "adj", "eigen-mt", "eigen-1t", "ratio", "max-rel");
  std::printf("%-18s %16s %9s %9s %9s %7s %9s\n", "", "", "GFLOP/s",
              "GFLOP/s", "GFLOP/s", "", "diff");
  double worst = 1e9, logSum = 0;
  for (const Case &c : cases) {
    Executable exe = compileText(program(c), "mm");
    rt::Tensor a = randomTensor(c.transA ? std::vector<int64_t>{c.k, c.m}
                                         : std::vector<int64_t>{c.m, c.k},
                                1);
    rt::Tensor b = randomTensor(c.transB ? std::vector<int64_t>{c.n, c.k}
                                         : std::vector<int64_t>{c.k, c.n},
                                2);
    std::vector<rt::Tensor> out;
    rt::Tensor ref = rt::Tensor::allocate(DType::F32, {c.m, c.n});
    std::vector<double> t = timeInterleaved({
        [&] { out = exe.run({a, b}); },
        [&] {
          eigen.matmul(a.data<float>(), b.data<float>(), ref.data<float>(),
                       c.m, c.k, c.n, c.transA, c.transB);
        },
        [&] {
          eigen.matmulSingleThread(a.data<float>(), b.data<float>(),
                                   ref.data<float>(), c.m, c.k, c.n, c.transA,
                                   c.transB);
        },
    });
    double tAdj = t[0], tMt = t[1], t1 = t[2];
    double gflop = 2.0 * c.m * c.k * c.n * 1e-9;
    double ratio = std::min(tMt, t1) / tAdj;
    worst = std::min(worst, ratio);
    logSum += std::log(ratio);
    char dims[64];
    std::snprintf(dims, sizeof dims, "%lldx%lldx%lld", (long long)c.m,
                  (long long)c.k, (long long)c.n);
    std::printf("%-18s %16s %9.1f %9.1f %9.1f %7.2f %9.1e\n", c.name, dims,
                gflop / tAdj, gflop / tMt, gflop / t1, ratio,
                maxRelativeError(out[0].data<float>(), ref.data<float>(),
                                 c.m * c.n));
  }
  std::printf("ratio (compiled / best Eigen): lowest %.2f, geometric mean "
              "%.2f (goal >= 1.00)\n",
              worst, std::exp(logSum / std::size(cases)));
  return 0;
}
