//===- RandomTest.cpp - api::random against jax.random's numbers ----------===//
//
// The expected numbers are what JAX 0.10.2 gives (jax.random with its
// default threefry implementation) for jax.random.PRNGKey(42); its uint32
// words are written here as int32, as keys are.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/Interpreter/Interpreter.h"

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;

namespace {

/// Builds `body` as a function without parameters and interprets it.
std::vector<double> draw(const std::function<Value(Module &)> &body,
                         const std::vector<int64_t> &shape) {
  Module m;
  m.function("f", {}, [&](const std::vector<Value> &) { return body(m); });
  m.verify();
  interp::Interpreter interpreter(m.op());
  std::vector<interp::Value> results = interpreter.call("f", {});
  REQUIRE(results.size() == 1);
  const interp::Tensor &t = results.front().tensor();
  CHECK(t.shape() == shape);
  return t.toDoubles();
}

double word(uint32_t w) { return double(int32_t(w)); }

} // namespace

TEST_CASE("random keys, splits and fold_in are JAX's", "[api][random]") {
  CHECK(draw([](Module &m) { return random::key(m, 42); }, {2}) ==
        std::vector<double>{0, 42});
  // A seed Value makes the same key.
  CHECK(draw([](Module &m) { return random::key(scalar(m, 42, DType::I32)); },
             {2}) == std::vector<double>{0, 42});
  CHECK(draw([](Module &m) { return random::split(random::key(m, 42), 3); },
             {3, 2}) == std::vector<double>{word(1832780943), word(270669613),
                                            word(64467757), word(2916123636),
                                            word(2465931498), word(255383827)});
  CHECK(draw([](Module &m) { return random::fold_in(random::key(m, 42), 7); },
             {2}) == std::vector<double>{word(2547012911), word(1371500959)});
}

TEST_CASE("random bits and uniform floats are JAX's", "[api][random]") {
  CHECK(draw([](Module &m) { return random::bits(random::key(m, 42), {5}); },
             {5}) == std::vector<double>{word(2098992034), word(2919706841),
                                         word(2646866425), word(2409546199),
                                         word(1935504149)});
  std::vector<double> u = draw(
      [](Module &m) { return random::uniform(random::key(m, 42), {5}); }, {5});
  std::vector<float> expected = {0.48870957f, 0.6797972f, 0.6162715f,
                                 0.5610161f, 0.4506446f};
  for (size_t i = 0; i < u.size(); ++i)
    CHECK(float(u[i]) == expected[i]);
  std::vector<double> z = draw(
      [](Module &m) { return random::normal(random::key(m, 42), {5}); }, {5});
  std::vector<double> jaxNormal = {-0.02830462, 0.46713185, 0.29570296,
                                   0.15354592, -0.12403282};
  for (size_t i = 0; i < z.size(); ++i)
    CHECK(z[i] == Approx(jaxNormal[i]).epsilon(1e-6));
}

TEST_CASE("bernoulli, categorical and dropout draw from the key",
          "[api][random]") {
  // p = 0 and p = 1 are certain; categorical puts every draw on the only
  // finite logit; dropout keeps x / (1 - rate) or 0.
  CHECK(draw([](Module &m) {
          return cast(random::bernoulli(random::key(m, 1), 0.0, {4}),
                      DType::I32);
        }, {4}) == std::vector<double>{0, 0, 0, 0});
  CHECK(draw([](Module &m) {
          return cast(random::bernoulli(random::key(m, 1), 1.0, {4}),
                      DType::I32);
        }, {4}) == std::vector<double>{1, 1, 1, 1});
  CHECK(draw([](Module &m) {
          Value logits = constant(m, {-1e30, 0.0, -1e30}, {3});
          return random::categorical(random::key(m, 3), logits, -1,
                                     std::vector<int64_t>{4});
        }, {4}) == std::vector<double>{1, 1, 1, 1});
  std::vector<double> d = draw([](Module &m) {
    return random::dropout(random::key(m, 5), ones(m, {64}), 0.5);
  }, {64});
  int kept = 0;
  for (double v : d) {
    CHECK((v == 0.0 || v == 2.0));
    kept += v == 2.0;
  }
  CHECK(kept > 16);
  CHECK(kept < 48);
}

TEST_CASE("random functions reject what is not a key", "[api][random]") {
  Module m;
  m.function("f", {}, [&](const std::vector<Value> &) {
    Value notKey = zeros(m, {3}, DType::I32);
    CHECK_THAT(errorOf([&] { random::normal(notKey, {2}); }),
               Catch::Contains("adjoint.random.normal: expected a key "
                               "(tensor<2xi32>), got tensor<3xi32>"));
    Value keys = random::split(random::key(m, 0), 2);
    CHECK_THAT(errorOf([&] { random::split(keys); }),
               Catch::Contains("index the result of split()"));
    CHECK_THAT(errorOf([&] { random::key(scalar(m, 1.5)); }),
               Catch::Contains("expected a rank-0 i32 or i64 seed"));
    CHECK_THAT(errorOf([&] {
                 random::dropout(random::key(m, 0), ones(m, {2}), 1.0);
               }),
               Catch::Contains("expected 0 <= rate < 1"));
    CHECK_THAT(errorOf([&] {
                 random::bits(random::key(m, 0), {2}, DType::F32);
               }),
               Catch::Contains("expected dtype i32 or i64"));
    return random::key(m, 0);
  });
}
