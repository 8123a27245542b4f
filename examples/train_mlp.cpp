//===- train_mlp.cpp - The main demo: train a compiled MLP classifier -----===//
//
// Builds one training step of a two-layer MLP classifier with the C++
// builder API,
//   @step(x, y, w1, b1, w2, b2) -> (loss, w1', b1', w2', b2')
// where the gradients come from adj.value_and_grad and the update is plain
// SGD, compiles it for the host CPU, and trains on a synthetic dataset that
// is learnable by construction (noisy samples around one random centre per
// class). It prints the loss going down, the test accuracy and the steps per
// second of the compiled step next to the reference interpreter's.
//
// It is also a test: it exits non-zero when the compiled step disagrees with
// the interpreter on the first step, or when training does not learn.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Builder.h"
#include "adjoint/API/Compile.h"
#include "adjoint/AD/Passes.h"
#include "adjoint/Interpreter/Interpreter.h"
#include "adjoint/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

namespace api = adjoint::api;
namespace interp = adjoint::interp;
namespace rt = adjoint::rt;

namespace {

constexpr int64_t kBatch = 128, kFeatures = 64, kHidden = 256, kClasses = 10;
constexpr int64_t kTrainSize = 4096, kTestSize = 1024;
constexpr int kSteps = 400, kPrintEvery = 40;
constexpr double kLearningRate = 0.1;

api::Type f32(std::vector<int64_t> shape) {
  return api::Type::tensor(adjoint::DType::F32, std::move(shape));
}

/// @logits(x, w1, b1, w2, b2) and @step(x, y, w1, b1, w2, b2).
void buildProgram(api::Module &m) {
  std::vector<api::Type> params = {f32({kFeatures, kHidden}), f32({kHidden}),
                                   f32({kHidden, kClasses}), f32({kClasses})};
  std::vector<api::Type> logitsInputs = {f32({kBatch, kFeatures})};
  logitsInputs.insert(logitsInputs.end(), params.begin(), params.end());
  api::Function logits =
      m.function("logits", logitsInputs, [&](const std::vector<api::Value> &a) {
        api::Value hidden = api::relu(api::linear(a[0], a[1], a[2]));
        return api::linear(hidden, a[3], a[4]);
      });

  // The loss takes one-hot targets: cross_entropy's probability form.
  std::vector<api::Type> stepInputs = {f32({kBatch, kFeatures}),
                                       f32({kBatch, kClasses})};
  stepInputs.insert(stepInputs.end(), params.begin(), params.end());
  api::Function loss =
      m.function("loss", stepInputs, [&](const std::vector<api::Value> &a) {
        api::Value z = logits(a[0], a[2], a[3], a[4], a[5]);
        return api::cross_entropy(z, a[1]);
      });
  m.function("step", stepInputs, [&](const std::vector<api::Value> &a) {
    api::ADOptions wrtParams;
    wrtParams.wrt = std::vector<int64_t>{2, 3, 4, 5};
    api::Values lossAndGrads =
        api::call(api::value_and_grad(loss.ref(), wrtParams), a);
    std::vector<api::Value> out = {lossAndGrads[0]};
    for (int i = 0; i < 4; ++i)
      out.push_back(a[2 + i] - lossAndGrads[1 + i] * kLearningRate);
    return out;
  });
  m.verify();
}

/// Samples scattered around one centre per class; labels are class indices.
struct Dataset {
  std::vector<float> x;
  std::vector<int> labels;
};

Dataset makeDataset(int64_t size, const std::vector<float> &centres,
                    std::mt19937 &rng) {
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::uniform_int_distribution<int> label(0, kClasses - 1);
  Dataset d;
  for (int64_t i = 0; i < size; ++i) {
    int c = label(rng);
    d.labels.push_back(c);
    for (int64_t j = 0; j < kFeatures; ++j)
      d.x.push_back(centres[c * kFeatures + j] + noise(rng));
  }
  return d;
}

/// Batch `b` (wrapping around) as the step's first two inputs.
std::pair<rt::Tensor, rt::Tensor> batch(const Dataset &d, int64_t b) {
  int64_t samples = static_cast<int64_t>(d.labels.size());
  std::vector<double> x, y(kBatch * kClasses, 0.0);
  for (int64_t i = 0; i < kBatch; ++i) {
    int64_t s = (b * kBatch + i) % samples;
    x.insert(x.end(), d.x.begin() + s * kFeatures,
             d.x.begin() + (s + 1) * kFeatures);
    y[i * kClasses + d.labels[s]] = 1.0;
  }
  return {rt::Tensor::fromDoubles(adjoint::DType::F32, {kBatch, kFeatures}, x),
          rt::Tensor::fromDoubles(adjoint::DType::F32, {kBatch, kClasses}, y)};
}

/// He-initialized weights, zero biases.
std::vector<rt::Tensor> initialParams(std::mt19937 &rng) {
  auto normal = [&](int64_t rows, int64_t cols) {
    std::normal_distribution<double> n(0.0, std::sqrt(2.0 / rows));
    std::vector<double> v(rows * cols);
    for (double &e : v)
      e = n(rng);
    return rt::Tensor::fromDoubles(adjoint::DType::F32, {rows, cols}, v);
  };
  return {normal(kFeatures, kHidden),
          rt::Tensor::zeros(adjoint::DType::F32, {kHidden}),
          normal(kHidden, kClasses),
          rt::Tensor::zeros(adjoint::DType::F32, {kClasses})};
}

/// The largest relative difference between two tensors of equal shape.
double maxRelativeDifference(const rt::Tensor &a, const interp::Tensor &b) {
  std::vector<double> u = a.toDoubles(), v = b.toDoubles();
  double worst = 0;
  for (size_t i = 0; i < u.size(); ++i)
    worst = std::max(worst, std::fabs(u[i] - v[i]) /
                                std::max(1e-3, std::fabs(v[i])));
  return worst;
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

} // namespace

int main() {
  try {
    api::Module m;
    buildProgram(m);

    std::mt19937 rng(7);
    std::normal_distribution<float> unit(0.0f, 1.0f);
    std::vector<float> centres(kClasses * kFeatures);
    for (float &c : centres)
      c = 0.5f * unit(rng);
    Dataset train = makeDataset(kTrainSize, centres, rng);
    Dataset test = makeDataset(kTestSize, centres, rng);
    std::vector<rt::Tensor> params = initialParams(rng);

    auto compileStart = std::chrono::steady_clock::now();
    adjoint::Executable step =
        adjoint::compile(m, "step", adjoint::Target::cpu());
    adjoint::Executable logits =
        adjoint::compile(m, "logits", adjoint::Target::cpu());
    std::printf("compiled @step and @logits for %s in %.2f s\n",
                adjoint::Target::cpu().chip.c_str(),
                seconds(compileStart));

    // The reference interpreter runs the same step after -adj-grad and
    // -adj-optimize; the compiled first step must agree with it.
    mlir::OwningOpRef<mlir::ModuleOp> reference(m.op().clone());
    mlir::PassManager pm(m.context());
    pm.addPass(adjoint::ad::createGrad());
    adjoint::buildOptimizePipeline(pm);
    if (mlir::failed(pm.run(*reference)))
      throw adjoint::Error("the reference pipeline failed");
    interp::Interpreter interpreter(*reference);

    auto stepInputs = [&](int64_t b) {
      auto [x, y] = batch(train, b);
      std::vector<rt::Tensor> in = {x, y};
      in.insert(in.end(), params.begin(), params.end());
      return in;
    };
    {
      std::vector<rt::Tensor> in = stepInputs(0);
      std::vector<interp::Value> args;
      for (const rt::Tensor &t : in)
        args.push_back(adjoint::toInterpreter(t));
      constexpr int kInterpretedSteps = 3;
      auto start = std::chrono::steady_clock::now();
      std::vector<interp::Value> expected;
      for (int i = 0; i < kInterpretedSteps; ++i)
        expected = interpreter.call("step", args);
      double interpretedRate = kInterpretedSteps / seconds(start);
      std::vector<rt::Tensor> got = step.run(in);
      double worst = 0;
      for (size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, maxRelativeDifference(got[i],
                                                      expected[i].tensor()));
      std::printf("first step: compiled vs interpreter, max relative "
                  "difference %.2e; interpreter %.1f steps/s\n",
                  worst, interpretedRate);
      if (!(worst < 1e-5)) {
        std::printf("FAIL: the compiled step disagrees with the interpreter\n");
        return 1;
      }
    }

    double firstLoss = 0, lastLoss = 0;
    auto trainStart = std::chrono::steady_clock::now();
    for (int s = 0; s < kSteps; ++s) {
      std::vector<rt::Tensor> out = step.run(stepInputs(s));
      lastLoss = out[0].at(0);
      if (s == 0)
        firstLoss = lastLoss;
      std::copy(out.begin() + 1, out.end(), params.begin());
      if (s % kPrintEvery == 0 || s == kSteps - 1)
        std::printf("step %4d  loss %.4f\n", s, lastLoss);
    }
    double rate = kSteps / seconds(trainStart);

    int64_t correct = 0, batches = kTestSize / kBatch;
    for (int64_t b = 0; b < batches; ++b) {
      std::vector<rt::Tensor> in = {batch(test, b).first};
      in.insert(in.end(), params.begin(), params.end());
      std::vector<double> z = logits.run(in)[0].toDoubles();
      for (int64_t i = 0; i < kBatch; ++i) {
        auto row = z.begin() + i * kClasses;
        int predicted = static_cast<int>(
            std::max_element(row, row + kClasses) - row);
        correct += predicted == test.labels[b * kBatch + i];
      }
    }
    double accuracy = static_cast<double>(correct) / (batches * kBatch);
    std::printf("%d steps at %.0f steps/s (batch %lld, %lld-%lld-%lld MLP); "
                "loss %.4f -> %.4f; test accuracy %.1f%%\n",
                kSteps, rate, static_cast<long long>(kBatch),
                static_cast<long long>(kFeatures),
                static_cast<long long>(kHidden),
                static_cast<long long>(kClasses), firstLoss, lastLoss,
                100 * accuracy);
    if (!(lastLoss < 0.5 * firstLoss) || accuracy < 0.9) {
      std::printf("FAIL: training did not learn\n");
      return 1;
    }
    std::printf("OK\n");
    return 0;
  } catch (const adjoint::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
