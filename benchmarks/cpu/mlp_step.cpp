//===- mlp_step.cpp - Training steps compiled vs interpreted --------------===//
//
// bench-cpu-mlp-step builds training steps (forward, value_and_grad, SGD
// update) with the C++ API and prints, for each:
//   - the compile time (cache off, O3; goal: under 2 s for the MLP step),
//   - steps per second compiled and in the reference interpreter (after the
//     same -adj-grad and -adj-optimize), and their ratio,
//   - the largest relative difference between the two (a sanity check);
// then, for chained steps (each step's new parameters are the next one's
// inputs), the bytes a step allocates at its peak and steps per second
// with the parameters donated (CompileOptions::donate: the update is
// computed into the old parameters' memory) against without.
// Steps: an MNIST-shaped MLP (784-512-10, batch 256, integer labels) and a
// small CNN (conv3x3-relu-maxpool-linear on 3x32x32, batch 32) with SGD;
// the donation table adds the MLP with Adam (parameters and both moments
// donated).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "adjoint/AD/Passes.h"
#include "adjoint/API/Builder.h"
#include "adjoint/Interpreter/Interpreter.h"
#include "adjoint/Pipelines/Pipelines.h"

#include "adjoint/Runtime/MemoryPool.h"

#include "mlir/Pass/PassManager.h"

#include <cmath>

using namespace adjoint;
namespace api = adjoint::api;

namespace {

api::Type f32(std::vector<int64_t> shape) {
  return api::Type::tensor(DType::F32, std::move(shape));
}

/// A training step: @step(params..., data...) -> (loss, params'...).
struct Step {
  std::string name;
  api::Module m;
  std::vector<api::Type> params, data;
};

/// Defines @loss from `forward` and @step around it.
void defineStep(Step &s,
                const std::function<api::Value(const std::vector<api::Value> &)>
                    &loss) {
  std::vector<api::Type> inputs = s.params;
  inputs.insert(inputs.end(), s.data.begin(), s.data.end());
  api::Function lossFn = s.m.function("loss", inputs, loss);
  s.m.function("step", inputs, [&](const std::vector<api::Value> &a) {
    api::ADOptions wrt;
    wrt.wrt = std::vector<int64_t>();
    for (size_t i = 0; i < s.params.size(); ++i)
      wrt.wrt->push_back(static_cast<int64_t>(i));
    api::Values lg = api::call(api::value_and_grad(lossFn.ref(), wrt), a);
    std::vector<api::Value> out = {lg[0]};
    for (size_t i = 0; i < s.params.size(); ++i)
      out.push_back(a[i] - lg[1 + i] * 0.01);
    return out;
  });
  s.m.verify();
}

/// @step(params..., m..., v..., data...) -> (loss, params'..., m'..., v'...)
/// with Adam's update: per parameter three outputs of its shape, all
/// elementwise in the gradient, so that donated they need no buffer but
/// the gradient's. `s.params` becomes (params, m, v).
void defineAdamStep(Step &s,
                    const std::function<api::Value(
                        const std::vector<api::Value> &)> &loss) {
  size_t n = s.params.size();
  std::vector<api::Type> lossInputs = s.params;
  lossInputs.insert(lossInputs.end(), s.data.begin(), s.data.end());
  api::Function lossFn = s.m.function("loss", lossInputs, loss);
  std::vector<api::Type> state = s.params;
  for (int copy = 0; copy < 2; ++copy)
    state.insert(state.end(), s.params.begin(), s.params.begin() + n);
  s.params = state;
  std::vector<api::Type> inputs = state;
  inputs.insert(inputs.end(), s.data.begin(), s.data.end());
  s.m.function("step", inputs, [&](const std::vector<api::Value> &a) {
    std::vector<api::Value> args(a.begin(), a.begin() + n);
    args.insert(args.end(), a.begin() + 3 * n, a.end());
    api::ADOptions wrt;
    wrt.wrt = std::vector<int64_t>();
    for (size_t i = 0; i < n; ++i)
      wrt.wrt->push_back(static_cast<int64_t>(i));
    api::Values lg = api::call(api::value_and_grad(lossFn.ref(), wrt), args);
    std::vector<api::Value> params, ms, vs;
    for (size_t i = 0; i < n; ++i) {
      api::Value g = lg[1 + i];
      api::Value m = a[n + i] * 0.9 + g * 0.1;
      api::Value v = a[2 * n + i] * 0.999 + g * g * 0.001;
      params.push_back(a[i] - m * 0.001 / (api::sqrt(v) + 1e-8));
      ms.push_back(m);
      vs.push_back(v);
    }
    std::vector<api::Value> out = {lg[0]};
    out.insert(out.end(), params.begin(), params.end());
    out.insert(out.end(), ms.begin(), ms.end());
    out.insert(out.end(), vs.begin(), vs.end());
    return out;
  });
  s.m.verify();
}

api::Value mlpLoss(const std::vector<api::Value> &a) {
  api::Value h = api::relu(api::linear(a[4], a[0], a[1]));
  return api::cross_entropy(api::linear(h, a[2], a[3]), a[5]);
}

/// The MNIST-shaped MLP's parameters and data (784-512-10, batch 256).
void mlpShapes(Step &s) {
  constexpr int64_t kBatch = 256, kIn = 784, kHidden = 512, kClasses = 10;
  s.params = {f32({kIn, kHidden}), f32({kHidden}), f32({kHidden, kClasses}),
              f32({kClasses})};
  s.data = {f32({kBatch, kIn}), api::Type::tensor(DType::I64, {kBatch})};
}

void buildMlpAdam(Step &s) {
  s.name = "mlp adam";
  mlpShapes(s);
  defineAdamStep(s, mlpLoss);
}

void buildMlp(Step &s) {
  s.name = "mlp 784-512-10 b256";
  mlpShapes(s);
  defineStep(s, mlpLoss);
}

void buildCnn(Step &s) {
  constexpr int64_t kBatch = 32, kChannels = 16, kClasses = 10;
  s.name = "cnn 3x32x32 b32";
  s.params = {f32({kChannels, 3, 3, 3}), f32({kChannels * 16 * 16, kClasses}),
              f32({kClasses})};
  s.data = {f32({kBatch, 3, 32, 32}),
            api::Type::tensor(DType::I64, {kBatch})};
  defineStep(s, [](const std::vector<api::Value> &a) {
    api::Conv2DOptions conv;
    conv.padding = {1, 1, 1, 1};
    api::Value y = api::relu(api::conv2d(a[3], a[0], conv));
    y = api::max_pool2d(y, {2, 2});
    y = api::reshape(y, {kBatch, -1});
    return api::cross_entropy(api::linear(y, a[1], a[2]), a[4]);
  });
}

/// Random inputs of `types`; i64 tensors are labels in [0, 10).
std::vector<rt::Tensor> randomInputs(const std::vector<api::Type> &types) {
  std::mt19937 rng(1);
  std::normal_distribution<double> normal(0.0, 0.05);
  std::uniform_int_distribution<int> label(0, 9);
  std::vector<rt::Tensor> out;
  for (const api::Type &t : types) {
    bool isLabel = t.dtype() == DType::I64;
    std::vector<double> v(t.numel());
    for (double &e : v)
      e = isLabel ? label(rng) : normal(rng);
    out.push_back(rt::Tensor::fromDoubles(
        isLabel ? DType::I64 : DType::F32, t.shape(), v));
  }
  return out;
}

void run(Step &s) {
  CompileOptions noCache;
  noCache.cache = false;
  auto t0 = std::chrono::steady_clock::now();
  Executable exe = compile(s.m, "step", Target::cpu(), noCache);
  double compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();

  mlir::OwningOpRef<mlir::ModuleOp> reference(s.m.op().clone());
  mlir::PassManager pm(s.m.context());
  pm.addPass(ad::createGrad());
  buildOptimizePipeline(pm);
  if (mlir::failed(pm.run(*reference))) {
    std::printf("%-22s the reference pipeline failed\n", s.name.c_str());
    return;
  }
  interp::Interpreter interpreter(*reference);

  std::vector<api::Type> types = s.params;
  types.insert(types.end(), s.data.begin(), s.data.end());
  std::vector<rt::Tensor> inputs = randomInputs(types);
  std::vector<interp::Value> args;
  for (const rt::Tensor &t : inputs)
    args.push_back(toInterpreter(t));

  std::vector<rt::Tensor> compiled;
  std::vector<interp::Value> interpreted;
  // Timed one after the other, not interleaved: between interpreter calls
  // the runtime's idle workers go to sleep, and waking them would be
  // charged to every compiled step.
  double compiledSeconds =
      bench::timeInterleaved({[&] { compiled = exe.run(inputs); }})[0];
  double interpretedSeconds = bench::timeInterleaved(
      {[&] { interpreted = interpreter.call("step", args); }}, /*rounds=*/3)[0];
  std::vector<double> seconds = {compiledSeconds, interpretedSeconds};

  double worst = 0;
  for (size_t i = 0; i < compiled.size(); ++i) {
    std::vector<double> a = compiled[i].toDoubles(),
                        e = interpreted[i].tensor().toDoubles();
    for (size_t k = 0; k < a.size(); ++k)
      worst = std::max(worst, std::fabs(a[k] - e[k]) /
                                  std::max(1e-3, std::fabs(e[k])));
  }
  std::printf("%-22s %9.2f %12.1f %12.1f %8.1fx %9.1e\n", s.name.c_str(),
              compileSeconds, 1 / seconds[0], 1 / seconds[1],
              seconds[1] / seconds[0], worst);
}

/// Chained steps of one executable: each step's new parameters (and
/// optimizer state) are the next one's inputs.
struct ChainedSteps {
  Executable exe;
  std::vector<rt::Tensor> inputs;
  size_t params = 0;
  rt::InvokeStats stats;

  ChainedSteps(Step &s, const CompileOptions &options)
      : exe(compile(s.m, "step", Target::cpu(), options)),
        params(s.params.size()) {
    std::vector<api::Type> types = s.params;
    types.insert(types.end(), s.data.begin(), s.data.end());
    inputs = randomInputs(types);
    step(); // warm: the pool's free lists hold a step's blocks
  }

  void step() {
    std::vector<rt::Tensor> out;
    rt::Status status = exe.tryRun(inputs, out, &stats);
    if (!status.ok())
      throw Error(status.toString());
    // The new parameters replace the old ones (freed here without
    // donation, already reused with it).
    for (size_t i = 0; i < params; ++i)
      inputs[i] = out[1 + i];
  }

  /// The bytes one step allocates at its peak, beyond what lives between
  /// steps.
  double peakBytes() {
    rt::MemoryPool &pool = rt::MemoryPool::global();
    uint64_t base = pool.stats().bytesInUse;
    pool.resetPeak();
    step();
    return double(pool.stats().peakBytesInUse - base);
  }
};

void donation(Step &s) {
  CompileOptions plainOptions;
  plainOptions.cache = false;
  CompileOptions donating = plainOptions;
  for (size_t i = 0; i < s.params.size(); ++i)
    donating.donate.push_back(static_cast<unsigned>(i));
  ChainedSteps plain(s, plainOptions), donated(s, donating);
  double plainPeak = plain.peakBytes(), donatedPeak = donated.peakBytes();
  std::vector<double> seconds = bench::timeInterleaved(
      {[&] { plain.step(); }, [&] { donated.step(); }});
  std::printf("%-22s %8.2f %8.2f %7.2fx %8.1f %8.1f %7.2fx %4u/%zu\n",
              s.name.c_str(), plainPeak / 1e6, donatedPeak / 1e6,
              plainPeak / std::max(1.0, donatedPeak), 1 / seconds[0],
              1 / seconds[1], seconds[0] / seconds[1],
              donated.stats.outputsDonated, s.params.size());
}

} // namespace

int main() {
  try {
    std::printf("bench-cpu-mlp-step: f32 training steps on %s\n",
                Target::cpu().chip.c_str());
    std::printf("%-22s %9s %12s %12s %9s %9s\n", "step", "compile", "compiled",
                "interpreted", "ratio", "max-rel");
    std::printf("%-22s %9s %12s %12s %9s %9s\n", "", "s", "steps/s",
                "steps/s", "", "diff");
    Step mlp, cnn;
    buildMlp(mlp);
    buildCnn(cnn);
    run(mlp);
    run(cnn);
    std::printf("goal: compile under 2 s for the MLP step\n\n");
    std::printf("chained steps, parameters donated or not: the peak bytes "
                "a step allocates, steps/s\n");
    std::printf("%-22s %8s %8s %8s %8s %8s %8s %6s\n", "step", "MB", "MB",
                "ratio", "steps/s", "steps/s", "ratio", "reused");
    std::printf("%-22s %8s %8s %8s %8s %8s %8s %6s\n", "", "plain",
                "donated", "", "plain", "donated", "", "");
    donation(mlp);
    donation(cnn);
    Step adam;
    buildMlpAdam(adam);
    donation(adam);
  } catch (const Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
  }
  return 0;
}
