//===- OptimizeTest.cpp - Gates of the -adj-optimize pipeline -------------===//
//
// Training steps (forward, value_and_grad, SGD update) built with the C++
// API, differentiated by -adj-grad and optimized by -adj-optimize, must
// become first-order tensor code a person would write: no closure, call of
// a function value, environment or tuple left; the same values as before
// optimization (interpreter, f64, 1e-12), also when compiled for the host
// CPU; at most 3x the FLOPs of the forward pass; and, for the MLP, exactly
// the matmuls of a hand-written backward pass.
//
//===----------------------------------------------------------------------===//

#include "adjoint/AD/Passes.h"
#include "adjoint/API/Builder.h"
#include "adjoint/API/Compile.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Flops.h"
#include "adjoint/Interpreter/Interpreter.h"
#include "adjoint/Pipelines/Pipelines.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace adjoint;
namespace adj = adjoint::adj;

namespace {

using Shape = std::vector<int64_t>;

/// A training step: `loss(params..., data...)` and
/// `step(params..., data...) = (loss, params - lr * grad...)`.
struct TrainingStep {
  api::Module m;
  std::vector<api::Type> params, data;
};

api::Type f64(Shape shape) { return api::Type::tensor(DType::F64, shape); }
api::Type i64(Shape shape) { return api::Type::tensor(DType::I64, shape); }

/// Adds @step (value_and_grad of @loss w.r.t. the parameters, then SGD).
void addStep(TrainingStep &t) {
  std::vector<api::Type> inputs = t.params;
  inputs.insert(inputs.end(), t.data.begin(), t.data.end());
  size_t numParams = t.params.size();
  t.m.function("step", inputs, [&](std::vector<api::Value> args) {
    std::vector<int64_t> wrt;
    for (size_t i = 0; i < numParams; ++i)
      wrt.push_back(static_cast<int64_t>(i));
    api::Value vg =
        api::value_and_grad(t.m.lookup("loss").ref(),
                            api::ADOptions{wrt, false});
    api::Values out = api::call(vg, args);
    std::vector<api::Value> results{out[0]};
    for (size_t i = 0; i < numParams; ++i)
      results.push_back(args[i] - out[1 + i] * 0.1);
    return results;
  });
}

/// Random arguments for `types` (labels in [0, classes)).
std::vector<interp::Value> randomArgs(const std::vector<api::Type> &types,
                                      int64_t classes, std::mt19937 &rng) {
  std::vector<interp::Value> args;
  std::normal_distribution<double> normal(0.0, 0.5);
  std::uniform_int_distribution<int64_t> label(0, classes - 1);
  for (const api::Type &t : types) {
    Shape shape = t.shape();
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    std::vector<double> data(n);
    bool isInt = t.dtype() == DType::I64;
    for (double &v : data)
      v = isInt ? static_cast<double>(label(rng)) : normal(rng);
    args.push_back(interp::Tensor::fromDoubles(
        isInt ? DType::I64 : DType::F64, shape, data));
  }
  return args;
}

/// Runs the passes named by `build` on `module`; fails the test on error.
void runPasses(mlir::ModuleOp module,
               const std::function<void(mlir::PassManager &)> &build) {
  mlir::PassManager pm(module->getContext());
  build(pm);
  REQUIRE(mlir::succeeded(pm.run(module)));
  REQUIRE(mlir::succeeded(mlir::verify(module)));
}

/// Counts the ops in `func` for which `pred` holds.
size_t countOps(adj::FuncOp func, llvm::function_ref<bool(mlir::Operation *)> pred) {
  size_t n = 0;
  func.walk([&](mlir::Operation *op) { n += pred(op); });
  return n;
}

/// Checks that `actual` (the elements of each result) equals the tensors
/// `expected` to 1e-12 (relative, or absolute below 1).
void checkAgreement(const std::vector<std::vector<double>> &actual,
                    const std::vector<interp::Value> &expected) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    std::vector<double> e = expected[i].tensor().toDoubles();
    REQUIRE(actual[i].size() == e.size());
    for (size_t k = 0; k < e.size(); ++k)
      CHECK(std::abs(actual[i][k] - e[k]) <=
            1e-12 * std::max(1.0, std::abs(e[k])));
  }
}

/// The gates, for a training step with `classes` label classes.
void checkGates(TrainingStep &t, int64_t classes) {
  addStep(t);
  t.m.verify();
  mlir::ModuleOp module = t.m.op();
  runPasses(module, [](mlir::PassManager &pm) { pm.addPass(ad::createGrad()); });

  // The reference: the differentiated program before optimization.
  mlir::OwningOpRef<mlir::ModuleOp> before(module.clone());
  runPasses(module, [](mlir::PassManager &pm) { buildOptimizePipeline(pm); });

  auto step = mlir::SymbolTable::lookupNearestSymbolFrom<adj::FuncOp>(
      module, mlir::StringAttr::get(module.getContext(), "step"));
  auto loss = mlir::SymbolTable::lookupNearestSymbolFrom<adj::FuncOp>(
      module, mlir::StringAttr::get(module.getContext(), "loss"));
  REQUIRE(step);
  REQUIRE(loss);
  INFO("optimized step:\n" << [&] {
    std::string s;
    llvm::raw_string_ostream os(s);
    step->print(os);
    return s;
  }());

  // First-order tensor code only.
  CHECK(countOps(step, [](mlir::Operation *op) {
          return mlir::isa<adj::LambdaOp, adj::CallOp, adj::FuncRefOp,
                           adj::EnvNewOp, adj::EnvGetOp, adj::EnvSetOp,
                           adj::EnvAddOp, adj::TupleOp, adj::GetOp,
                           adj::ZerosLikeOp, adj::GradAddOp>(op) ||
                 op->getName().getStringRef() == "adj.closure";
        }) == 0);

  // The same values as before optimization.
  std::mt19937 rng(42);
  std::vector<api::Type> inputs = t.params;
  inputs.insert(inputs.end(), t.data.begin(), t.data.end());
  std::vector<interp::Value> args = randomArgs(inputs, classes, rng);
  std::vector<interp::Value> expected =
      interp::Interpreter(*before).call("step", args);
  std::vector<std::vector<double>> actual;
  for (const interp::Value &v : interp::Interpreter(module).call("step", args))
    actual.push_back(v.tensor().toDoubles());
  checkAgreement(actual, expected);

  // Compiled for the host CPU, the step computes the same values.
  CompileOptions options;
  options.optimize = false; // Already optimized.
  options.cache = false;
  Executable compiled = compile(module, "step", Target::cpu(), options);
  std::vector<rt::Tensor> inputsRt;
  for (const interp::Value &arg : args)
    inputsRt.push_back(toRuntime(arg.tensor()));
  std::vector<std::vector<double>> outputs;
  for (const rt::Tensor &t : compiled.run(inputsRt))
    outputs.push_back(t.toDoubles());
  checkAgreement(outputs, expected);

  // The whole step costs at most 3x the forward pass.
  adj::FlopCounter counter;
  adj::FlopCount forward = counter.count(loss);
  adj::FlopCount whole = counter.count(step);
  REQUIRE(forward.flops);
  REQUIRE(whole.flops);
  INFO("forward " << *forward.flops << " flops, step " << *whole.flops);
  CHECK(*whole.flops <= 3 * *forward.flops);
}

} // namespace

TEST_CASE("optimized MLP training step", "[optimize]") {
  TrainingStep t;
  t.params = {f64({16, 32}), f64({32}), f64({32, 10}), f64({10})};
  t.data = {f64({8, 16}), i64({8})};
  t.m.function("loss", {t.params[0], t.params[1], t.params[2], t.params[3],
                        t.data[0], t.data[1]},
               [](api::Value w1, api::Value b1, api::Value w2, api::Value b2,
                  api::Value x, api::Value y) {
                 api::Value h = api::relu(api::linear(x, w1, b1));
                 return api::cross_entropy(api::linear(h, w2, b2), y);
               });
  checkGates(t, 10);
  // A hand-written backward pass has 3 matmuls (dW2 = h^T dz, dh = dz W2^T,
  // dW1 = x^T dh1) next to the 2 of the forward pass; no dx is needed.
  auto step = mlir::SymbolTable::lookupNearestSymbolFrom<adj::FuncOp>(
      t.m.op(), mlir::StringAttr::get(t.m.op().getContext(), "step"));
  CHECK(countOps(step, [](mlir::Operation *op) {
          return mlir::isa<adj::MatmulOp>(op);
        }) == 5);
}

TEST_CASE("optimized CNN training step", "[optimize]") {
  TrainingStep t;
  t.params = {f64({4, 2, 3, 3}), f64({4 * 3 * 3, 5})};
  t.data = {f64({2, 2, 6, 6}), i64({2})};
  t.m.function("loss", {t.params[0], t.params[1], t.data[0], t.data[1]},
               [](api::Value k, api::Value w, api::Value x, api::Value y) {
                 api::Conv2DOptions same;
                 same.padding = {1, 1, 1, 1};
                 api::Value c = api::relu(api::conv2d(x, k, same));
                 api::Value p = api::max_pool2d(c, {2, 2});
                 api::Value f = api::reshape(p, {2, 4 * 3 * 3});
                 return api::cross_entropy(api::linear(f, w), y);
               });
  checkGates(t, 5);
}

TEST_CASE("optimized attention training step", "[optimize]") {
  TrainingStep t;
  t.params = {f64({8, 8}), f64({8, 8}), f64({8, 8}), f64({8}), f64({8})};
  t.data = {f64({2, 4, 8})};
  t.m.function("loss",
               {t.params[0], t.params[1], t.params[2], t.params[3],
                t.params[4], t.data[0]},
               [](api::Value wq, api::Value wk, api::Value wv, api::Value g,
                  api::Value b, api::Value x) {
                 api::Value q = api::matmul(x, wq), k = api::matmul(x, wk),
                            v = api::matmul(x, wv);
                 api::Value s = api::matmul(q, api::transpose(k, {0, 2, 1})) *
                                (1.0 / std::sqrt(8.0));
                 api::Value o = api::matmul(api::softmax(s, -1), v) + x;
                 api::Value n = api::layer_norm(o, g, b);
                 return api::mean(n * n);
               });
  checkGates(t, 1);
}

TEST_CASE("optimized LSTM training step over fixed steps", "[optimize]") {
  TrainingStep t;
  t.params = {f64({6, 16}), f64({4, 16}), f64({16})};
  t.data = {f64({5, 2, 6})};
  t.m.function(
      "loss", {t.params[0], t.params[1], t.params[2], t.data[0]},
      [&](api::Value wx, api::Value wh, api::Value b, api::Value xs) {
        api::Value h = api::zeros(t.m, {2, 4}, DType::F64);
        api::Value c = h;
        api::Values out = api::for_(
            0, 5, 1, {h, c},
            [&](api::Value i, api::Value hh, api::Value cc) -> api::Values {
              api::Value xt = api::reshape(
                  api::gather(xs, api::reshape(i, {1}), 0), {2, 6});
              api::Value z = api::matmul(xt, wx) + api::matmul(hh, wh) + b;
              api::Value ig = api::sigmoid(api::slice(z, {0, 0}, {2, 4}, {1, 1}));
              api::Value fg = api::sigmoid(api::slice(z, {0, 4}, {2, 8}, {1, 1}));
              api::Value og = api::sigmoid(api::slice(z, {0, 8}, {2, 12}, {1, 1}));
              api::Value gg = api::tanh(api::slice(z, {0, 12}, {2, 16}, {1, 1}));
              api::Value c2 = fg * cc + ig * gg;
              return {og * api::tanh(c2), c2};
            });
        return api::mean(out[0] * out[0]);
      });
  checkGates(t, 1);
}
