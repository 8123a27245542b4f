//===- elementwise.cpp - A fused chain of 10 ops vs a hand-written loop ---===//
//
// bench-cpu-elementwise: ten elementwise adj ops (add, mul, sub, relu, mul
// by a constant, add, abs, sqrt, mul, neg) over two vectors of 16M floats,
// compiled through the compile API (fusion makes them one loop), against
// the same computation as one hand-written C++ loop built with -O3
// -march=native on one thread. Prints milliseconds, GB/s of the three
// arrays streamed, the ratio hand/compiled (goal >= 0.9) and the largest
// relative difference.
//
//   bench-cpu-elementwise [n]     (default n = 16777216)
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "HandLoop.h"

#include "adjoint/Runtime/ThreadPool.h"

#include <cstdio>
#include <cstdlib>

using namespace adjoint;
using namespace adjoint::bench;

namespace {

std::string program(int64_t n) {
  std::string t = tensorType({n});
  std::string bin = " : " + t + ", " + t + "\n";
  std::string un = " : " + t + "\n";
  return "adj.func @chain(%x: " + t + ", %y: " + t + ") -> " + t + " {\n" +
         "  %half = adj.constant dense<0.5> : tensor<f32>\n" +
         "  %0 = adj.add %x, %y" + bin + "  %1 = adj.mul %0, %x" + bin +
         "  %2 = adj.sub %1, %y" + bin + "  %3 = adj.relu %2" + un +
         "  %4 = adj.mul %3, %half : " + t + ", tensor<f32>\n" +
         "  %5 = adj.add %4, %x" + bin + "  %6 = adj.abs %5" + un +
         "  %7 = adj.sqrt %6" + un + "  %8 = adj.mul %7, %y" + bin +
         "  %9 = adj.neg %8" + un + "  adj.return %9 : " + t + "\n}\n";
}

} // namespace

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? std::atoll(argv[1]) : 16777216;
  Executable exe = compileText(program(n), "chain");
  rt::Tensor x = randomTensor({n}, 1), y = randomTensor({n}, 2);
  rt::Tensor ref = rt::Tensor::allocate(DType::F32, {n});
  std::vector<rt::Tensor> out;
  std::vector<double> t = timeInterleaved({
      [&] { out = exe.run({x, y}); },
      [&] {
        handChain(x.data<float>(), y.data<float>(), ref.data<float>(), n);
      },
  });
  double bytes = 3.0 * n * sizeof(float);
  std::printf("bench-cpu-elementwise: 10 fused f32 ops over %lld elements, "
              "compiled code may use %u threads, the hand loop 1\n",
              (long long)n, rt::ThreadPool::global().numThreads());
  std::printf("%-10s %9s %9s\n", "", "ms", "GB/s");
  std::printf("%-10s %9.2f %9.1f\n", "compiled", t[0] * 1e3,
              bytes / t[0] * 1e-9);
  std::printf("%-10s %9.2f %9.1f\n", "hand loop", t[1] * 1e3,
              bytes / t[1] * 1e-9);
  std::printf("ratio (hand / compiled time): %.2f (goal >= 0.90)\n",
              t[1] / t[0]);
  std::printf("max relative difference: %.1e\n",
              maxRelativeError(out[0].data<float>(), ref.data<float>(), n));

  // Sums along the innermost dimension (softmax, layer norm, losses):
  // compiled f32 sums may be reassociated, so they vectorize.
  constexpr int64_t kRows = 4096, kCols = 4096;
  std::string m = tensorType({kRows, kCols});
  Executable rows = compileText(
      "adj.func @rows(%x: " + m + ") -> " + tensorType({kRows}) +
          " {\n  %s = adj.reduce_sum %x axes = [1] : " + m +
          "\n  adj.return %s : " + tensorType({kRows}) + "\n}\n",
      "rows");
  rt::Tensor big = randomTensor({kRows, kCols}, 3);
  rt::Tensor sums = rt::Tensor::allocate(DType::F32, {kRows});
  std::vector<double> r = timeInterleaved({
      [&] { out = rows.run({big}); },
      [&] { handRowSums(big.data<float>(), sums.data<float>(), kRows, kCols); },
  });
  double matrixBytes = 4.0 * kRows * kCols;
  std::printf("\nrow sums of a %lldx%lld f32 matrix\n", (long long)kRows,
              (long long)kCols);
  std::printf("%-10s %9.2f %9.1f\n", "compiled", r[0] * 1e3,
              matrixBytes / r[0] * 1e-9);
  std::printf("%-10s %9.2f %9.1f\n", "hand loop", r[1] * 1e3,
              matrixBytes / r[1] * 1e-9);
  std::printf("ratio (hand / compiled time): %.2f\n", r[1] / r[0]);
  std::printf("max relative difference: %.1e\n",
              maxRelativeError(out[0].data<float>(), sums.data<float>(),
                               kRows));
  return 0;
}
