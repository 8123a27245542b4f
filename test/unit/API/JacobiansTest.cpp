//===- JacobiansTest.cpp - api::jacrev, jacfwd and hessian evaluated ------===//
//
// Each builds one adj.vmap over basis vectors (no loop); after -adj-grad the
// interpreter's blocks must equal the Jacobians and Hessians worked out by
// hand, for several results and several arguments.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/API/Passes.h"
#include "adjoint/Interpreter/Interpreter.h"

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;

namespace {

std::vector<double> call(interp::Interpreter &interpreter, const char *name,
                         const std::vector<interp::Value> &args, size_t k,
                         std::vector<int64_t> shape) {
  auto results = interpreter.call(name, args);
  const interp::Tensor &t = results.at(k).tensor();
  CHECK(t.shape() == shape);
  return t.toDoubles();
}

/// The IR count of an op name in the module's text.
size_t countOps(Module &m, const std::string &name) {
  std::string text = m.str();
  size_t n = 0;
  for (size_t at = text.find(name); at != std::string::npos;
       at = text.find(name, at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("jacrev and jacfwd of two results in two arguments",
          "[api][jacobians]") {
  Module m;
  Type v3 = Type::tensor(DType::F64, {3}), v2 = Type::tensor(DType::F64, {2});
  // r0 = sin(x) * sum(y), r1 = sum(x * x) * y.
  Function f = m.function("f", {v3, v2}, [](Value x, Value y) {
    return std::vector<Value>{sin(x) * sum(y), sum(x * x) * y};
  });
  for (const char *name : {"rev", "fwd"}) {
    m.function(name, {v3, v2}, [&](Value x, Value y) {
      Value j = std::string(name) == "rev" ? jacrev(f.ref()) : jacfwd(f.ref());
      return std::vector<Value>(j(x, y));
    });
  }
  CHECK(countOps(m, "adj.vmap") == 2);
  CHECK(countOps(m, "adj.for") == 0);
  runPasses(m, "adj-grad");
  m.verify();

  std::vector<double> x = {0.3, -1.2, 2.0}, y = {0.5, -2.5};
  double s = y[0] + y[1], q = 0;
  for (double v : x)
    q += v * v;
  interp::Interpreter interpreter(m.op());
  std::vector<interp::Value> args = {
      interp::Tensor::fromDoubles(DType::F64, {3}, x),
      interp::Tensor::fromDoubles(DType::F64, {2}, y)};
  for (const char *name : {"rev", "fwd"}) {
    INFO(name);
    std::vector<double> j00 = call(interpreter, name, args, 0, {3, 3});
    std::vector<double> j01 = call(interpreter, name, args, 1, {3, 2});
    std::vector<double> j10 = call(interpreter, name, args, 2, {2, 3});
    std::vector<double> j11 = call(interpreter, name, args, 3, {2, 2});
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k)
        CHECK(j00[3 * i + k] ==
              Approx(i == k ? std::cos(x[i]) * s : 0.0).margin(1e-14));
      for (int k = 0; k < 2; ++k)
        CHECK(j01[2 * i + k] == Approx(std::sin(x[i])));
    }
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < 3; ++i)
        CHECK(j10[3 * k + i] == Approx(2 * x[i] * y[k]));
      for (int l = 0; l < 2; ++l)
        CHECK(j11[2 * k + l] == Approx(k == l ? q : 0.0).margin(1e-14));
    }
  }
}

TEST_CASE("hessian blocks of a function of two arguments",
          "[api][jacobians]") {
  Module m;
  Type v2 = Type::tensor(DType::F64, {2});
  // g(a, b) = sum(a * a * b): H_aa = diag(2b), H_ab = H_ba = diag(2a),
  // H_bb = 0.
  Function g = m.function("g", {v2, v2},
                          [](Value a, Value b) { return sum(a * a * b); });
  m.function("h", {v2, v2}, [&](Value a, Value b) {
    return std::vector<Value>(hessian(g.ref())(a, b));
  });
  runPasses(m, "adj-grad");
  m.verify();
  std::vector<double> a = {1.5, -0.5}, b = {2.0, 3.0};
  interp::Interpreter interpreter(m.op());
  std::vector<interp::Value> args = {
      interp::Tensor::fromDoubles(DType::F64, {2}, a),
      interp::Tensor::fromDoubles(DType::F64, {2}, b)};
  std::vector<std::vector<double>> diag = {
      {2 * b[0], 2 * b[1]}, {2 * a[0], 2 * a[1]}, {2 * a[0], 2 * a[1]},
      {0, 0}};
  for (size_t k = 0; k < 4; ++k) {
    std::vector<double> h = call(interpreter, "h", args, k, {2, 2});
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        CHECK(h[2 * i + j] == Approx(i == j ? diag[k][i] : 0.0).margin(1e-14));
  }
}

TEST_CASE("jacobian requests refuse what they cannot differentiate",
          "[api][jacobians]") {
  Module m;
  Type v2 = Type::tensor(DType::F64, {2});
  Function f = m.function("f", {v2}, [](Value x) { return x * x; });
  m.function("g", {v2}, [&](Value x) {
    CHECK_THROWS_WITH(jacrev(f.ref(), {1}), Catch::Contains("out of range"));
    CHECK_THROWS_WITH(hessian(f.ref()),
                      Catch::Contains("must return one scalar"));
    return x;
  });
}
