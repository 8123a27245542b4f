//===- grad_1000_ops.cpp - Time -adj-grad on a 1000-op function -----------===//
//
// Builds a straight-line function of 1000 primitive ops on small tensors
// (elementwise ops, matrix products, reductions and broadcasts, mixed), asks
// for its gradient, and times -adj-grad on it (steady_clock, best of 5, each
// run on a fresh copy of the module). Prints the time, the size of the
// output IR (op count and printed bytes) and the goal (< 1 s) with PASS or
// FAIL. Then times -adj-grad followed by the optimizer pipeline
// (-adj-optimize, adjoint::buildOptimizePipeline) the same way, and prints
// that time, the optimizer's share of it, the op count of the optimized
// output and the goal (< 2 s) with PASS or FAIL. A benchmark, not a test: it
// exits 0 either way.
//
// With an argument, writes the module after -adj-grad to that file, so that
// the optimizer can be timed pass by pass:
//   ir-opt -adj-optimize --mlir-timing FILE -o /dev/null
//
//===----------------------------------------------------------------------===//

#include "adjoint/AD/Passes.h"
#include "adjoint/API/Builder.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace api = adjoint::api;

namespace {

constexpr int kTargetOps = 1000;
constexpr int kRepetitions = 5;
constexpr double kGoalSeconds = 1.0;
constexpr double kOptimizeGoalSeconds = 2.0;

/// The ops in `op`'s regions, terminators excluded.
int64_t countOps(mlir::Operation *root) {
  int64_t n = 0;
  root->walk([&](mlir::Operation *op) {
    if (op != root && !op->hasTrait<mlir::OpTrait::IsTerminator>())
      ++n;
  });
  return n;
}

/// f(a, b, v): a chain that mixes every kind of op the models use, so that
/// the transform sees matmul, reduction and broadcast rules, not just adds.
/// Stops at kTargetOps ops (the final reduction to a scalar included).
void buildProgram(api::Module &m) {
  const adjoint::DType f64 = adjoint::DType::F64;
  api::Type mat = api::Type::tensor(f64, {8, 8});
  api::Type vec = api::Type::tensor(f64, {8});
  api::Function f = m.function("f", {mat, mat, vec}, [&](api::Value a,
                                                         api::Value b,
                                                         api::Value v) {
    api::Value x = a, y = b;
    int64_t ops = 0;
    auto body = [&]() -> mlir::Operation * {
      return x.mlir().getParentRegion()->getParentOp();
    };
    for (int step = 0;; ++step) {
      // A step adds at most 5 ops; leave room to land exactly on target.
      ops = countOps(body());
      if (ops >= kTargetOps - 6)
        break;
      switch (step % 8) {
      case 0: // elementwise with broadcasting
        x = api::tanh(x + v);
        break;
      case 1: // matrix product
        y = api::matmul(x, y) * 0.125;
        break;
      case 2: // reduction, then a broadcast back
        x = x - api::mean(x, 1, true);
        break;
      case 3:
        y = api::sin(y) * x;
        break;
      case 4: // transposes and a sum over rows
        x = api::transpose(y) + api::sum(x, 0, true) * 0.01;
        break;
      case 5:
        y = api::sigmoid(y - x);
        break;
      case 6:
        v = v + api::max(x, 0) * 0.1;
        break;
      default:
        x = api::exp(x * 0.05) * y;
        break;
      }
    }
    // Pad with cheap unary ops to exactly kTargetOps - 1, then reduce.
    while (countOps(body()) < kTargetOps - 1)
      x = api::neg(x);
    return api::sum(x);
  });
  m.function("main", {mat, mat, vec}, [&](api::Value a, api::Value b,
                                          api::Value v) {
    return api::call(api::grad(f.ref()), {a, b, v});
  });
  m.verify();
}

/// Times -adj-grad followed by -adj-optimize on fresh copies of `m` (best
/// of kRepetitions) and prints the result. Exits 0 either way.
void benchOptimize(api::Module &m) {
  double bestTotal = 1e30, bestOptimize = 1e30;
  int64_t outOps = 0;
  bool ok = true;
  for (int rep = 0; rep < kRepetitions && ok; ++rep) {
    mlir::OwningOpRef<mlir::ModuleOp> copy = m.op().clone();
    mlir::PassManager grad(m.context());
    grad.addPass(adjoint::ad::createGrad());
    mlir::PassManager optimize(m.context());
    adjoint::buildOptimizePipeline(optimize);
    auto start = std::chrono::steady_clock::now();
    ok = mlir::succeeded(grad.run(*copy));
    auto mid = std::chrono::steady_clock::now();
    ok = ok && mlir::succeeded(optimize.run(*copy));
    auto stop = std::chrono::steady_clock::now();
    bestTotal = std::min(
        bestTotal, std::chrono::duration<double>(stop - start).count());
    bestOptimize = std::min(
        bestOptimize, std::chrono::duration<double>(stop - mid).count());
    if (ok && rep == 0) {
      ok = mlir::succeeded(mlir::verify(*copy));
      outOps = countOps(copy->getOperation());
    }
  }
  if (!ok) {
    std::printf("bench-grad-1000: -adj-grad -adj-optimize failed on the "
                "program\n");
    return;
  }
  std::printf("bench-grad-1000: -adj-grad then -adj-optimize on the same "
              "function\n");
  std::printf("  time (best of %d): %.3f ms (optimizer alone, best of %d: "
              "%.3f ms)\n",
              kRepetitions, bestTotal * 1e3, kRepetitions, bestOptimize * 1e3);
  std::printf("  optimized IR: %lld ops\n", static_cast<long long>(outOps));
  std::printf("  goal < %.0f s: %s\n", kOptimizeGoalSeconds,
              bestTotal < kOptimizeGoalSeconds ? "PASS" : "FAIL");
}

/// Writes the module after -adj-grad to `path` (for ir-opt --mlir-timing).
void dumpGradModule(api::Module &m, const char *path) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = m.op().clone();
  mlir::PassManager pm(m.context());
  pm.addPass(adjoint::ad::createGrad());
  if (mlir::failed(pm.run(*copy))) {
    std::printf("bench-grad-1000: -adj-grad failed; nothing written\n");
    return;
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    std::printf("bench-grad-1000: cannot write %s: %s\n", path,
                ec.message().c_str());
    return;
  }
  copy->print(os);
  std::printf("bench-grad-1000: module after -adj-grad written to %s\n",
              path);
}

} // namespace

int main(int argc, char **argv) {
  try {
    api::Module m;
    buildProgram(m);
    mlir::Operation *fOp = m.lookup("f").op().getOperation();
    int64_t inputOps = countOps(fOp);

    double best = 1e30;
    int64_t outOps = 0;
    size_t outBytes = 0;
    bool ok = true;
    for (int rep = 0; rep < kRepetitions && ok; ++rep) {
      mlir::OwningOpRef<mlir::ModuleOp> copy = m.op().clone();
      mlir::PassManager pm(m.context());
      pm.addPass(adjoint::ad::createGrad());
      auto start = std::chrono::steady_clock::now();
      ok = mlir::succeeded(pm.run(*copy));
      auto stop = std::chrono::steady_clock::now();
      best = std::min(best,
                      std::chrono::duration<double>(stop - start).count());
      if (ok && rep == 0) {
        ok = mlir::succeeded(mlir::verify(*copy));
        outOps = countOps(copy->getOperation());
        std::string text;
        llvm::raw_string_ostream os(text);
        copy->print(os);
        outBytes = text.size();
      }
    }
    if (!ok) {
      std::printf("bench-grad-1000: -adj-grad failed on the program\n");
      return 0;
    }
    std::printf("bench-grad-1000: -adj-grad on a function of %lld primitive "
                "ops\n",
                static_cast<long long>(inputOps));
    std::printf("  time (best of %d): %.3f ms\n", kRepetitions, best * 1e3);
    std::printf("  output IR: %lld ops, %zu bytes printed\n",
                static_cast<long long>(outOps), outBytes);
    std::printf("  goal < %.0f s: %s\n", kGoalSeconds,
                best < kGoalSeconds ? "PASS" : "FAIL");

    benchOptimize(m);
    if (argc > 1)
      dumpGradModule(m, argv[1]);
  } catch (const adjoint::Error &e) {
    std::printf("bench-grad-1000: error: %s\n", e.what());
  }
  return 0;
}
