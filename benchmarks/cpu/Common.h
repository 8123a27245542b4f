//===- Common.h - Shared pieces of the CPU benchmarks -----------*- C++ -*-===//
//
// Compiling adj text through the compile API (no cache, so every run
// measures the current compiler), timing a callable, and printing one row
// per measurement. Benchmarks print numbers and ratios measured in the same
// run; they are not tests and always exit 0.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_BENCHMARKS_CPU_COMMON_H
#define ADJOINT_BENCHMARKS_CPU_COMMON_H

#include "adjoint/API/Compile.h"
#include "adjoint/InitAll.h"
#include "adjoint/Runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <ctime>
#include <string>
#include <vector>

namespace adjoint::bench {

/// Seconds per call of each of `fns`, measured in interleaved rounds (so
/// that a burst of load from other processes hits all of them alike): each
/// round times every function over as many calls as fill about 20 ms, and
/// the best round counts, the usual estimate of the undisturbed time.
/// ADJOINT_BENCH_CPU_TIME=1 times in the process's CPU time instead: on a
/// machine shared with other jobs, time spent descheduled then does not
/// count (meaningful with ADJOINT_NUM_THREADS=1; with more threads it adds
/// up every thread's time, idle polling included).
inline std::vector<double>
timeInterleaved(const std::vector<std::function<void()>> &fns,
                int rounds = 9) {
  static const bool cpuTime = [] {
    const char *value = std::getenv("ADJOINT_BENCH_CPU_TIME");
    return value && std::string(value) == "1";
  }();
  auto now = [] {
    if (cpuTime) {
      timespec t;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
      return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
    }
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  std::vector<int> calls;
  for (const auto &fn : fns) {
    fn(); // warm-up: caches, pool blocks, page faults
    double start = now();
    fn();
    double once = std::max(now() - start, 1e-7);
    calls.push_back(std::max(1, static_cast<int>(0.02 / once)));
  }
  std::vector<double> best(fns.size(), 1e30);
  for (int r = 0; r < rounds; ++r)
    for (size_t f = 0; f < fns.size(); ++f) {
      double t0 = now();
      for (int i = 0; i < calls[f]; ++i)
        fns[f]();
      best[f] = std::min(best[f], (now() - t0) / calls[f]);
    }
  return best;
}

/// Compiles function `function` of the adj module in `text` for the host,
/// bypassing the compile cache.
inline Executable compileText(const std::string &text,
                              const std::string &function) {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    adjoint::registerAllDialects(registry);
    auto *ctx = new mlir::MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, context);
  if (!module) {
    std::fprintf(stderr, "benchmark: cannot parse:\n%s\n", text.c_str());
    std::exit(1);
  }
  CompileOptions options;
  options.cache = false;
  return compile(*module, function, Target::cpu(), options);
}

/// "tensor<2x3xf32>".
inline std::string tensorType(const std::vector<int64_t> &shape,
                              const char *element = "f32") {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + element + ">";
}

/// Uniform values in [-1, 1), 64-byte aligned (so compiled code reads them
/// without a copy).
inline rt::Tensor randomTensor(std::vector<int64_t> shape, unsigned seed) {
  rt::Tensor t = rt::Tensor::allocate(DType::F32, std::move(shape));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  float *p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i)
    p[i] = dist(gen);
  return t;
}

/// The largest |a - b| / (1 + |b|) over two equally long arrays.
inline double maxRelativeError(const float *a, const float *b, int64_t n) {
  double worst = 0;
  for (int64_t i = 0; i < n; ++i)
    worst = std::max(worst, std::abs(double(a[i]) - double(b[i])) /
                                (1.0 + std::abs(double(b[i]))));
  return worst;
}

} // namespace adjoint::bench

#endif // ADJOINT_BENCHMARKS_CPU_COMMON_H
