//===- transform_scaling.cpp - Transform and compile time against size ----===//
//
// Whether the compiler's time grows linearly with the program. Builds
//   - a straight chain of N elementwise ops on a f32[16] (N = 1k, 10k, 100k;
//     unary and binary ops, with a parameter used all along the chain so the
//     backward pass is as long as the forward one), and
//   - an MLP of L layers (L = 100, 1000: matmul, bias, tanh; one weight
//     matrix and one bias parameter per layer),
// asks for the gradient of a scalar loss, and times
//   - -adj-grad then -adj-optimize (adjoint::buildOptimizePipeline), and
//   - compile() of the gradient function (the whole lowering and LLVM; no
//     cache) for the sizes up to `--compile-max` primitive ops (10k default:
//     LLVM on one 100k-op fused kernel takes minutes, and is not ours),
// and prints the time per input op of each (wall and, for the transform,
// the process's CPU time, which a busy machine disturbs less). The goal of issue 13: under 5 s
// for the 100k-op transform, and a time per op that does not grow with the
// size (the ratio of the largest size's time per op to the smallest's is
// printed: near 1 is linear, 10 would be quadratic over a 10x step).
//
// A benchmark, not a test: it always exits 0. Usage:
//   bench-transform-scaling [--compile-max N] [--only chain|mlp]
//
//===----------------------------------------------------------------------===//

#include "adjoint/AD/Passes.h"
#include "adjoint/API/Builder.h"
#include "adjoint/API/Compile.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace api = adjoint::api;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// CPU seconds of the process: on a busy machine wall time measures the
/// other processes too. MLIR may use threads: this adds theirs.
double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

/// loss(x, w) = sum(chain(x, w)) of `n` elementwise ops, and main = its
/// gradient with respect to both arguments.
void buildChain(api::Module &m, int64_t n) {
  api::Type vec = api::Type::tensor(adjoint::DType::F32, {16});
  api::Function loss =
      m.function("loss", {vec, vec}, [&](api::Value x, api::Value w) {
        // Ops whose derivative does not simplify away, bounded values.
        for (int64_t i = 0; i < n - 1; ++i) {
          switch (i % 6) {
          case 0: x = api::tanh(x); break;
          case 1: x = x * w; break;
          case 2: x = api::sin(x); break;
          case 3: x = x + w; break;
          case 4: x = api::sigmoid(x); break;
          default: x = x - w; break;
          }
        }
        return api::sum(x);
      });
  m.function("main", {vec, vec}, [&](api::Value x, api::Value w) {
    return api::call(api::grad(loss.ref()), {x, w});
  });
}

/// An MLP of `layers` layers of width 16 on a batch of 8, with one weight
/// matrix and one bias per layer; main = the gradient of the mean output
/// with respect to every parameter.
void buildMlp(api::Module &m, int64_t layers) {
  api::Type batch = api::Type::tensor(adjoint::DType::F32, {8, 16});
  api::Type weight = api::Type::tensor(adjoint::DType::F32, {16, 16});
  api::Type bias = api::Type::tensor(adjoint::DType::F32, {16});
  std::vector<api::Type> inputs = {batch};
  for (int64_t l = 0; l < layers; ++l) {
    inputs.push_back(weight);
    inputs.push_back(bias);
  }
  api::Function loss =
      m.function("loss", inputs, [&](const std::vector<api::Value> &args) {
        api::Value h = args[0];
        for (int64_t l = 0; l < layers; ++l)
          h = api::tanh(api::matmul(h, args[1 + 2 * l]) + args[2 + 2 * l]);
        return api::mean(h);
      });
  api::ADOptions wrt;
  wrt.wrt.emplace();
  for (int64_t i = 1; i <= 2 * layers; ++i)
    wrt.wrt->push_back(i);
  m.function("main", inputs, [&](const std::vector<api::Value> &args) {
    return api::call(api::grad(loss.ref(), wrt), args);
  });
}

/// The primitive ops of `loss` (terminators excluded).
int64_t countLossOps(api::Module &m) {
  mlir::Operation *root = m.lookup("loss").op().getOperation();
  int64_t n = 0;
  root->walk([&](mlir::Operation *op) {
    if (op != root && !op->hasTrait<mlir::OpTrait::IsTerminator>())
      ++n;
  });
  return n;
}

struct Row {
  std::string name;
  int64_t ops = 0;
  double build = 0, transform = 0, transformCpu = 0, compile = -1;
};

/// Builds, transforms and (when small enough) compiles one program.
template <typename BuildFn>
Row measure(const std::string &name, BuildFn build, int64_t compileMax) {
  Row row;
  row.name = name;
  api::Module m;
  Clock::time_point start = Clock::now();
  build(m);
  row.build = secondsSince(start);
  row.ops = countLossOps(m);

  mlir::OwningOpRef<mlir::ModuleOp> copy = m.op().clone();
  // As compile() runs the stage: the IR is verified after it, not after
  // each pass (CompileOptions::verifyEachPass).
  mlir::PassManager pm(m.context());
  pm.enableVerifier(false);
  pm.addPass(adjoint::ad::createGrad());
  adjoint::buildOptimizePipeline(pm);
  start = Clock::now();
  double cpuStart = cpuSeconds();
  if (mlir::failed(pm.run(*copy)) || mlir::failed(mlir::verify(*copy))) {
    std::printf("%s: -adj-grad -adj-optimize failed\n", name.c_str());
    return row;
  }
  row.transform = secondsSince(start);
  row.transformCpu = cpuSeconds() - cpuStart;

  if (row.ops <= compileMax) {
    adjoint::CompileOptions options;
    options.cache = false;
    start = Clock::now();
    adjoint::compile(m, "main", adjoint::Target::cpu(), options);
    row.compile = secondsSince(start);
  }
  return row;
}

void printRows(const char *title, const std::vector<Row> &rows) {
  std::printf("\n%s\n", title);
  std::printf("  %-12s %8s %9s %12s %12s %9s %12s %9s\n", "program", "ops",
              "build s", "transform s", "(cpu s)", "us/op", "compile s",
              "us/op");
  for (const Row &r : rows) {
    std::printf("  %-12s %8lld %9.3f %12.3f %12.3f %9.2f", r.name.c_str(),
                static_cast<long long>(r.ops), r.build, r.transform,
                r.transformCpu, r.transform / r.ops * 1e6);
    if (r.compile >= 0)
      std::printf(" %12.3f %9.2f\n", r.compile, r.compile / r.ops * 1e6);
    else
      std::printf(" %12s %9s\n", "-", "-");
  }
  if (rows.size() < 2)
    return;
  const Row &small = rows.front(), &large = rows.back();
  std::printf("  transform time per op, %lld ops / %lld ops: %.2fx\n",
              static_cast<long long>(large.ops),
              static_cast<long long>(small.ops),
              (large.transform / large.ops) / (small.transform / small.ops));
}

} // namespace

int main(int argc, char **argv) {
  int64_t compileMax = 10000;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--compile-max") && i + 1 < argc)
      compileMax = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else {
      std::printf("usage: %s [--compile-max N] [--only chain|mlp]\n",
                  argv[0]);
      return 0;
    }
  }
  try {
    if (only.empty() || only == "chain") {
      std::vector<Row> rows;
      for (int64_t n : {1000, 10000, 100000})
        rows.push_back(measure(
            "chain-" + std::to_string(n / 1000) + "k",
            [&](api::Module &m) { buildChain(m, n); }, compileMax));
      printRows("Elementwise chains: grad + optimize, compile", rows);
      const Row &last = rows.back();
      std::printf("  goal: 100k-op transform under 5 s: %s (%.2f s)\n",
                  last.transform < 5.0 ? "PASS" : "FAIL", last.transform);
    }
    if (only.empty() || only == "mlp") {
      std::vector<Row> rows;
      for (int64_t layers : {100, 1000})
        rows.push_back(measure(
            "mlp-" + std::to_string(layers),
            [&](api::Module &m) { buildMlp(m, layers); }, compileMax));
      printRows("MLPs (matmul + bias + tanh per layer)", rows);
    }
  } catch (const adjoint::Error &e) {
    std::printf("bench-transform-scaling: error: %s\n", e.what());
  }
  return 0;
}
