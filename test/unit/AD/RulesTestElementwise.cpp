//===- RulesTestElementwise.cpp - Rules of the elementwise primitives -----===//

#include "RulesTestUtil.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::test::rules;
using interp::Tensor;

namespace {

/// Same shapes, a column against a row, a tensor against a scalar, and
/// both operands broadcast.
const std::vector<std::vector<std::string>> kBroadcasts = {
    {f64({2, 3}), f64({2, 3}), f64({2, 3})},
    {f64({3, 1}), f64({4}), f64({3, 4})},
    {f64({2, 3}), f64({}), f64({2, 3})},
    {f64({}), f64({2, 1, 3}), f64({2, 1, 3})},
    {f64({1, 3}), f64({2, 1}), f64({2, 3})},
};

void checkBinary(const std::string &op, Case c = {}) {
  for (const auto &shapes : kBroadcasts) {
    c.source = binary(op, shapes[0], shapes[1], shapes[2]);
    check(c);
    ++c.seed;
  }
}

void checkUnary(const std::string &op, Case c = {}) {
  for (const auto &shape : {f64({2, 3}), f64({}), f64({5})}) {
    c.source = unary(op, shape);
    check(c);
    ++c.seed;
  }
}

} // namespace

TEST_CASE("rules: add") { checkBinary("add"); }
TEST_CASE("rules: sub") { checkBinary("sub"); }
TEST_CASE("rules: mul") { checkBinary("mul"); }
TEST_CASE("rules: div") { checkBinary("div", {.awayFromZero = true}); }
TEST_CASE("rules: pow") { checkBinary("pow", {.lo = 0.5, .hi = 2}); }

TEST_CASE("rules: pow with a constant exponent") {
  // Only the base's branch is emitted; the result must be the same.
  check({.source = R"(
    adj.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
      %p = adj.constant dense<2.5> : tensor<f64>
      %0 = adj.pow %x, %p : tensor<2x3xf64>, tensor<f64>
      adj.return %0 : tensor<2x3xf64>
    })",
         .lo = 0.5,
         .hi = 2});
}

TEST_CASE("rules: pow of a non-positive base has a zero exponent sensitivity") {
  // (-2)^2 and 0^3: d/dp is masked to 0 instead of nan from log(x <= 0).
  std::string src = binary("pow", f64({2}), f64({2}), f64({2}));
  auto sens = runVjp(src,
                     {Tensor::fromDoubles(DType::F64, {2}, {-2, 0}),
                      Tensor::fromDoubles(DType::F64, {2}, {2, 3})},
                     {Tensor::fromDoubles(DType::F64, {2}, {1, 1})});
  REQUIRE(sens.size() == 2);
  CHECK(sens[0].tensor().toDoubles() == std::vector<double>{-4, 0});
  CHECK(sens[1].tensor().toDoubles() == std::vector<double>{0, 0});
}

TEST_CASE("rules: maximum") { checkBinary("maximum"); }
TEST_CASE("rules: minimum") { checkBinary("minimum"); }

TEST_CASE("rules: maximum and minimum split ties evenly, as JAX") {
  for (const char *op : {"maximum", "minimum"}) {
    std::string src = binary(op, f64({3}), f64({3}), f64({3}));
    // A tie, then each side winning once.
    auto sens = runVjp(src,
                       {Tensor::fromDoubles(DType::F64, {3}, {1, 2, -1}),
                        Tensor::fromDoubles(DType::F64, {3}, {1, -2, 3})},
                       {Tensor::fromDoubles(DType::F64, {3}, {3, 5, 7})});
    bool isMax = std::string(op) == "maximum";
    CHECK(sens[0].tensor().toDoubles() ==
          std::vector<double>{1.5, isMax ? 5.0 : 0.0, isMax ? 0.0 : 7.0});
    CHECK(sens[1].tensor().toDoubles() ==
          std::vector<double>{1.5, isMax ? 0.0 : 5.0, isMax ? 7.0 : 0.0});
  }
}

TEST_CASE("rules: atan2") {
  // Away from the origin, where both derivatives are 0 / 0.
  checkBinary("atan2", {.lo = 0.3, .hi = 2});
  checkBinary("atan2", {.lo = -2, .hi = -0.3});
}

TEST_CASE("rules: neg") { checkUnary("neg"); }
TEST_CASE("rules: exp") { checkUnary("exp"); }
TEST_CASE("rules: log") { checkUnary("log", {.lo = 0.3, .hi = 3}); }
TEST_CASE("rules: log1p") { checkUnary("log1p", {.lo = -0.7, .hi = 3}); }
TEST_CASE("rules: expm1") { checkUnary("expm1", {.lo = -2, .hi = 2}); }
TEST_CASE("rules: tanh") { checkUnary("tanh"); }
TEST_CASE("rules: sigmoid") { checkUnary("sigmoid", {.lo = -3, .hi = 3}); }
TEST_CASE("rules: relu") { checkUnary("relu", {.awayFromZero = true}); }
TEST_CASE("rules: sqrt") { checkUnary("sqrt", {.lo = 0.3, .hi = 3}); }
TEST_CASE("rules: rsqrt") { checkUnary("rsqrt", {.lo = 0.3, .hi = 3}); }
TEST_CASE("rules: abs") { checkUnary("abs", {.awayFromZero = true}); }
TEST_CASE("rules: sign") { checkUnary("sign", {.awayFromZero = true}); }
TEST_CASE("rules: sin") { checkUnary("sin", {.lo = -3, .hi = 3}); }
TEST_CASE("rules: cos") { checkUnary("cos", {.lo = -3, .hi = 3}); }
TEST_CASE("rules: erf") { checkUnary("erf", {.lo = -2, .hi = 2}); }

TEST_CASE("rules: cmp and select") {
  // A comparison has no derivative; the select it feeds routes dout.
  check({.source = R"(
    adj.func @f(%a: tensor<3x1xf64>, %b: tensor<4xf64>) -> tensor<3x4xf64> {
      %c = adj.cmp lt, %a, %b : tensor<3x1xf64>, tensor<4xf64>
      %0 = adj.select %c, %a, %b : tensor<3x4xi1>, tensor<3x1xf64>, tensor<4xf64>
      adj.return %0 : tensor<3x4xf64>
    })"});
  // An i1 argument (no sensitivity) broadcast against a scalar.
  check({.source = R"(
    adj.func @f(%c: tensor<2x3xi1>, %a: tensor<f64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
      %0 = adj.select %c, %a, %b : tensor<2x3xi1>, tensor<f64>, tensor<3xf64>
      adj.return %0 : tensor<2x3xf64>
    })",
         .fixed = {{0, Tensor::fromDoubles(DType::I1, {2, 3},
                                           {1, 0, 0, 1, 1, 0})}}});
}

TEST_CASE("rules: cast") {
  // f64 -> f32: the sensitivity is cast back (exact for these values).
  std::string src = R"(
    adj.func @f(%x: tensor<3xf64>) -> tensor<3xf32> {
      %0 = adj.cast %x : tensor<3xf64> to tensor<3xf32>
      adj.return %0 : tensor<3xf32>
    })";
  auto x = Tensor::fromDoubles(DType::F64, {3}, {0.1, 0.2, 0.3});
  auto dy = Tensor::fromDoubles(DType::F32, {3}, {0.5, -2, 4});
  auto sens = runVjp(src, {x}, {dy});
  REQUIRE(sens[0].tensor().dtype() == DType::F64);
  CHECK(sens[0].tensor().toDoubles() == std::vector<double>{0.5, -2, 4});
  auto tangent = runJvp(src, {x}, {Tensor::fromDoubles(DType::F64, {3},
                                                       {1.5, 0.25, -1})});
  REQUIRE(tangent[0].tensor().dtype() == DType::F32);
  CHECK(tangent[0].tensor().toDoubles() == std::vector<double>{1.5, 0.25, -1});

  // Through an integer the derivative is zero.
  check({.source = R"(
    adj.func @f(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
      %i = adj.cast %x : tensor<2x3xf64> to tensor<2x3xi64>
      %y = adj.cast %i : tensor<2x3xi64> to tensor<2x3xf64>
      %0 = adj.add %x, %y : tensor<2x3xf64>, tensor<2x3xf64>
      adj.return %0 : tensor<2x3xf64>
    })",
         .lo = 0.2,
         .hi = 0.8});
}

TEST_CASE("rules: f32 rules emit f32 constants") {
  // Scalars in rules take the operand's element type: compare f32 with f64.
  auto body = [](const std::string &t) {
    std::string ty = "tensor<4x" + t + ">";
    return "adj.func @f(%x: " + ty + ", %y: " + ty + ") -> " + ty +
           " {\n"
           "  %a = adj.tanh %x : " + ty + "\n"
           "  %b = adj.erf %a : " + ty + "\n"
           "  %c = adj.rsqrt %y : " + ty + "\n"
           "  %d = adj.pow %y, %x : " + ty + ", " + ty + "\n"
           "  %e = adj.sigmoid %d : " + ty + "\n"
           "  %g = adj.mul %b, %c : " + ty + ", " + ty + "\n"
           "  %0 = adj.add %g, %e : " + ty + ", " + ty + "\n"
           "  adj.return %0 : " + ty + "\n}\n";
  };
  std::vector<double> x = {-0.5, 0.1, 0.7, 1.2}, y = {0.5, 0.9, 1.3, 2},
                      d = {1, -0.5, 0.25, 2};
  auto run = [&](DType t, const std::string &name) {
    return runVjp(body(name),
                  {Tensor::fromDoubles(t, {4}, x),
                   Tensor::fromDoubles(t, {4}, y)},
                  {Tensor::fromDoubles(t, {4}, d)});
  };
  auto single = run(DType::F32, "f32"), dbl = run(DType::F64, "f64");
  for (int i = 0; i < 2; ++i) {
    REQUIRE(single[i].tensor().dtype() == DType::F32);
    std::vector<double> a = single[i].tensor().toDoubles(),
                        b = dbl[i].tensor().toDoubles();
    for (size_t k = 0; k < a.size(); ++k)
      CHECK(a[k] == Approx(b[k]).epsilon(1e-5).margin(1e-6));
  }
}

TEST_CASE("rules: composite elementwise chain") {
  // Several uses of one value: sensitivities accumulate through grad_add.
  check({.source = R"(
    adj.func @f(%x: tensor<2x3xf64>, %y: tensor<3xf64>) -> tensor<2x3xf64> {
      %a = adj.mul %x, %y : tensor<2x3xf64>, tensor<3xf64>
      %b = adj.tanh %a : tensor<2x3xf64>
      %c = adj.div %b, %y : tensor<2x3xf64>, tensor<3xf64>
      %d = adj.exp %x : tensor<2x3xf64>
      %0 = adj.sub %c, %d : tensor<2x3xf64>, tensor<2x3xf64>
      adj.return %0 : tensor<2x3xf64>
    })",
         .awayFromZero = true});
}

TEST_CASE("rules: complex numbers through real parts") {
  // Real inputs and outputs around complex arithmetic: the finite
  // differences of the real function check every complex rule (complex,
  // real, imag, abs of a complex tensor, and the holomorphic ones on
  // complex operands), in both modes and to second order.
  check({.source = R"(
    adj.func @f(%x: tensor<2x3xf64>, %y: tensor<3xf64>)
        -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
      %z = adj.complex %x, %y : tensor<2x3xf64>, tensor<3xf64>
      %e = adj.exp %z : tensor<2x3xcomplex<f64>>
      %w = adj.mul %e, %z : tensor<2x3xcomplex<f64>>, tensor<2x3xcomplex<f64>>
      %q = adj.div %w, %z : tensor<2x3xcomplex<f64>>, tensor<2x3xcomplex<f64>>
      %s = adj.sqrt %q : tensor<2x3xcomplex<f64>>
      %l = adj.log %s : tensor<2x3xcomplex<f64>>
      %r = adj.real %l : tensor<2x3xcomplex<f64>>
      %i = adj.imag %w : tensor<2x3xcomplex<f64>>
      %m = adj.abs %z : tensor<2x3xcomplex<f64>>
      adj.return %r, %i, %m : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
    })",
         .awayFromZero = true});
}

TEST_CASE("rules: casts between real and complex") {
  check({.source = R"(
    adj.func @f(%x: tensor<4xf64>) -> tensor<4xf64> {
      %z = adj.cast %x : tensor<4xf64> to tensor<4xcomplex<f64>>
      %c = adj.constant dense<(0.5, -2.0)> : tensor<complex<f64>>
      %p = adj.mul %z, %c : tensor<4xcomplex<f64>>, tensor<complex<f64>>
      %t = adj.tanh %p : tensor<4xcomplex<f64>>
      %r = adj.cast %t : tensor<4xcomplex<f64>> to tensor<4xf64>
      adj.return %r : tensor<4xf64>
    })"});
}
