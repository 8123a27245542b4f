//===- VmapTest.cpp - api::vmap built, expanded and evaluated -------------===//
//
// The builder's vmap request has the batched function type, is refused
// with an adjoint::Error when its axes do not fit the function, and after
// -adj-grad computes per-example results (per-example gradients of a
// shared weight here) that the interpreter checks against a hand
// computation.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/API/Passes.h"
#include "adjoint/Interpreter/Interpreter.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;

TEST_CASE("vmap of grad gives per-example gradients", "[api][vmap]") {
  Module m;
  Type w3 = Type::tensor(DType::F64, {3});
  Type b4x3 = Type::tensor(DType::F64, {4, 3});
  // loss(w, x) = sum(w * x)^2: d/dw = 2 sum(w * x) x.
  Function loss = m.function("loss", {w3, w3}, [](Value w, Value x) {
    Value s = sum(w * x);
    return s * s;
  });
  m.function("per_example", {w3, b4x3}, [&](Value w, Value xs) {
    Value g = grad(loss.ref(), {std::vector<int64_t>{0}});
    Value v = vmap(g, {kNotBatched, 0}, {0}, 4);
    CHECK(v.type() == Type::fn({w3, b4x3}, {b4x3}));
    return v(w, xs)[0];
  });
  // Batch along axis 1 of the input and return it along axis 1.
  m.function("columns", {Type::tensor(DType::F64, {3, 4})}, [&](Value xs) {
    Function sq = m.function("sq", {w3}, [](Value x) { return x * x; });
    Value vs = vmap(sq.ref(), {1}, {1}, 4);
    CHECK(vs.type() == Type::fn({Type::tensor(DType::F64, {3, 4})},
                                {Type::tensor(DType::F64, {3, 4})}));
    return vs(xs)[0];
  });
  runPasses(m, "adj-grad");
  m.verify();

  std::vector<double> w = {1, -2, 0.5};
  std::vector<double> xs = {1, 0, 0, 0, 1, 0, 1, 1, 1, 2, -1, 4};
  interp::Interpreter interpreter(m.op());
  auto results = interpreter.call(
      "per_example",
      {interp::Tensor::fromDoubles(DType::F64, {3}, w),
       interp::Tensor::fromDoubles(DType::F64, {4, 3}, xs)});
  REQUIRE(results.size() == 1);
  const interp::Tensor &g = results.front().tensor();
  CHECK(g.shape() == std::vector<int64_t>{4, 3});
  std::vector<double> got = g.toDoubles();
  for (int b = 0; b < 4; ++b) {
    double s = 0;
    for (int i = 0; i < 3; ++i)
      s += w[i] * xs[3 * b + i];
    for (int i = 0; i < 3; ++i)
      CHECK(got[3 * b + i] == Approx(2 * s * xs[3 * b + i]));
  }

  std::vector<double> cols = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  auto squared = interpreter.call(
      "columns", {interp::Tensor::fromDoubles(DType::F64, {3, 4}, cols)});
  std::vector<double> sq = squared.front().tensor().toDoubles();
  for (size_t i = 0; i < cols.size(); ++i)
    CHECK(sq[i] == Approx(cols[i] * cols[i]));
}

TEST_CASE("vmap refuses axes that do not fit the function", "[api][vmap]") {
  Module m;
  Type v3 = Type::tensor(DType::F32, {3});
  Function f = m.function("f", {v3}, [](Value x) { return x; });
  m.function("g", {v3}, [&](Value x) {
    CHECK_THROWS_WITH(vmap(f.ref(), {0, 0}, {0}, 2),
                      Catch::Contains("one in_axes entry per argument"));
    CHECK_THROWS_WITH(vmap(f.ref(), {5}, {0}, 2),
                      Catch::Contains("out of range"));
    CHECK_THROWS_WITH(vmap(f.ref(), {0}, {0}, 0),
                      Catch::Contains("batch size must be positive"));
    return x;
  });
}

TEST_CASE("vmap returns a kNotBatched result without the batch",
          "[api][vmap]") {
  Module m;
  Type v3 = Type::tensor(DType::F64, {3});
  Type s = Type::tensor(DType::F64, {});
  // f(x, w) = (x * w, sum(w)): the second result depends only on w.
  Function f = m.function("f", {v3, v3}, [](Value x, Value w) {
    return Values{x * w, sum(w)};
  });
  m.function("main", {Type::tensor(DType::F64, {2, 3}), v3},
             [&](Value xs, Value w) {
               Value v = vmap(f.ref(), {0, kNotBatched}, {1, kNotBatched}, 2);
               CHECK(v.type() ==
                     Type::fn({Type::tensor(DType::F64, {2, 3}), v3},
                              {Type::tensor(DType::F64, {3, 2}), s}));
               return v(xs, w);
             });
  runPasses(m, "adj-grad");
  m.verify();

  std::vector<double> xs = {1, 2, 3, 4, 5, 6}, w = {1, 10, 100};
  interp::Interpreter interpreter(m.op());
  auto results = interpreter.call(
      "main", {interp::Tensor::fromDoubles(DType::F64, {2, 3}, xs),
               interp::Tensor::fromDoubles(DType::F64, {3}, w)});
  REQUIRE(results.size() == 2);
  CHECK(results[0].tensor().shape() == std::vector<int64_t>{3, 2});
  CHECK(results[0].tensor().toDoubles() ==
        std::vector<double>{1, 4, 20, 50, 300, 600});
  CHECK(results[1].tensor().shape().empty());
  CHECK(results[1].tensor().toDoubles() == std::vector<double>{111});
}

TEST_CASE("vmap refuses a kNotBatched result that depends on the batch",
          "[api][vmap]") {
  Module m;
  Type v3 = Type::tensor(DType::F64, {3});
  Function f = m.function("f", {v3, v3}, [](Value x, Value w) {
    return Values{x * w, sum(w)};
  });
  m.function("main", {Type::tensor(DType::F64, {2, 3}), v3},
             [&](Value xs, Value w) {
               Value v = vmap(f.ref(), {0, kNotBatched},
                              {kNotBatched, kNotBatched}, 2);
               CHECK(v.type() == Type::fn({Type::tensor(DType::F64, {2, 3}),
                                           v3},
                                          {v3, Type::tensor(DType::F64, {})}));
               return v(xs, w);
             });
  CHECK_THROWS_WITH(runPasses(m, "adj-grad"),
                    Catch::Contains("vmap has mapped output but out_axes "
                                    "is None"));
}
