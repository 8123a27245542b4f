//===- ConformanceHarnessTest.cpp - The gradient checker checks itself ----===//
//
// Before trusting the suite, its oracle: finite differences agree with
// hand-derived derivatives, and hand-written derivative drivers (no AD
// requests, so -adj-grad leaves them alone) pass when they are right and
// fail when they are wrong. A harness that accepted a wrong gradient would
// make every conformance test meaningless.
//
//===----------------------------------------------------------------------===//

#include "GradCheck.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace adjoint::test;

TEST_CASE("central differences match hand-derived gradients",
          "[ad][conformance][harness]") {
  // f(x, y) = x^2 y + sin(x) e^y; df/dx = 2xy + cos(x) e^y, df/dy = x^2 +
  // sin(x) e^y.
  auto f = [](const std::vector<double> &v) {
    return v[0] * v[0] * v[1] + std::sin(v[0]) * std::exp(v[1]);
  };
  for (auto [x, y] : {std::pair{0.3, -0.7}, {2.5, 1.25}, {-40.0, 0.01}}) {
    std::vector<double> g = centralDifferences(f, {x, y}, 1e-6);
    double dx = 2 * x * y + std::cos(x) * std::exp(y);
    double dy = x * x + std::sin(x) * std::exp(y);
    CHECK(g[0] == Approx(dx).epsilon(1e-7));
    CHECK(g[1] == Approx(dy).epsilon(1e-7));
  }
}

namespace {

/// f(x, v) = x^3 sin(x) + sum(v * v * x); the drivers are written by hand.
const char *kHandWritten = R"mlir(
adj.func @f(%x: tensor<f64>, %v: tensor<3xf64>) -> tensor<f64> {
  %x2 = adj.mul %x, %x : tensor<f64>, tensor<f64>
  %x3 = adj.mul %x2, %x : tensor<f64>, tensor<f64>
  %s = adj.sin %x : tensor<f64>
  %a = adj.mul %x3, %s : tensor<f64>, tensor<f64>
  %vv = adj.mul %v, %v : tensor<3xf64>, tensor<3xf64>
  %vvx = adj.mul %vv, %x : tensor<3xf64>, tensor<f64>
  %b = adj.reduce_sum %vvx axes = [0] : tensor<3xf64>
  %r = adj.add %a, %b : tensor<f64>, tensor<f64>
  adj.return %r : tensor<f64>
}
// df/dx = 3x^2 sin x + x^3 cos x + sum(v^2); df/dv = 2 v x.
adj.func @right(%x: tensor<f64>, %v: tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>) {
  %three = adj.constant dense<3.0> : tensor<f64>
  %two = adj.constant dense<2.0> : tensor<f64>
  %x2 = adj.mul %x, %x : tensor<f64>, tensor<f64>
  %x3 = adj.mul %x2, %x : tensor<f64>, tensor<f64>
  %s = adj.sin %x : tensor<f64>
  %c = adj.cos %x : tensor<f64>
  %t0 = adj.mul %three, %x2 : tensor<f64>, tensor<f64>
  %t1 = adj.mul %t0, %s : tensor<f64>, tensor<f64>
  %t2 = adj.mul %x3, %c : tensor<f64>, tensor<f64>
  %vv = adj.mul %v, %v : tensor<3xf64>, tensor<3xf64>
  %t3 = adj.reduce_sum %vv axes = [0] : tensor<3xf64>
  %t4 = adj.add %t1, %t2 : tensor<f64>, tensor<f64>
  %dx = adj.add %t4, %t3 : tensor<f64>, tensor<f64>
  %v2 = adj.mul %v, %two : tensor<3xf64>, tensor<f64>
  %dv = adj.mul %v2, %x : tensor<3xf64>, tensor<f64>
  adj.return %dx, %dv : tensor<f64>, tensor<3xf64>
}
// Drops the x^3 cos x term: a plausible bug the checker must catch.
adj.func @wrong(%x: tensor<f64>, %v: tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>) {
  %three = adj.constant dense<3.0> : tensor<f64>
  %two = adj.constant dense<2.0> : tensor<f64>
  %x2 = adj.mul %x, %x : tensor<f64>, tensor<f64>
  %s = adj.sin %x : tensor<f64>
  %t0 = adj.mul %three, %x2 : tensor<f64>, tensor<f64>
  %t1 = adj.mul %t0, %s : tensor<f64>, tensor<f64>
  %vv = adj.mul %v, %v : tensor<3xf64>, tensor<3xf64>
  %t3 = adj.reduce_sum %vv axes = [0] : tensor<3xf64>
  %dx = adj.add %t1, %t3 : tensor<f64>, tensor<f64>
  %v2 = adj.mul %v, %two : tensor<3xf64>, tensor<f64>
  %dv = adj.mul %v2, %x : tensor<3xf64>, tensor<f64>
  adj.return %dx, %dv : tensor<f64>, tensor<3xf64>
}
// Off by one part in 10^4 in one element of dv.
adj.func @slightly_wrong(%x: tensor<f64>, %v: tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>) {
  %rr = adj.func_ref @right : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %r:2 = adj.call %rr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %k = adj.constant dense<[1.0, 1.0001, 1.0]> : tensor<3xf64>
  %dv = adj.mul %r#1, %k : tensor<3xf64>, tensor<3xf64>
  adj.return %r#0, %dv : tensor<f64>, tensor<3xf64>
}
// Directional derivative along (tx, tv), by hand.
adj.func @right_jvp(%x: tensor<f64>, %v: tensor<3xf64>, %tx: tensor<f64>, %tv: tensor<3xf64>) -> (tensor<f64>, tensor<f64>) {
  %fr = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %y = adj.call %fr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %rr = adj.func_ref @right : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %g:2 = adj.call %rr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %a = adj.mul %g#0, %tx : tensor<f64>, tensor<f64>
  %b = adj.mul %g#1, %tv : tensor<3xf64>, tensor<3xf64>
  %bs = adj.reduce_sum %b axes = [0] : tensor<3xf64>
  %d = adj.add %a, %bs : tensor<f64>, tensor<f64>
  adj.return %y, %d : tensor<f64>, tensor<f64>
}
adj.func @wrong_jvp(%x: tensor<f64>, %v: tensor<3xf64>, %tx: tensor<f64>, %tv: tensor<3xf64>) -> (tensor<f64>, tensor<f64>) {
  %fr = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %y = adj.call %fr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %rr = adj.func_ref @right : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %g:2 = adj.call %rr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %a = adj.mul %g#0, %tx : tensor<f64>, tensor<f64>
  adj.return %y, %a : tensor<f64>, tensor<f64>
}
// A pullback closure, by hand: dout * grad.
adj.func @right_vjp(%x: tensor<f64>, %v: tensor<3xf64>) -> (tensor<f64>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<3xf64>)>) {
  %fr = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %y = adj.call %fr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %rr = adj.func_ref @right : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %g:2 = adj.call %rr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %pb = adj.lambda (%d: tensor<f64>) -> (tensor<f64>, tensor<3xf64>) {
    %dx = adj.mul %g#0, %d : tensor<f64>, tensor<f64>
    %dv = adj.mul %g#1, %d : tensor<3xf64>, tensor<f64>
    adj.return %dx, %dv : tensor<f64>, tensor<3xf64>
  }
  adj.return %y, %pb : tensor<f64>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<3xf64>)>
}
// Ignores the cotangent: right only when it happens to be 1.
adj.func @wrong_vjp(%x: tensor<f64>, %v: tensor<3xf64>) -> (tensor<f64>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<3xf64>)>) {
  %fr = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %y = adj.call %fr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %rr = adj.func_ref @right : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %g:2 = adj.call %rr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %pb = adj.lambda (%d: tensor<f64>) -> (tensor<f64>, tensor<3xf64>) {
    adj.return %g#0, %g#1 : tensor<f64>, tensor<3xf64>
  }
  adj.return %y, %pb : tensor<f64>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<3xf64>)>
}
// value_and_grad with custom_sens, by hand (dout scales the gradient).
adj.func @right_vg_sens(%x: tensor<f64>, %v: tensor<3xf64>, %d: tensor<f64>) -> (tensor<f64>, tensor<3xf64>) {
  %fr = adj.func_ref @f : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %y = adj.call %fr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> tensor<f64>>
  %rr = adj.func_ref @right : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %g:2 = adj.call %rr(%x, %v) : !adj.fn<(tensor<f64>, tensor<3xf64>) -> (tensor<f64>, tensor<3xf64>)>
  %dv = adj.mul %g#1, %d : tensor<3xf64>, tensor<f64>
  adj.return %y, %dv : tensor<f64>, tensor<3xf64>
}
// The sensitivity of an integer argument must be zero.
adj.func @g(%x: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %y = adj.mul %x, %x : tensor<f64>, tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func @g_bad_int(%x: tensor<f64>, %n: tensor<i64>) -> (tensor<f64>, tensor<i64>) {
  %two = adj.constant dense<2.0> : tensor<f64>
  %dx = adj.mul %x, %two : tensor<f64>, tensor<f64>
  adj.return %dx, %n : tensor<f64>, tensor<i64>
}
adj.func @g_good_int(%x: tensor<f64>, %n: tensor<i64>) -> (tensor<f64>, tensor<i64>) {
  %two = adj.constant dense<2.0> : tensor<f64>
  %dx = adj.mul %x, %two : tensor<f64>, tensor<f64>
  %z = adj.zeros_like %n : tensor<i64>
  adj.return %dx, %z : tensor<f64>, tensor<i64>
}
)mlir";

} // namespace

TEST_CASE("the checker accepts right gradients and rejects wrong ones",
          "[ad][conformance][harness]") {
  GradCheck gc(kHandWritten);
  INFO(gc.diagnostics());
  REQUIRE(gc.transformed());
  RValues args = {f64(0.7), f64({3}, {0.5, -1.5, 2.0})};

  CheckResult right = gc.grad("right", "f", args);
  INFO(right.report);
  CHECK(right.ok);

  CheckResult wrong = gc.grad("wrong", "f", args);
  CHECK_FALSE(wrong.ok);
  // The report names the worst element and both values.
  CHECK(wrong.report.find("arg 0") != std::string::npos);
  CHECK(wrong.report.find("expected") != std::string::npos);

  // 1e-4 relative is 100 times the tolerance.
  CheckResult slightly = gc.grad("slightly_wrong", "f", args);
  CHECK_FALSE(slightly.ok);
  CHECK(slightly.report.find("arg 1[1]") != std::string::npos);

  // The driver's first value is f's; with a custom sensitivity only dv.
  CHECK_GRAD(gc.grad("right_vg_sens", "f", args,
                     {.wrt = std::vector<int64_t>{1},
                      .customSens = true,
                      .valueAndGrad = true}));
  // Without custom_sens the same driver has one argument too many.
  CHECK_FALSE(gc.grad("right_vg_sens", "f", args,
                      {.wrt = std::vector<int64_t>{1}, .valueAndGrad = true})
                  .ok);
}

TEST_CASE("the checker rejects wrong jvps, vjps and integer sensitivities",
          "[ad][conformance][harness]") {
  GradCheck gc(kHandWritten);
  INFO(gc.diagnostics());
  REQUIRE(gc.transformed());
  RValues args = {f64(-1.3), f64({3}, {0.25, 1.0, -0.75})};
  CHECK_GRAD(gc.jvp("right_jvp", "f", args));
  CHECK_FALSE(gc.jvp("wrong_jvp", "f", args).ok);
  CHECK_GRAD(gc.vjp("right_vjp", "f", args));
  CHECK_FALSE(gc.vjp("wrong_vjp", "f", args).ok);

  RValues intArgs = {f64(1.5), i64(4)};
  CHECK_GRAD(gc.grad("g_good_int", "g", intArgs));
  CheckResult bad = gc.grad("g_bad_int", "g", intArgs);
  CHECK_FALSE(bad.ok);
  CHECK(bad.report.find("integer") != std::string::npos);
}

TEST_CASE("the checker's derived references evaluate the transformed module",
          "[ad][conformance][harness]") {
  // d/dx of @right's first result is f''(x); check it against a hand
  // formula through Ref::derived, as higher-order tests do.
  const char *source = R"mlir(
adj.func @d1(%x: tensor<f64>) -> tensor<f64> {
  %c = adj.cos %x : tensor<f64>
  %m = adj.mul %c, %x : tensor<f64>, tensor<f64>
  adj.return %m : tensor<f64>
}
adj.func @d2(%x: tensor<f64>) -> tensor<f64> {
  %c = adj.cos %x : tensor<f64>
  %s = adj.sin %x : tensor<f64>
  %xs = adj.mul %x, %s : tensor<f64>, tensor<f64>
  %r = adj.sub %c, %xs : tensor<f64>, tensor<f64>
  adj.return %r : tensor<f64>
}
)mlir";
  GradCheck gc(source);
  INFO(gc.diagnostics());
  REQUIRE(gc.transformed());
  for (double x : {-2.0, 0.1, 3.0})
    CHECK_GRAD(gc.grad("d2", Ref::derived("d1"), {f64(x)}));
}
