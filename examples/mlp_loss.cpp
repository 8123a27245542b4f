//===- mlp_loss.cpp - A 2-layer MLP classifier loss with the builder API --===//
//
// Builds two functions with the C++ builder API:
//   @init(seed)                 -> (w1, b1, w2, b2), seeded normal weights
//   @loss(x, labels, params)    -> cross_entropy(relu(x @ w1 + b1) @ w2 + b2)
// prints the IR, evaluates both with the reference interpreter on a small
// synthetic batch, and checks the loss against a plain C++ computation from
// the same weights. Returns non-zero if they disagree.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Builder.h"
#include "adjoint/Interpreter/Interpreter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace api = adjoint::api;
namespace interp = adjoint::interp;

namespace {

constexpr int64_t kBatch = 8, kIn = 4, kHidden = 16, kClasses = 3;

api::Type f32(std::vector<int64_t> shape) {
  return api::Type::tensor(adjoint::DType::F32, std::move(shape));
}

/// Builds @init and @loss.
void buildProgram(api::Module &m) {
  api::Type params = api::Type::tuple(
      {f32({kIn, kHidden}), f32({kHidden}), f32({kHidden, kClasses}),
       f32({kClasses})});

  api::Type seedType = api::Type::scalar(adjoint::DType::I64);
  m.function("init", {seedType}, [&](api::Value seed) {
    // Scaled like He initialization: std = sqrt(2 / fan_in).
    api::Value w1 = api::random_normal(seed, {kIn, kHidden}, adjoint::DType::F32,
                                       0.0, std::sqrt(2.0 / kIn));
    api::Value w2 = api::random_normal(seed + 1.0, {kHidden, kClasses},
                                       adjoint::DType::F32, 0.0,
                                       std::sqrt(2.0 / kHidden));
    return api::make_tuple({w1, api::zeros(m, {kHidden}), w2,
                            api::fill(m, 0.1, {kClasses})});
  });

  m.function("loss",
             {f32({kBatch, kIn}), api::Type::tensor(adjoint::DType::I64, {kBatch}),
              params},
             [&](api::Value x, api::Value labels, api::Value p) {
               api::Value hidden = api::relu(
                   api::linear(x, api::get(p, 0), api::get(p, 1)));
               api::Value logits =
                   api::linear(hidden, api::get(p, 2), api::get(p, 3));
               return api::cross_entropy(logits, labels);
             });
  m.verify();
}

/// The synthetic batch: smooth features, labels cycling through classes.
std::vector<double> features() {
  std::vector<double> x;
  for (int64_t i = 0; i < kBatch; ++i)
    for (int64_t j = 0; j < kIn; ++j)
      x.push_back(std::sin(0.7 * static_cast<double>(i * kIn + j)) +
                  0.3 * static_cast<double>(i % kClasses));
  return x;
}

std::vector<double> labels() {
  std::vector<double> y;
  for (int64_t i = 0; i < kBatch; ++i)
    y.push_back(static_cast<double>(i % kClasses));
  return y;
}

/// The same loss in plain C++ (double precision).
double referenceLoss(const std::vector<double> &x, const std::vector<double> &y,
                     const std::vector<interp::Value> &p) {
  std::vector<double> w1 = p[0].tensor().toDoubles(),
                      b1 = p[1].tensor().toDoubles(),
                      w2 = p[2].tensor().toDoubles(),
                      b2 = p[3].tensor().toDoubles();
  double total = 0;
  for (int64_t n = 0; n < kBatch; ++n) {
    std::vector<double> h(kHidden), logits(kClasses);
    for (int64_t j = 0; j < kHidden; ++j) {
      double s = b1[j];
      for (int64_t i = 0; i < kIn; ++i)
        s += x[n * kIn + i] * w1[i * kHidden + j];
      h[j] = std::max(s, 0.0);
    }
    for (int64_t c = 0; c < kClasses; ++c) {
      logits[c] = b2[c];
      for (int64_t j = 0; j < kHidden; ++j)
        logits[c] += h[j] * w2[j * kClasses + c];
    }
    double mx = *std::max_element(logits.begin(), logits.end()), z = 0;
    for (double l : logits)
      z += std::exp(l - mx);
    total += -(logits[static_cast<int64_t>(y[n])] - mx - std::log(z));
  }
  return total / kBatch;
}

} // namespace

int main() {
  try {
    api::Module m;
    buildProgram(m);
    std::cout << m.str() << "\n";

    interp::Interpreter interpreter(m.op());
    std::vector<interp::Value> params =
        interpreter.call("init", {interp::Tensor::scalar(adjoint::DType::I64,
                                                         /*seed=*/2024)});
    std::vector<double> x = features(), y = labels();
    std::vector<interp::Value> loss = interpreter.call(
        "loss",
        {interp::Tensor::fromDoubles(adjoint::DType::F32, {kBatch, kIn}, x),
         interp::Tensor::fromDoubles(adjoint::DType::I64, {kBatch}, y),
         params.front()});

    double got = loss.front().tensor().at(0);
    double expected = referenceLoss(x, y, params.front().elements());
    std::printf("loss = %.6f (plain C++ reference: %.6f)\n", got, expected);
    if (!(std::fabs(got - expected) <= 1e-4 * std::max(1.0, expected))) {
      std::printf("FAIL: the interpreted loss differs from the reference\n");
      return 1;
    }
    std::printf("OK\n");
    return 0;
  } catch (const adjoint::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
