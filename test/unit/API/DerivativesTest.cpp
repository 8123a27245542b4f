//===- DerivativesTest.cpp - stop_gradient, custom rules, checkpoint, aux -===//
//
// The C++ API of the derivative annotations, checked by value: modules built
// with it are differentiated (-adj-grad, then -adj-optimize where said) and
// run in the reference interpreter against derivatives worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/API/Passes.h"
#include "adjoint/Interpreter/Interpreter.h"

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;
using Catch::Matchers::Contains;

namespace {

const Type kF64 = Type::scalar(DType::F64);

interp::Value f64(double x) {
  return interp::Tensor::fromDoubles(DType::F64, {}, {x});
}

/// Runs @name on scalars after `pipeline`; returns its scalar results.
std::vector<double> run(Module &m, const std::string &pipeline,
                        const std::string &name,
                        const std::vector<double> &args) {
  runPasses(m, pipeline);
  interp::Interpreter interpreter(m.op());
  std::vector<interp::Value> in;
  for (double a : args)
    in.push_back(f64(a));
  std::vector<double> out;
  for (const interp::Value &v : interpreter.call(name, in))
    out.push_back(v.tensor().toDoubles().front());
  return out;
}

} // namespace

TEST_CASE("stop_gradient blocks derivatives, also the second one",
          "[api][derivatives]") {
  for (const char *pipeline : {"adj-grad", "adj-grad,adj-optimize"}) {
    Module m;
    // f(x) = x^2 * sg(x): f' = 2 x sg(x) (= 2x^2), f'' = 2 sg(x) (= 2x).
    Function f = m.function("f", {kF64}, [](Value x) {
      return x * x * stop_gradient(x);
    });
    Function df = m.function("df", {kF64}, [&](Value x) {
      return grad(f.ref())(x);
    });
    m.function("ddf", {kF64}, [&](Value x) { return grad(df.ref())(x); });
    CHECK(run(m, pipeline, "df", {1.5})[0] == Approx(2 * 1.5 * 1.5));
    CHECK(run(m, pipeline, "ddf", {1.5})[0] == Approx(2 * 1.5));
  }
}

TEST_CASE("custom_vjp uses bwd, and grad of grad differentiates bwd",
          "[api][derivatives]") {
  Module m;
  // f = sin with the rule dx = dy * res^2 where res = x (not sin's
  // derivative): grad f = x^2, grad grad f = 2x.
  Function g = m.function("g", {kF64}, [&](Value x) {
    Value f = lambda(m, {kF64}, [](Value a) { return sin(a); });
    Value fwd = lambda(m, {kF64}, [](Value a) {
      return Values{sin(a), a};
    });
    Value bwd = lambda(m, {kF64, kF64}, [](Value res, Value dy) {
      return dy * res * res;
    });
    return custom_vjp(f, fwd, bwd)(x);
  });
  Function dg = m.function("dg", {kF64}, [&](Value x) {
    return grad(g.ref())(x);
  });
  m.function("ddg", {kF64}, [&](Value x) { return grad(dg.ref())(x); });
  m.verify();
  CHECK_THAT(m.str(), Contains("adj.custom_vjp"));
  CHECK(run(m, "adj-grad", "g", {0.7})[0] == Approx(std::sin(0.7)));
  CHECK(run(m, "adj-grad", "dg", {0.7})[0] == Approx(0.49));
  CHECK(run(m, "adj-grad", "ddg", {0.7})[0] == Approx(1.4));
}

TEST_CASE("custom_jvp: forward mode uses the rule, reverse mode transposes "
          "it",
          "[api][derivatives]") {
  Module m;
  // f = x^3 with the rule t -> 3 c t x^2 where c = 2 is closed over.
  Function g = m.function("g", {kF64, kF64}, [&](Value x, Value c) {
    Value f = lambda(m, {kF64}, [](Value a) { return a * a * a; });
    Value rule = lambda(m, {kF64, kF64}, [&](Value a, Value t) {
      return Values{a * a * a, c * 3.0 * t * a * a};
    });
    return custom_jvp(f, rule)(x);
  });
  ADOptions wrtX;
  wrtX.wrt = std::vector<int64_t>{0};
  m.function("dg", {kF64, kF64}, [&](Value x, Value c) {
    return grad(g.ref(), wrtX)(x, c);
  });
  m.function("tg", {kF64, kF64, kF64}, [&](Value x, Value c, Value t) {
    return jvp(g.ref(), wrtX)(x, c, t)[1];
  });
  // The second derivative differentiates the transposed rule: 12 x.
  m.function("ddg", {kF64, kF64}, [&](Value x, Value c) {
    Value d = lambda(m, {kF64}, [&](Value y) {
      return grad(g.ref(), wrtX)(y, c);
    });
    return grad(d)(x);
  });
  std::vector<double> dg = run(m, "adj-grad", "dg", {1.5, 2.0});
  CHECK(dg[0] == Approx(2 * 3 * 1.5 * 1.5));
  CHECK(run(m, "adj-grad", "tg", {1.5, 2.0, 0.5})[0] ==
        Approx(0.5 * 2 * 3 * 1.5 * 1.5));
  CHECK(run(m, "adj-grad", "ddg", {1.5, 2.0})[0] == Approx(2 * 6 * 1.5));
}

TEST_CASE("checkpoint recomputes behind a barrier and keeps the gradients",
          "[api][derivatives]") {
  Module m;
  // h(x, w) = sin(x w) w with w closed over; d/dw sums both paths.
  Function h = m.function("h", {kF64, kF64}, [&](Value x, Value w) {
    Value f = lambda(m, {kF64}, [&](Value a) { return sin(a * w) * w; });
    return checkpoint(f)(x);
  });
  m.function("dh", {kF64, kF64}, [&](Value x, Value w) {
    return grad(h.ref())(x, w);
  });
  runPasses(m, "adj-grad");
  CHECK_THAT(m.str(), Contains("adj.optimization_barrier"));
  std::vector<double> d = run(m, "adj-optimize", "dh", {0.3, 1.7});
  double x = 0.3, w = 1.7;
  CHECK(d[0] == Approx(std::cos(x * w) * w * w));
  CHECK(d[1] == Approx(std::cos(x * w) * x * w + std::sin(x * w)));
}

TEST_CASE("hasAux returns the auxiliary results undifferentiated",
          "[api][derivatives]") {
  Module m;
  // f(x) = (x^2, 3x, x + 1): only x^2 is differentiated.
  Function f = m.function("f", {kF64}, [](Value x) {
    return Values{x * x, x * 3.0, x + 1.0};
  });
  ADOptions aux;
  aux.hasAux = true;
  m.function("g", {kF64}, [&](Value x) { return grad(f.ref(), aux)(x); });
  m.function("vg", {kF64}, [&](Value x) {
    return value_and_grad(f.ref(), aux)(x);
  });
  m.function("v", {kF64, kF64}, [&](Value x, Value d) {
    Values r = vjp(f.ref(), aux)(x);
    REQUIRE(r.size() == 4);
    return Values{r[1], r[2], r[3](d)};
  });
  ADOptions sens = aux;
  sens.customSens = true;
  m.function("gs", {kF64, kF64}, [&](Value x, Value d) {
    return grad(f.ref(), sens)(x, d)[0];
  });
  CHECK(run(m, "adj-grad", "g", {2.0}) == std::vector<double>{4.0, 6.0, 3.0});
  CHECK(run(m, "adj-grad", "vg", {2.0}) ==
        std::vector<double>{4.0, 6.0, 3.0, 4.0});
  CHECK(run(m, "adj-grad", "v", {2.0, 0.5}) ==
        std::vector<double>{6.0, 3.0, 2.0});
  CHECK(run(m, "adj-grad", "gs", {2.0, 0.5})[0] == Approx(2.0));

  Module bad;
  bad.function("e", {kF64}, [&](Value x) {
    Value fn = lambda(bad, {kF64}, [](Value a) { return a; });
    CHECK_THAT(errorOf([&] { jvp(fn, aux); }),
               Contains("has_aux applies to grad, value_and_grad and vjp"));
    ADOptions vjpSens = sens;
    CHECK_THAT(errorOf([&] { vjp(fn, vjpSens); }),
               Contains("custom_sens applies"));
    return x;
  });
}

TEST_CASE("custom rules of the wrong type are errors naming the mismatch",
          "[api][derivatives]") {
  Module m;
  m.function("e", {kF64}, [&](Value x) {
    Value f = lambda(m, {kF64}, [](Value a) { return a; });
    Value wrong = lambda(m, {kF64}, [](Value a) { return a; });
    CHECK_THAT(errorOf([&] { custom_jvp(f, wrong); }),
               Contains("the rule's arguments"));
    // fwd returns no residuals, so bwd takes the sensitivity alone.
    Value two = lambda(m, {kF64, kF64}, [](Value a, Value) { return a; });
    CHECK_THAT(errorOf([&] { custom_vjp(f, wrong, two); }),
               Contains("bwd's arguments"));
    CHECK_THAT(errorOf([&] { stop_gradient(f); }),
               Contains("expected a tensor or a tuple of tensors"));
    return x;
  });
}
