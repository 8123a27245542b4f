//===- main.cpp - A program built against an installed Adjoint ------------===//
//
// Builds f(x) = sum(tanh(x) * x) with the builder API, asks for its
// gradient with adj.grad, compiles both for the host CPU and checks them
// against the closed forms; then expands the AD request with the adj-grad
// pass and checks the reference interpreter's gradient too (which also
// needs the generated dialect headers). Exits non-zero on a wrong number,
// so that the ctest that builds it against the installed tree checks the
// libraries, not only that they link.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Builder.h"
#include "adjoint/API/Compile.h"
#include "adjoint/API/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Interpreter/Interpreter.h"
#include "adjoint/Support/Error.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace adj = adjoint::adj;
namespace api = adjoint::api;
namespace interp = adjoint::interp;
namespace rt = adjoint::rt;

int main() {
  const std::vector<double> x = {-1.5, -0.25, 0.5, 2.0};
  api::Module m;
  api::Type vec = api::Type::tensor(adjoint::DType::F64, {4});
  api::Function f = m.function(
      "f", {vec}, [](api::Value v) { return api::sum(api::tanh(v) * v); });
  m.function("df", {vec}, [&](api::Value v) {
    return api::call(api::grad(f.ref()), {v})[0];
  });

  try {
    adjoint::CompileOptions options;
    options.cache = false;
    rt::Tensor input = rt::Tensor::fromDoubles(adjoint::DType::F64, {4}, x);
    double value =
        adjoint::compile(m, "f", adjoint::Target::cpu(), options)
            .run({input})[0]
            .at(0);
    std::vector<double> grad =
        adjoint::compile(m, "df", adjoint::Target::cpu(), options)
            .run({input})[0]
            .toDoubles();

    double expectedValue = 0;
    bool ok = grad.size() == x.size();
    for (size_t i = 0; i < x.size(); ++i) {
      double t = std::tanh(x[i]);
      expectedValue += t * x[i];
      // d/dx tanh(x) x = tanh(x) + x (1 - tanh(x)^2)
      double expected = t + x[i] * (1 - t * t);
      if (ok && std::abs(grad[i] - expected) > 1e-12) {
        std::printf("df[%zu] = %.17g, expected %.17g\n", i, grad[i],
                    expected);
        ok = false;
      }
    }
    if (std::abs(value - expectedValue) > 1e-12) {
      std::printf("f = %.17g, expected %.17g\n", value, expectedValue);
      ok = false;
    }

    // The interpreter on the expanded gradient: the same numbers.
    api::runPasses(m, "adj-grad");
    int functions = 0;
    for (adj::FuncOp func : m.op().getOps<adj::FuncOp>())
      functions += func.getSymName() == "df";
    interp::Interpreter interpreter(m.op());
    std::vector<double> reference =
        interpreter.call("df", {adjoint::toInterpreter(input)})[0]
            .tensor()
            .toDoubles();
    for (size_t i = 0; ok && i < x.size(); ++i)
      if (functions != 1 || std::abs(reference[i] - grad[i]) > 1e-12) {
        std::printf("interpreter: df[%zu] = %.17g, compiled %.17g\n", i,
                    reference[i], grad[i]);
        ok = false;
      }
    if (!ok)
      return 1;
    std::printf("f = %.6f, df = [%.6f, %.6f, %.6f, %.6f]\n", value, grad[0],
                grad[1], grad[2], grad[3]);
  } catch (const adjoint::Error &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return 0;
}
