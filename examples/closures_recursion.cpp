//===- closures_recursion.cpp - Functional programs with the builder API --===//
//
// Closures (make_adder returns a closure, compose is higher-order),
// recursion (power by repeated multiplication, stopped by adj.if), a counted
// loop (factorial with adj.for) and tuples (sum, max and mean of a vector),
// built with the C++ builder API, printed, and evaluated by the reference
// interpreter. Returns non-zero if a result differs from its expected value.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Builder.h"
#include "adjoint/Interpreter/Interpreter.h"

#include <cmath>
#include <cstdio>
#include <iostream>

namespace api = adjoint::api;
namespace interp = adjoint::interp;

namespace {

const api::Type kF64 = api::Type::scalar(adjoint::DType::F64);
const api::Type kI64 = api::Type::scalar(adjoint::DType::I64);
const api::Type kF64Fn = api::Type::fn({kF64}, {kF64});

void buildProgram(api::Module &m) {
  // make_adder(n) = lambda x: x + n   (n is a free variable of the closure)
  api::Function makeAdder = m.function("make_adder", {kF64}, [&](api::Value n) {
    return api::lambda(m, {kF64}, [&](api::Value x) { return x + n; });
  });

  // compose(f, g) = lambda x: f(g(x))
  api::Function compose =
      m.function("compose", {kF64Fn, kF64Fn}, [&](api::Value f, api::Value g) {
        return api::lambda(m, {kF64}, [&](api::Value x) { return f(g(x)); });
      });

  // power(x, n) = 1 if n == 0 else x * power(x, n - 1)
  api::Function power = m.declare("power", {kF64, kI64}, {kF64});
  power.define([&](api::Value x, api::Value n) {
    return api::if_(
        n == 0.0, [&] { return x - x + 1.0; },
        [&] { return x * power(x, n - 1.0); });
  });

  // factorial(n) = prod_{i=1..n} i, with a loop carrying the product.
  api::Function factorial = m.function("factorial", {kI64}, [&](api::Value n) {
    api::Value one = api::scalar(m, 1, adjoint::DType::I64);
    return api::for_(one, n + 1.0, one, {api::scalar(m, 1, adjoint::DType::F64)},
                     [&](api::Value i, api::Value acc) {
                       return acc * api::cast(i, adjoint::DType::F64);
                     });
  });

  // stats(v) = (sum(v), max(v), mean(v))
  api::Function stats = m.function(
      "stats", {api::Type::tensor(adjoint::DType::F64, {4})}, [&](api::Value v) {
        return api::make_tuple({api::sum(v), api::max(v), api::mean(v)});
      });

  m.function("main", {kF64, api::Type::tensor(adjoint::DType::F64, {4})},
             [&](api::Value x, api::Value v) {
               api::Value add5 = makeAdder(api::scalar(m, 5, adjoint::DType::F64));
               api::Value twice = api::lambda(
                   m, {kF64}, [&](api::Value y) { return y * 2.0; });
               api::Value add5AfterTwice = compose(add5, twice);
               api::Value s = stats(v);
               return api::Values{add5(x),
                                  add5AfterTwice(x),
                                  power(x, api::scalar(m, 10, adjoint::DType::I64)),
                                  factorial(api::scalar(m, 5, adjoint::DType::I64)),
                                  api::get(s, 0),
                                  api::get(s, 1),
                                  api::get(s, -1)};
             });
  m.verify();
}

} // namespace

int main() {
  try {
    api::Module m;
    buildProgram(m);
    std::cout << m.str() << "\n";

    interp::Interpreter interpreter(m.op());
    std::vector<interp::Value> results = interpreter.call(
        "main",
        {interp::Tensor::scalar(adjoint::DType::F64, 2.0),
         interp::Tensor::fromDoubles(adjoint::DType::F64, {4}, {1, 2, 3, 4})});

    struct Expected {
      const char *what;
      double value;
    };
    const Expected expected[] = {{"make_adder(5)(2)", 7},
                                 {"compose(add5, twice)(2)", 9},
                                 {"power(2, 10)", 1024},
                                 {"factorial(5)", 120},
                                 {"sum([1, 2, 3, 4])", 10},
                                 {"max([1, 2, 3, 4])", 4},
                                 {"mean([1, 2, 3, 4])", 2.5}};
    if (results.size() != std::size(expected)) {
      std::printf("FAIL: %zu results, expected %zu\n", results.size(),
                  std::size(expected));
      return 1;
    }
    int failures = 0;
    for (size_t i = 0; i < results.size(); ++i) {
      double got = results[i].tensor().at(0);
      bool ok = std::fabs(got - expected[i].value) < 1e-12;
      failures += !ok;
      std::printf("%-26s = %g (expected %g) %s\n", expected[i].what, got,
                  expected[i].value, ok ? "ok" : "WRONG");
    }
    return failures ? 1 : 0;
  } catch (const adjoint::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
