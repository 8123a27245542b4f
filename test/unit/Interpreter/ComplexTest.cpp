//===- ComplexTest.cpp - Complex elements in the interpreter -------------===//
//
// The Elementwise family's complex side (Complex.cpp) against std::complex,
// with NumPy's special cases where C++ has none (0^0, sign, log1p and expm1
// of tiny arguments), and complex sums, products, casts and constants.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <complex>

using namespace adjoint;
using namespace adjoint::test;
using C = std::complex<double>;

static Tensor c128(std::vector<int64_t> shape, std::vector<C> values) {
  Tensor t(DType::C128, std::move(shape));
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  std::copy(values.begin(), values.end(),
            static_cast<C *>(t.mutableData()));
  return t;
}

static std::vector<C> valuesOf(const Tensor &t) {
  REQUIRE(t.dtype() == DType::C128);
  const C *p = static_cast<const C *>(t.data());
  return std::vector<C>(p, p + t.numel());
}

static void requireNear(const std::vector<C> &got, const std::vector<C> &want,
                        double tol = 1e-14) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    CHECK(std::abs(got[i] - want[i]) <= tol * (1 + std::abs(want[i])));
  }
}

TEST_CASE("complex arithmetic and math match std::complex") {
  Program p(R"(
    adj.func @f(%a: tensor<3xcomplex<f64>>, %b: tensor<complex<f64>>)
        -> (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>,
            tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>,
            tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>,
            tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) {
      %0 = adj.add %a, %b : tensor<3xcomplex<f64>>, tensor<complex<f64>>
      %1 = adj.mul %a, %b : tensor<3xcomplex<f64>>, tensor<complex<f64>>
      %2 = adj.div %a, %b : tensor<3xcomplex<f64>>, tensor<complex<f64>>
      %3 = adj.pow %a, %b : tensor<3xcomplex<f64>>, tensor<complex<f64>>
      %4 = adj.exp %a : tensor<3xcomplex<f64>>
      %5 = adj.log %a : tensor<3xcomplex<f64>>
      %6 = adj.sqrt %a : tensor<3xcomplex<f64>>
      %7 = adj.tanh %a : tensor<3xcomplex<f64>>
      adj.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3xcomplex<f64>>,
        tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>,
        tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>,
        tensor<3xcomplex<f64>>
    })");
  std::vector<C> a = {C(1, 2), C(-0.5, 0.25), C(3, -4)};
  C b(0.75, -1.5);
  auto r = p.call("f", {c128({3}, a), c128({}, {b})});
  std::vector<std::vector<C>> want(8);
  for (C z : a) {
    want[0].push_back(z + b);
    want[1].push_back(z * b);
    want[2].push_back(z / b);
    want[3].push_back(std::exp(b * std::log(z)));
    want[4].push_back(std::exp(z));
    want[5].push_back(std::log(z));
    want[6].push_back(std::sqrt(z));
    want[7].push_back(std::tanh(z));
  }
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("result " << i);
    requireNear(valuesOf(r[i].tensor()), want[i]);
  }
}

TEST_CASE("complex special cases follow NumPy") {
  Program p(R"(
    adj.func @f(%a: tensor<4xcomplex<f64>>, %b: tensor<4xcomplex<f64>>)
        -> (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>,
            tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) {
      %0 = adj.pow %a, %b : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
      %1 = adj.sign %a : tensor<4xcomplex<f64>>
      %2 = adj.log1p %b : tensor<4xcomplex<f64>>
      %3 = adj.expm1 %b : tensor<4xcomplex<f64>>
      adj.return %0, %1, %2, %3 : tensor<4xcomplex<f64>>,
        tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
    })");
  std::vector<C> a = {C(0, 0), C(0, 0), C(3, 4), C(0, -2)};
  std::vector<C> b = {C(0, 0), C(2, 0), C(1e-20, 1e-20), C(-1e-18, 3e-19)};
  auto r = p.call("f", {c128({4}, a), c128({4}, b)});
  // 0^0 = 1 and 0^2 = 0 (exp(w log 0) would be NaN).
  std::vector<C> pow = valuesOf(r[0].tensor());
  CHECK(pow[0] == C(1, 0));
  CHECK(pow[1] == C(0, 0));
  requireNear(valuesOf(r[1].tensor()),
              {C(0, 0), C(0, 0), C(0.6, 0.8), C(0, -1)});
  // Tiny arguments: log1p(z) ~ z and expm1(z) ~ z, where log(1 + z) and
  // exp(z) - 1 lose every digit.
  std::vector<C> log1p = valuesOf(r[2].tensor());
  std::vector<C> expm1 = valuesOf(r[3].tensor());
  for (size_t i = 2; i < 4; ++i) {
    requireNear({log1p[i]}, {b[i]}, 1e-12);
    requireNear({expm1[i]}, {b[i]}, 1e-12);
  }
}

TEST_CASE("complex parts, modulus, casts, sums and products") {
  Program p(R"(
    adj.func @parts(%re: tensor<2xf64>, %im: tensor<f64>)
        -> (tensor<2xcomplex<f64>>, tensor<2xf64>, tensor<2xf64>,
            tensor<2xf64>, tensor<2xf32>, tensor<2xi1>) {
      %z = adj.complex %re, %im : tensor<2xf64>, tensor<f64>
      %r = adj.real %z : tensor<2xcomplex<f64>>
      %i = adj.imag %z : tensor<2xcomplex<f64>>
      %m = adj.abs %z : tensor<2xcomplex<f64>>
      %c = adj.cast %z : tensor<2xcomplex<f64>> to tensor<2xf32>
      %b = adj.cast %z : tensor<2xcomplex<f64>> to tensor<2xi1>
      adj.return %z, %r, %i, %m, %c, %b : tensor<2xcomplex<f64>>,
        tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf32>,
        tensor<2xi1>
    }
    adj.func @reduce(%z: tensor<2x2xcomplex<f64>>)
        -> (tensor<2xcomplex<f64>>, tensor<complex<f64>>,
            tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f32>>) {
      %s = adj.reduce_sum %z axes = [0] : tensor<2x2xcomplex<f64>>
      %m = adj.reduce_mean %z axes = [0, 1] : tensor<2x2xcomplex<f64>>
      %p = adj.matmul %z, %z : tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>
      %c = adj.cast %p : tensor<2x2xcomplex<f64>> to tensor<2x2xcomplex<f32>>
      adj.return %s, %m, %p, %c : tensor<2xcomplex<f64>>, tensor<complex<f64>>,
        tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f32>>
    }
    adj.func @constant() -> tensor<2xcomplex<f32>> {
      %c = adj.constant dense<[(1.0, -2.0), (0.5, 3.0)]> : tensor<2xcomplex<f32>>
      %d = adj.cast %c : tensor<2xcomplex<f32>> to tensor<2xcomplex<f32>>
      adj.return %d : tensor<2xcomplex<f32>>
    })");
  auto r = p.call("parts", {f64({2}, {3, 0}), f64({}, {-4})});
  requireNear(valuesOf(r[0].tensor()), {C(3, -4), C(0, -4)});
  requireClose(r[1].tensor(), DType::F64, {2}, {3, 0});
  requireClose(r[2].tensor(), DType::F64, {2}, {-4, -4});
  requireClose(r[3].tensor(), DType::F64, {2}, {5, 4});
  requireClose(r[4].tensor(), DType::F32, {2}, {3, 0});
  requireClose(r[5].tensor(), DType::I1, {2}, {1, 1});

  std::vector<C> z = {C(1, 1), C(2, -1), C(0, 3), C(-1, 0)};
  auto s = p.call("reduce", {c128({2, 2}, z)});
  requireNear(valuesOf(s[0].tensor()), {C(1, 4), C(1, -1)});
  requireNear(valuesOf(s[1].tensor()), {C(0.5, 0.75)});
  std::vector<C> prod = {z[0] * z[0] + z[1] * z[2], z[0] * z[1] + z[1] * z[3],
                         z[2] * z[0] + z[3] * z[2], z[2] * z[1] + z[3] * z[3]};
  requireNear(valuesOf(s[2].tensor()), prod);
  const Tensor &narrow = s[3].tensor();
  REQUIRE(narrow.dtype() == DType::C64);
  CHECK(static_cast<const std::complex<float> *>(narrow.data())[1] ==
        std::complex<float>(prod[1]));

  Tensor c = p.run("constant");
  REQUIRE(c.dtype() == DType::C64);
  auto *pc = static_cast<const std::complex<float> *>(c.data());
  CHECK(pc[0] == std::complex<float>(1, -2));
  CHECK(pc[1] == std::complex<float>(0.5, 3));
  CHECK(RValue(c).toString() == "tensor<2xc64> [(1-2j), (0.5+3j)]");
}

TEST_CASE("a real tensor where the program wants a complex one is refused") {
  Program p(R"(
    adj.func @f(%z: tensor<2xcomplex<f64>>) -> tensor<2xf64> {
      %x = adj.real %z : tensor<2xcomplex<f64>>
      adj.return %x : tensor<2xf64>
    })");
  CHECK_THROWS_WITH(p.call("f", {f64({2}, {1, 2})}),
                    Catch::Contains("expected tensor<2xcomplex<f64>>, got "
                                    "tensor<2xf64>"));
}
