//===- ConformanceRequestsTest.cpp - The AD request interface and orders --===//
//
// wrt, value_and_grad, custom_sens, vjp and jvp; derivatives of derivatives
// (each order checked against finite differences of the order below, which
// an earlier check verified); forward mode through closures, loops,
// conditionals and recursion; Hessian-vector products as forward over
// reverse; non-differentiable values.
//
//===----------------------------------------------------------------------===//

#include "GradCheck.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::test;

namespace {

const Type S = F64();

std::vector<double> runDoubles(GradCheck &gc, const std::string &name,
                               const RValues &args) {
  std::vector<double> out;
  for (const RValue &v : gc.run(name, args))
    for (double d : v.tensor().toDoubles())
      out.push_back(d);
  return out;
}

/// f(a, b, c) = sum(a * b) * c + sin(c) * sum(exp(b)) - sum(a / (1 + c^2)).
Function threeArgs(Module &m) {
  return m.function("f", {F64({3}), F64({3}), S}, [&](Value a, Value b,
                                                      Value c) {
    return sum(a * b) * c + sin(c) * sum(exp(b)) - sum(a / (c * c + 1.0));
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// The request interface
//===----------------------------------------------------------------------===//

TEST_CASE("grad with respect to chosen arguments, in the order given",
          "[ad][conformance][requests]") {
  Module m;
  Function f = threeArgs(m);
  gradDriver(m, f, "all");
  gradDriver(m, f, "wrt_1", {.wrt = std::vector<int64_t>{1}});
  gradDriver(m, f, "wrt_2_0", {.wrt = std::vector<int64_t>{2, 0}});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({3}), gc.random({3}), f64(0.6)};
  CHECK_GRAD(gc.grad("all", "f", args));
  CHECK_GRAD(gc.grad("wrt_1", "f", args, {.wrt = std::vector<int64_t>{1}}));
  CHECK_GRAD(
      gc.grad("wrt_2_0", "f", args, {.wrt = std::vector<int64_t>{2, 0}}));
  // The reordered request returns the very values of the full one.
  std::vector<RValue> all = gc.run("all", args);
  std::vector<RValue> picked = gc.run("wrt_2_0", args);
  REQUIRE(picked.size() == 2);
  CHECK(picked[0].tensor().toDoubles() == all[2].tensor().toDoubles());
  CHECK(picked[1].tensor().toDoubles() == all[0].tensor().toDoubles());
}

TEST_CASE("value_and_grad returns the value and the gradient",
          "[ad][conformance][requests]") {
  Module m;
  Function f = threeArgs(m);
  gradDriver(m, f, "vg", {.valueAndGrad = true});
  gradDriver(m, f, "vg_wrt", {.wrt = std::vector<int64_t>{2},
                              .valueAndGrad = true});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({3}), gc.random({3}), f64(-1.3)};
  CHECK_GRAD(gc.grad("vg", "f", args, {.valueAndGrad = true}));
  CHECK_GRAD(gc.grad("vg_wrt", "f", args,
                     {.wrt = std::vector<int64_t>{2}, .valueAndGrad = true}));
}

TEST_CASE("custom_sens: the vector-Jacobian product of a tensor result",
          "[ad][conformance][requests]") {
  // f(x, w) = tanh(w @ x) * x[0..1], a 2-vector: grad with a custom output
  // sensitivity is the VJP with it.
  Module m;
  Function f = m.function("f", {F64({3, 1}), F64({2, 3})}, [&](Value x,
                                                               Value w) {
    Value y = reshape(tanh(matmul(w, x)), {2});
    return y * reshape(slice(x, {0, 0}, {2, 1}), {2}) + sum(x);
  });
  gradDriver(m, f, "sens", {.customSens = true});
  gradDriver(m, f, "vg_sens", {.wrt = std::vector<int64_t>{1},
                               .customSens = true,
                               .valueAndGrad = true});
  gradDriver(m, f, "ones");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({3, 1}), gc.random({2, 3})};
  CHECK_GRAD(gc.grad("sens", "f", args, {.customSens = true}));
  CHECK_GRAD(gc.grad("vg_sens", "f", args,
                     {.wrt = std::vector<int64_t>{1},
                      .customSens = true,
                      .valueAndGrad = true}));
  // Without custom_sens the output sensitivity is ones.
  CHECK_GRAD(gc.grad("ones", "f", args));
}

TEST_CASE("vjp: the pullback of a function with several results",
          "[ad][conformance][requests]") {
  Module m;
  Function f = m.function("f", {F64({4}), S}, [&](Value v, Value s) {
    return Values{exp(v * s), sum(v * v) + s * s * s,
                  make_tuple({sin(v), s * 2.0})};
  });
  vjpDriver(m, f, "pb");
  vjpDriver(m, f, "pb_s", std::vector<int64_t>{1});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({4}), f64(0.7)};
  CHECK_GRAD(gc.vjp("pb", "f", args));
  CHECK_GRAD(gc.vjp("pb_s", "f", args, std::vector<int64_t>{1}));
}

TEST_CASE("jvp: tangents of a function with several results",
          "[ad][conformance][requests][forward]") {
  Module m;
  Function f = m.function("f", {F64({4}), S, F64({2, 4})}, [&](Value v,
                                                               Value s,
                                                               Value w) {
    Value y = matmul(w, reshape(v, {4, 1}));
    return Values{tanh(y) * s, sum(v * v) * sin(s)};
  });
  jvpDriver(m, f, "tan");
  jvpDriver(m, f, "tan_0_2", std::vector<int64_t>{0, 2});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({4}), f64(1.1), gc.random({2, 4})};
  CHECK_GRAD(gc.jvp("tan", "f", args));
  CHECK_GRAD(gc.jvp("tan_0_2", "f", args, std::vector<int64_t>{0, 2}));
}

TEST_CASE("grad of a closure that captures the driver's values",
          "[ad][conformance][requests][closures]") {
  // main(x, y) = grad(z -> z y sin z)(x), compared with d/dx of
  // f(x, y) = x y sin x.
  Module m;
  m.function("f", {S, S}, [&](Value x, Value y) { return x * y * sin(x); });
  m.function("main", {S, S}, [&](Value x, Value y) {
    Value c = lambda(m, {S}, [&](Value z) { return z * y * sin(z); });
    return call(grad(c), {x});
  });
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.8), f64(-1.7)},
                     {.wrt = std::vector<int64_t>{0}}));
}

//===----------------------------------------------------------------------===//
// Higher orders
//===----------------------------------------------------------------------===//

TEST_CASE("grad of grad", "[ad][conformance][higher-order-ad]") {
  Module m;
  Function f = m.function("f", {S}, [&](Value x) {
    return x * x * x * sin(x) + exp(x * 0.5);
  });
  Function d1 = gradDriver(m, f, "d1");
  gradDriver(m, d1, "d2");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  for (double x : {-1.3, 0.4, 2.1}) {
    CHECK_GRAD(gc.grad("d1", "f", {f64(x)}));
    CHECK_GRAD(gc.grad("d2", Ref::derived("d1"), {f64(x)}));
  }
  // f'' = 6x sin x + 6x^2 cos x - x^3 sin x + e^{x/2} / 4.
  double x = 0.4;
  double expected = 6 * x * std::sin(x) + 6 * x * x * std::cos(x) -
                    x * x * x * std::sin(x) + std::exp(x / 2) / 4;
  CHECK(runDoubles(gc, "d2", {f64(x)})[0] == Approx(expected).epsilon(1e-12));
}

TEST_CASE("the fourth derivative of a polynomial (grad nested four times)",
          "[ad][conformance][higher-order-ad]") {
  // p(x) = 3x^5 - 2x^3 + x: p'''' = 360 x.
  Module m;
  Function p = m.function("p", {S}, [&](Value x) {
    Value x2 = x * x;
    return x2 * x2 * x * 3.0 - x2 * x * 2.0 + x;
  });
  Function d1 = gradDriver(m, p, "d1");
  Function d2 = gradDriver(m, d1, "d2");
  Function d3 = gradDriver(m, d2, "d3");
  gradDriver(m, d3, "d4");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  for (double x : {-0.7, 1.3}) {
    CHECK_GRAD(gc.grad("d1", "p", {f64(x)}));
    CHECK_GRAD(gc.grad("d2", Ref::derived("d1"), {f64(x)}));
    CHECK_GRAD(gc.grad("d3", Ref::derived("d2"), {f64(x)}));
    CHECK_GRAD(gc.grad("d4", Ref::derived("d3"), {f64(x)}));
    CHECK(runDoubles(gc, "d4", {f64(x)})[0] == Approx(360 * x).epsilon(1e-12));
    CHECK(runDoubles(gc, "d3", {f64(x)})[0] ==
          Approx(180 * x * x - 12).epsilon(1e-12));
  }
}

TEST_CASE("mixed second partial derivatives",
          "[ad][conformance][higher-order-ad]") {
  // d/dx (df/dy) of f(x, y) = x^2 sin(y) + x y^3.
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    return x * x * sin(y) + x * y * y * y;
  });
  Function dy = gradDriver(m, f, "dy", {.wrt = std::vector<int64_t>{1}});
  gradDriver(m, dy, "dxdy", {.wrt = std::vector<int64_t>{0}});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {f64(0.9), f64(-0.6)};
  CHECK_GRAD(gc.grad("dy", "f", args, {.wrt = std::vector<int64_t>{1}}));
  CHECK_GRAD(gc.grad("dxdy", Ref::derived("dy"), args,
                     {.wrt = std::vector<int64_t>{0}}));
  CHECK(runDoubles(gc, "dxdy", args)[0] ==
        Approx(2 * 0.9 * std::cos(-0.6) + 3 * 0.36).epsilon(1e-12));
}

TEST_CASE("the second derivative through a conditional",
          "[ad][conformance][higher-order-ad][conditionals]") {
  Module m;
  Function f = m.function("f", {S}, [&](Value x) {
    return if_(
        x > 0.0, [&] { return x * x * sin(x); },
        [&] { return exp(x) * x; });
  });
  Function d1 = gradDriver(m, f, "d1");
  gradDriver(m, d1, "d2");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  for (double x : {0.8, -0.8}) {
    CHECK_GRAD(gc.grad("d1", "f", {f64(x)}));
    CHECK_GRAD(gc.grad("d2", Ref::derived("d1"), {f64(x)}));
  }
}

TEST_CASE("the second derivative through a loop",
          "[ad][conformance][higher-order-ad][loops]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value r = for_(0, 3, 1, {y}, [&](Value i, Value acc) {
      return sin(acc * x) + acc * y;
    });
    return r;
  });
  Function d1 = gradDriver(m, f, "d1", {.wrt = std::vector<int64_t>{0}});
  gradDriver(m, d1, "d2");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {f64(0.7), f64(0.9)};
  CHECK_GRAD(gc.grad("d1", "f", args, {.wrt = std::vector<int64_t>{0}}));
  CHECK_GRAD(gc.grad("d2", Ref::derived("d1"), args));
}

TEST_CASE("the second derivative through a loop of many trips",
          "[ad][conformance][higher-order-ad][loops][reverse-loops]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value r = for_(0, 12, 1, {y}, [&](Value i, Value acc) {
      return sin(acc * x) * 0.8 + acc * y * 0.3;
    });
    return r;
  });
  Function d1 = gradDriver(m, f, "d1", {.wrt = std::vector<int64_t>{0}});
  gradDriver(m, d1, "d2");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {f64(0.7), f64(0.9)};
  CHECK_GRAD(gc.grad("d1", "f", args, {.wrt = std::vector<int64_t>{0}}));
  CHECK_GRAD(gc.grad("d2", Ref::derived("d1"), args));
}

TEST_CASE("the second derivative through closures and recursion",
          "[ad][conformance][higher-order-ad][recursion]") {
  Module m;
  Function power = m.declare("power", {S, I64()}, {S});
  power.define([&](Value x, Value n) {
    Value step = lambda(m, {S}, [&](Value v) { return v * x; });
    return if_(
        n == 0.0, [&] { return x - x + 1.0; },
        [&] {
          Value rest = power(x, n - 1.0);
          Value r = step(rest);
          return r;
        });
  });
  Function d1 = gradDriver(m, power, "d1", {.wrt = std::vector<int64_t>{0}});
  gradDriver(m, d1, "d2", {.wrt = std::vector<int64_t>{0}});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {f64(1.2), i64(4)};
  CHECK_GRAD(gc.grad("d1", "power", args, {.wrt = std::vector<int64_t>{0}}));
  CHECK_GRAD(gc.grad("d2", Ref::derived("d1"), args,
                     {.wrt = std::vector<int64_t>{0}}));
  // (x^4)'' = 12 x^2.
  CHECK(runDoubles(gc, "d2", args)[0] == Approx(12 * 1.44).epsilon(1e-12));
}

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

TEST_CASE("jvp through closures and higher-order functions",
          "[ad][conformance][forward][closures]") {
  Module m;
  Type fn = Type::fn({S}, {S});
  Function apply = m.function("apply", {fn, S}, [&](Value g, Value v) {
    Value r = g(v);
    return r;
  });
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value c = lambda(m, {S}, [&](Value z) {
      Value inner = lambda(m, {S}, [&](Value w) { return w * x + y; });
      Value r = inner(z * z);
      return sin(r);
    });
    Value a = apply(c, x);
    Value b = c(y);
    return a * b;
  });
  jvpDriver(m, f, "tan");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.jvp("tan", "f", {f64(0.6), f64(-0.9)}));
}

TEST_CASE("jvp through loops", "[ad][conformance][forward][loops]") {
  Module m;
  Function f = m.function("f", {F64({3}), S}, [&](Value v, Value s) {
    Values r = for_(0, 4, 1, {v, s}, [&](Value i, Value acc, Value t) {
      return Values{tanh(acc * t) + v, t * 0.9 + sum(acc) * 0.1};
    });
    Value w = while_(
        {r[1]}, [&](Value a) { return a < 5.0; },
        [&](Value a) { return a * 1.5 + s * s; });
    return Values{r[0], w};
  });
  jvpDriver(m, f, "tan");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.jvp("tan", "f", {f64({3}, {0.3, -0.4, 0.8}), f64(1.2)}));
}

TEST_CASE("jvp through conditionals", "[ad][conformance][forward][conditionals]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Values r = if_(
        x < y, [&] { return Values{x * y, sin(x)}; },
        [&] { return Values{exp(y), x * x}; });
    return r[0] + r[1] * y;
  });
  jvpDriver(m, f, "tan");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.jvp("tan", "f", {f64(0.2), f64(0.9)}));
  CHECK_GRAD(gc.jvp("tan", "f", {f64(1.2), f64(0.9)}));
}

TEST_CASE("jvp through recursion", "[ad][conformance][forward][recursion]") {
  Module m;
  Function rec = m.declare("rec", {S, I64()}, {S});
  rec.define([&](Value x, Value n) {
    return if_(
        n == 0.0, [&] { return x; },
        [&] {
          Value r = rec(sin(x) * 1.5, n - 1.0);
          return r * x;
        });
  });
  jvpDriver(m, rec, "tan");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.jvp("tan", "rec", {f64(0.8), i64(5)}));
}

TEST_CASE("Hessian-vector products as forward over reverse",
          "[ad][conformance][forward][higher-order-ad]") {
  // hvp(x, v) = jvp(grad f)(x, v) = (grad f(x), H(x) v).
  Module m;
  Function f = m.function("f", {F64({4})}, [&](Value x) {
    Value a = sum(exp(x * 0.5) * x);
    Value b = sum(x) * sum(x * x);
    return a + sin(b);
  });
  Function g = gradDriver(m, f, "g");
  jvpDriver(m, g, "hvp");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {f64({4}, {0.3, -0.5, 0.8, 0.1})};
  CHECK_GRAD(gc.grad("g", "f", args));
  CHECK_GRAD(gc.jvp("hvp", Ref::derived("g"), args));
}

TEST_CASE("reverse over forward: the gradient of a directional derivative",
          "[ad][conformance][forward][higher-order-ad]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    return sin(x * y) * exp(x);
  });
  // dir(x, y, tx, ty) = the tangent output of f along (tx, ty).
  Function tan = jvpDriver(m, f, "tan");
  Function dir = m.function("dir", {S, S, S, S}, [&](Value x, Value y,
                                                     Value tx, Value ty) {
    Values r = tan(x, y, tx, ty);
    return r[1];
  });
  gradDriver(m, dir, "grad_dir");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {f64(0.5), f64(1.3)};
  CHECK_GRAD(gc.jvp("tan", "f", args));
  RValues dirArgs = {f64(0.5), f64(1.3), f64(0.7), f64(-0.2)};
  CHECK_GRAD(gc.grad("grad_dir", Ref::derived("dir"), dirArgs));
}

//===----------------------------------------------------------------------===//
// Non-differentiable values
//===----------------------------------------------------------------------===//

TEST_CASE("comparisons and integer ops give zero sensitivities",
          "[ad][conformance][nondifferentiable]") {
  Module m;
  Function f = m.function("f", {F64({4}), I64(), I64({4})}, [&](Value x,
                                                               Value n,
                                                               Value k) {
    Value positive = x > 0.0;                         // i1
    Value counts = k * n + iota(m, {4}) - k;          // i64 arithmetic
    Value asFloat = cast(counts, DType::F64);         // no derivative
    Value truncated = cast(cast(x * 3.0, DType::I64), DType::F64);
    Value picked = select(positive, x * x, x * 0.5);
    return sum(picked * asFloat) + sum(truncated) + sum(sign(x) * x);
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  // The harness requires the i64 arguments' sensitivities to be zeros of
  // their shape; truncation and sign contribute nothing to x's gradient.
  RValues args = {f64({4}, {0.4, -0.2, 1.1, -1.6}), i64(3),
                  i64({4}, {1, 0, 2, 5})};
  CHECK_GRAD(gc.grad("main", "f", args));
  std::vector<RValue> g = gc.run("main", args);
  REQUIRE(g.size() == 3);
  CHECK(g[1].tensor().toDoubles() == std::vector<double>{0});
  CHECK(g[2].tensor().toDoubles() == std::vector<double>(4, 0.0));
}

TEST_CASE("differentiating with respect to integer arguments yields zeros",
          "[ad][conformance][nondifferentiable]") {
  Module m;
  Function f = m.function("f", {S, I64({3})}, [&](Value x, Value idx) {
    Value table = reshape(concat({reshape(x, {1}), reshape(x * x, {1}),
                                  reshape(sin(x), {1})}),
                          {3});
    return sum(gather(table, idx) * x);
  });
  gradDriver(m, f, "wrt_int", {.wrt = std::vector<int64_t>{1}});
  jvpDriver(m, f, "tan_int", std::vector<int64_t>{1});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {f64(0.7), i64({3}, {2, 0, 2})};
  CHECK_GRAD(gc.grad("wrt_int", "f", args, {.wrt = std::vector<int64_t>{1}}));
  std::vector<RValue> g = gc.run("wrt_int", args);
  REQUIRE(g.size() == 1);
  CHECK(g[0].tensor().toDoubles() == std::vector<double>(3, 0.0));
  // An integer tangent changes nothing.
  RValues tanArgs = {f64(0.7), i64({3}, {2, 0, 2}), i64({3}, {0, 0, 0})};
  std::vector<RValue> t = gc.run("tan_int", tanArgs);
  REQUIRE(t.size() == 2);
  CHECK(t[1].tensor().toDoubles() == std::vector<double>{0});
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

TEST_CASE("a request the pass cannot expand is a diagnostic naming the op",
          "[ad][conformance][diagnostics]") {
  // Every primitive has a rule (comparisons, integer ops and random numbers
  // have zero ones; see the integer tests above), so the op without a
  // derivative here is an untyped request: it must be inferred first.
  PassOutcome out = runGradPass(R"mlir(
adj.func @main(%f: !adj.any, %x: tensor<f64>) -> !adj.any {
  %g = adj.grad %f : !adj.any
  %d = adj.call %g(%x) : !adj.any (tensor<f64>) -> !adj.any
  adj.return %d : !adj.any
}
)mlir");
  INFO(out.diagnostics);
  CHECK_FALSE(out.ok);
  CHECK(out.diagnostics.find("'adj.grad' op") != std::string::npos);
}
