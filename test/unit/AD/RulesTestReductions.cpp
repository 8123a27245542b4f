//===- RulesTestReductions.cpp - Rules of matmul and the reductions -------===//

#include "RulesTestUtil.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::test::rules;
using interp::Tensor;

namespace {

std::string reduce(const std::string &op, const std::vector<int64_t> &shape,
                   const std::string &axes, bool keepdims,
                   const std::vector<int64_t> &result) {
  return function("%x: " + f64(shape), f64(result),
                  "adj." + op + " %x axes = " + axes +
                      (keepdims ? " keepdims" : "") + " : " + f64(shape));
}

void checkReduce(const std::string &op, Case c = {}) {
  c.source = reduce(op, {2, 3, 4}, "[0, 2]", false, {3});
  check(c);
  c.source = reduce(op, {2, 3, 4}, "[1]", true, {2, 1, 4});
  check(c);
  c.source = reduce(op, {3, 2, 2}, "[0, 1, 2]", true, {1, 1, 1});
  check(c);
  c.source = reduce(op, {5}, "[0]", false, {});
  check(c);
}

} // namespace

TEST_CASE("rules: matmul") {
  check({.source = binary("matmul", f64({2, 3}), f64({3, 4}), f64({2, 4}))});
  // Batched, with the rhs broadcast over the batch.
  check({.source = binary("matmul", f64({2, 2, 3}), f64({3, 4}),
                          f64({2, 2, 4}))});
  // Both batch shapes broadcast: [3, 1] x [2] -> [3, 2].
  check({.source = binary("matmul", f64({3, 1, 2, 3}), f64({2, 3, 2}),
                          f64({3, 2, 2, 2}))});
  // A unit batch dimension broadcast against 4.
  check({.source = binary("matmul", f64({1, 2, 3}), f64({4, 3, 2}),
                          f64({4, 2, 2}))});
}

TEST_CASE("rules: reduce_sum") { checkReduce("reduce_sum"); }
TEST_CASE("rules: reduce_mean") { checkReduce("reduce_mean"); }
TEST_CASE("rules: reduce_max") { checkReduce("reduce_max"); }

TEST_CASE("rules: reduce_max shares ties equally") {
  std::string src = reduce("reduce_max", {2, 3}, "[1]", false, {2});
  auto x = Tensor::fromDoubles(DType::F64, {2, 3}, {1, 3, 3, 5, 2, 5});
  auto sens = runVjp(src, {x}, {Tensor::fromDoubles(DType::F64, {2}, {2, 4})});
  CHECK(sens[0].tensor().toDoubles() ==
        std::vector<double>{0, 1, 1, 2, 0, 2});
  auto tangent = runJvp(src, {x}, {Tensor::fromDoubles(DType::F64, {2, 3},
                                                       {9, 1, 3, 2, 9, 4})});
  CHECK(tangent[0].tensor().toDoubles() == std::vector<double>{2, 3});
}
