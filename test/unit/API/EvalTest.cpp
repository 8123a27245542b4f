//===- EvalTest.cpp - Composites evaluated by the reference interpreter ---===//
//
// The composites compute what their formulas say: each is built into a
// function, run by the interpreter and compared with a hand computation.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/Interpreter/Interpreter.h"

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;

namespace {

/// An interpreter tensor of `dtype` from row-major values.
interp::Value tensor(DType dtype, std::vector<int64_t> shape,
                     std::vector<double> values) {
  return interp::Tensor::fromDoubles(dtype, std::move(shape), values);
}

interp::Value f32t(std::vector<int64_t> shape, std::vector<double> values) {
  return tensor(DType::F32, std::move(shape), std::move(values));
}

/// Verifies `m` and runs its function `name`; returns the elements of the
/// single tensor result and checks its shape.
std::vector<double> run(const Module &m, const std::string &name,
                        const std::vector<interp::Value> &args,
                        const std::vector<int64_t> &shape) {
  m.verify();
  interp::Interpreter interpreter(m.op());
  std::vector<interp::Value> results = interpreter.call(name, args);
  REQUIRE(results.size() == 1);
  const interp::Tensor &t = results.front().tensor();
  CHECK(t.shape() == shape);
  return t.toDoubles();
}

std::vector<double> handSoftmax(const std::vector<double> &row) {
  double mx = row.front(), total = 0;
  for (double v : row)
    mx = std::max(mx, v);
  std::vector<double> out;
  for (double v : row)
    total += std::exp(v - mx);
  for (double v : row)
    out.push_back(std::exp(v - mx) / total);
  return out;
}

const std::vector<double> kLogits = {1.0, 2.0, 3.0, -1.0, 0.0, 5.0,
                                     0.5, 0.5, 0.5, 100.0, 90.0, -50.0};

} // namespace

TEST_CASE("softmax rows sum to one and match a hand computation",
          "[api][eval]") {
  Module m;
  m.function("f", {f32({4, 3})}, [](Value x) { return softmax(x); });
  std::vector<double> y = run(m, "f", {f32t({4, 3}, kLogits)}, {4, 3});
  for (int r = 0; r < 4; ++r) {
    std::vector<double> row(kLogits.begin() + 3 * r,
                            kLogits.begin() + 3 * r + 3);
    std::vector<double> expected = handSoftmax(row);
    double total = 0;
    for (int c = 0; c < 3; ++c) {
      CHECK(y[3 * r + c] == Approx(expected[c]).margin(1e-6));
      total += y[3 * r + c];
    }
    CHECK(total == Approx(1.0).epsilon(1e-6));
  }
}

TEST_CASE("log_softmax is the log of softmax, stably", "[api][eval]") {
  Module m;
  m.function("f", {f32({4, 3})}, [](Value x) { return log_softmax(x); });
  std::vector<double> y = run(m, "f", {f32t({4, 3}, kLogits)}, {4, 3});
  for (int r = 0; r < 4; ++r) {
    std::vector<double> row(kLogits.begin() + 3 * r,
                            kLogits.begin() + 3 * r + 3);
    std::vector<double> expected = handSoftmax(row);
    for (int c = 0; c < 3; ++c) {
      CHECK(std::isfinite(y[3 * r + c]));
      // Row 3 has a probability of e^-150: its log is still exact.
      double logp = std::log(std::max(expected[c], 1e-300));
      if (r == 3 && c == 2)
        logp = -150.0;
      CHECK(y[3 * r + c] == Approx(logp).epsilon(1e-5).margin(1e-5));
    }
  }
}

TEST_CASE("cross_entropy matches a hand computation", "[api][eval]") {
  std::vector<double> labels = {2, 0, 1, 0};
  double expected = 0;
  for (int r = 0; r < 4; ++r) {
    std::vector<double> row(kLogits.begin() + 3 * r,
                            kLogits.begin() + 3 * r + 3);
    expected -= std::log(handSoftmax(row)[labels[r]]) / 4;
  }
  SECTION("class indices") {
    Module m;
    m.function("f", {f32({4, 3}), i64({4})},
               [](Value x, Value y) { return cross_entropy(x, y); });
    std::vector<double> loss =
        run(m, "f",
            {f32t({4, 3}, kLogits), tensor(DType::I64, {4}, labels)},
            {});
    CHECK(loss[0] == Approx(expected).epsilon(1e-5));
  }
  SECTION("one-hot probabilities") {
    std::vector<double> oneHot(12, 0.0);
    for (int r = 0; r < 4; ++r)
      oneHot[3 * r + static_cast<int>(labels[r])] = 1.0;
    Module m;
    m.function("f", {f32({4, 3}), f32({4, 3})},
               [](Value x, Value y) { return cross_entropy(x, y); });
    std::vector<double> loss =
        run(m, "f", {f32t({4, 3}, kLogits), f32t({4, 3}, oneHot)}, {});
    CHECK(loss[0] == Approx(expected).epsilon(1e-5));
  }
}

TEST_CASE("layer_norm gives mean 0 and variance 1, then scales",
          "[api][eval]") {
  std::vector<double> x = {1, 2, 3, 4, -10, 0, 10, 20};
  Module m;
  m.function("f", {f32({2, 4}), f32({4}), f32({4})},
             [](Value x, Value g, Value b) {
               return layer_norm(x, g, b, 1e-5);
             });
  SECTION("identity affine") {
    std::vector<double> y =
        run(m, "f",
            {f32t({2, 4}, x), f32t({4}, {1, 1, 1, 1}), f32t({4}, {0, 0, 0, 0})},
            {2, 4});
    for (int r = 0; r < 2; ++r) {
      double mu = 0, var = 0;
      for (int c = 0; c < 4; ++c)
        mu += y[4 * r + c] / 4;
      for (int c = 0; c < 4; ++c)
        var += (y[4 * r + c] - mu) * (y[4 * r + c] - mu) / 4;
      CHECK(mu == Approx(0.0).margin(1e-5));
      CHECK(var == Approx(1.0).epsilon(1e-3));
    }
  }
  SECTION("gamma and beta") {
    std::vector<double> gamma = {1, 2, 3, 4}, beta = {0.5, 0, -1, 2};
    std::vector<double> y =
        run(m, "f", {f32t({2, 4}, x), f32t({4}, gamma), f32t({4}, beta)},
            {2, 4});
    for (int r = 0; r < 2; ++r) {
      double mu = 0, var = 0;
      for (int c = 0; c < 4; ++c)
        mu += x[4 * r + c] / 4;
      for (int c = 0; c < 4; ++c)
        var += (x[4 * r + c] - mu) * (x[4 * r + c] - mu) / 4;
      for (int c = 0; c < 4; ++c) {
        double expected =
            (x[4 * r + c] - mu) / std::sqrt(var + 1e-5) * gamma[c] + beta[c];
        CHECK(y[4 * r + c] == Approx(expected).epsilon(1e-5).margin(1e-5));
      }
    }
  }
}

TEST_CASE("gelu at a few points", "[api][eval]") {
  std::vector<double> xs = {-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0};
  Module m;
  m.function("f", {Type::tensor(DType::F64, {7})},
             [](Value x) { return gelu(x); });
  std::vector<double> y =
      run(m, "f", {tensor(DType::F64, {7}, xs)}, {7});
  for (size_t i = 0; i < xs.size(); ++i)
    CHECK(y[i] == Approx(0.5 * xs[i] * (1 + std::erf(xs[i] / std::sqrt(2.0))))
                      .epsilon(1e-12)
                      .margin(1e-12));
  CHECK(y[3] == 0.0);
  CHECK(y[5] == Approx(0.8413447460685429));
}

TEST_CASE("linear is x @ W + b", "[api][eval]") {
  Module m;
  m.function("f", {f32({2, 3}), f32({3, 2}), f32({2})},
             [](Value x, Value w, Value b) { return linear(x, w, b); });
  std::vector<double> y =
      run(m, "f",
          {f32t({2, 3}, {1, 2, 3, 4, 5, 6}), f32t({3, 2}, {1, 0, 0, 1, 1, 1}),
           f32t({2}, {10, -10})},
          {2, 2});
  CHECK(y == std::vector<double>{14, -5, 20, 1});
}

TEST_CASE("closures, recursion and loops evaluate", "[api][eval]") {
  Module m;
  Type s = Type::scalar(DType::F64);
  Function fact = m.declare("fact", {s}, {s});
  fact.define([&](Value n) {
    return if_(
        n <= 1.0, [&] { return n - n + 1.0; },
        [&] { return n * fact(n - 1.0); });
  });
  m.function("main", {s}, [&](Value x) {
    Value addX = lambda(m, {s}, [&](Value y) { return x + y; });
    Value total = for_(0, 4, 1, {x}, [&](Value i, Value acc) {
      return addX(acc);
    });
    Value pair = make_tuple({total, fact(x)});
    return get(pair, 0) * 1000.0 + get(pair, 1);
  });
  // x = 3: sum = 3 + 4 * 3 = 15; fact(3) = 6.
  std::vector<double> y =
      run(m, "main", {tensor(DType::F64, {}, {3.0})}, {});
  CHECK(y[0] == 15006.0);
}

TEST_CASE("indexing builders match numpy and lax", "[api][eval][indexing]") {
  auto f64t = [](std::vector<int64_t> shape, std::vector<double> values) {
    return tensor(DType::F64, std::move(shape), std::move(values));
  };
  auto i64t = [](std::vector<int64_t> shape, std::vector<double> values) {
    return tensor(DType::I64, std::move(shape), std::move(values));
  };
  // x = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]].
  std::vector<double> xs;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      xs.push_back(10 * r + c);
  Type x34 = Type::tensor(DType::F64, {3, 4});
  Type i2 = Type::tensor(DType::I64, {2});
  Type i0 = Type::tensor(DType::I64, {});

  SECTION("x[rows, cols] with broadcasting and negative indices") {
    Module m;
    m.function("f", {x34, Type::tensor(DType::I64, {2, 1}), i2},
               [](Value x, Value r, Value c) { return index(x, {r, c}); });
    CHECK(run(m, "f", {f64t({3, 4}, xs), i64t({2, 1}, {-1, 0}),
                       i64t({2}, {3, -4})},
              {2, 2}) == std::vector<double>{23, 20, 3, 0});
  }
  SECTION("x[rows] keeps the trailing dimension") {
    Module m;
    m.function("f", {x34, i2},
               [](Value x, Value r) { return index(x, {r}); });
    CHECK(run(m, "f", {f64t({3, 4}, xs), i64t({2}, {2, -3})}, {2, 4}) ==
          std::vector<double>{20, 21, 22, 23, 0, 1, 2, 3});
  }
  SECTION("x.at[rows, cols].<mode>(v), a repeated position") {
    const std::pair<Scatter, std::vector<double>> cases[] = {
        {Scatter::Set, {0, 7, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}},
        {Scatter::Add, {0, 13, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}},
        {Scatter::Mul, {0, 35, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}},
        {Scatter::Min, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}},
        {Scatter::Max, {0, 7, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}}};
    for (const auto &[mode, want] : cases) {
      Module m;
      Scatter each = mode;
      m.function("f", {x34, i2, i2, Type::tensor(DType::F64, {2})},
                 [each](Value x, Value r, Value c, Value v) {
                   return index_update(each, x, {r, c}, v);
                 });
      CHECK(run(m, "f", {f64t({3, 4}, xs), i64t({2}, {0, 0}),
                         i64t({2}, {1, -3}), f64t({2}, {5, 7})},
                {3, 4}) == want);
    }
  }
  SECTION("dynamic_slice and dynamic_update_slice clamp their starts") {
    Module m;
    m.function("f", {x34, i0, i0}, [](Value x, Value r, Value c) {
      return dynamic_slice(x, {r, c}, {2, 2});
    });
    CHECK(run(m, "f", {f64t({3, 4}, xs), i64t({}, {1}), i64t({}, {1})},
              {2, 2}) == std::vector<double>{11, 12, 21, 22});
    // As lax.dynamic_slice: -2 counts from the end (column 2), -6 stays
    // negative after that and clamps to 0.
    CHECK(run(m, "f", {f64t({3, 4}, xs), i64t({}, {5}), i64t({}, {-2})},
              {2, 2}) == std::vector<double>{12, 13, 22, 23});
    CHECK(run(m, "f", {f64t({3, 4}, xs), i64t({}, {5}), i64t({}, {-6})},
              {2, 2}) == std::vector<double>{10, 11, 20, 21});
    Module u;
    u.function("g", {x34, Type::tensor(DType::F64, {1, 2}), i0, i0},
               [](Value x, Value v, Value r, Value c) {
                 return dynamic_update_slice(x, v, {r, c});
               });
    CHECK(run(u, "g", {f64t({3, 4}, xs), f64t({1, 2}, {-1, -2}),
                       i64t({}, {2}), i64t({}, {3})},
              {3, 4}) == std::vector<double>{0, 1, 2, 3, 10, 11, 12, 13, 20,
                                             21, -1, -2});
  }
  SECTION("reverse along axes") {
    Module m;
    m.function("f", {x34}, [](Value x) { return reverse(x, {-1, 0}); });
    CHECK(run(m, "f", {f64t({3, 4}, xs)}, {3, 4}) ==
          std::vector<double>{23, 22, 21, 20, 13, 12, 11, 10, 3, 2, 1, 0});
  }
  SECTION("errors name the function") {
    Module m;
    CHECK_THROWS_WITH(
        m.function("f", {x34, Type::tensor(DType::F64, {2})},
                   [](Value x, Value r) { return index(x, {r}); }),
        Catch::Contains("index: indices must be i32 or i64"));
    CHECK_THROWS_WITH(m.function("g", {x34, i2, Type::tensor(DType::I64, {3})},
                                 [](Value x, Value r, Value c) {
                                   return index(x, {r, c});
                                 }),
                      Catch::Contains("do not broadcast"));
    CHECK_THROWS_WITH(m.function("h", {x34, i0, i0},
                                 [](Value x, Value r, Value c) {
                                   return dynamic_slice(x, {r, c}, {4, 1});
                                 }),
                      Catch::Contains("does not fit dimension 0"));
  }
}
