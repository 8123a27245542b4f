//===- RulesTestMovement.cpp - Rules of shape and data movement -----------===//

#include "RulesTestUtil.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::test::rules;
using interp::Tensor;

namespace {

std::string slice(const std::vector<int64_t> &shape, const std::string &start,
                  const std::string &limit, const std::string &stride,
                  const std::vector<int64_t> &result) {
  return function("%x: " + f64(shape), f64(result),
                  "adj.slice %x start = " + start + " limit = " + limit +
                      " stride = " + stride + " : " + f64(shape));
}

Tensor i64(std::vector<int64_t> shape, std::vector<double> values) {
  return Tensor::fromDoubles(DType::I64, std::move(shape), values);
}

Tensor i32(std::vector<int64_t> shape, std::vector<double> values) {
  return Tensor::fromDoubles(DType::I32, std::move(shape), values);
}

} // namespace

TEST_CASE("rules: broadcast_to") {
  check({.source = function("%x: " + f64({3, 1}), f64({2, 3, 4}),
                            "adj.broadcast_to %x : " + f64({3, 1}) + " to " +
                                f64({2, 3, 4}))});
  check({.source = function("%x: " + f64({}), f64({2, 2}),
                            "adj.broadcast_to %x : " + f64({}) + " to " +
                                f64({2, 2}))});
}

TEST_CASE("rules: reshape") {
  check({.source = function("%x: " + f64({2, 6}), f64({3, 1, 4}),
                            "adj.reshape %x : " + f64({2, 6}) + " to " +
                                f64({3, 1, 4}))});
  check({.source = function("%x: " + f64({1}), f64({}),
                            "adj.reshape %x : " + f64({1}) + " to " +
                                f64({}))});
}

TEST_CASE("rules: transpose") {
  check({.source = function("%x: " + f64({2, 3, 4}), f64({4, 2, 3}),
                            "adj.transpose %x perm = [2, 0, 1] : " +
                                f64({2, 3, 4}))});
  check({.source = function("%x: " + f64({2, 3}), f64({3, 2}),
                            "adj.transpose %x perm = [1, 0] : " +
                                f64({2, 3}))});
}

TEST_CASE("rules: slice") {
  // Strides 2 and 3; the last row read is not the last row.
  check({.source = slice({5, 7}, "[1, 0]", "[5, 7]", "[2, 3]", {2, 3})});
  // The stride runs past the limit: the sensitivity is cropped there.
  check({.source = slice({6}, "[1]", "[6]", "[2]", {3})});
  check({.source = slice({4, 5}, "[1, 2]", "[3, 4]", "[1, 1]", {2, 2})});
  // An empty slice.
  check({.source = slice({4}, "[2]", "[2]", "[1]", {0})});
}

TEST_CASE("rules: concat") {
  check({.source = R"(
    adj.func @f(%a: tensor<2x1xf64>, %b: tensor<2x3xf64>, %c: tensor<2x2xf64>) -> tensor<2x6xf64> {
      %0 = adj.concat %a, %b, %c axis = 1 : tensor<2x1xf64>, tensor<2x3xf64>, tensor<2x2xf64>
      adj.return %0 : tensor<2x6xf64>
    })"});
  check({.source = R"(
    adj.func @f(%a: tensor<3xf64>, %b: tensor<2xf64>) -> tensor<5xf64> {
      %0 = adj.concat %a, %b axis = 0 : tensor<3xf64>, tensor<2xf64>
      adj.return %0 : tensor<5xf64>
    })"});
}

TEST_CASE("rules: pad") {
  check({.source = function("%x: " + f64({2, 3}), f64({3, 5}),
                            "adj.pad %x low = [1, 0] high = [0, 2] value = "
                            "0.5 : " + f64({2, 3}))});
  check({.source = function("%x: " + f64({3}), f64({7}),
                            "adj.pad %x low = [2] high = [2] value = 0.0 : " +
                                f64({3}))});
}

TEST_CASE("rules: gather") {
  // Repeated indices accumulate in the table's sensitivity.
  check({.source = R"(
    adj.func @f(%t: tensor<5x3xf64>, %i: tensor<2x2xi64>) -> tensor<2x2x3xf64> {
      %0 = adj.gather %t[%i] axis = 0 : tensor<5x3xf64>, tensor<2x2xi64>
      adj.return %0 : tensor<2x2x3xf64>
    })",
         .fixed = {{1, i64({2, 2}, {4, 0, 4, 2})}}});
  check({.source = R"(
    adj.func @f(%t: tensor<2x5x3xf64>, %i: tensor<4xi64>) -> tensor<2x4x3xf64> {
      %0 = adj.gather %t[%i] axis = 1 : tensor<2x5x3xf64>, tensor<4xi64>
      adj.return %0 : tensor<2x4x3xf64>
    })",
         .fixed = {{1, i64({4}, {1, 1, 3, 0})}}});
}

TEST_CASE("rules: scatter_add") {
  check({.source = R"(
    adj.func @f(%t: tensor<5x3xf64>, %i: tensor<4xi64>, %u: tensor<4x3xf64>) -> tensor<5x3xf64> {
      %0 = adj.scatter_add %t[%i], %u axis = 0 : tensor<5x3xf64>, tensor<4xi64>, tensor<4x3xf64>
      adj.return %0 : tensor<5x3xf64>
    })",
         .fixed = {{1, i64({4}, {2, 0, 2, 4})}}});
  check({.source = R"(
    adj.func @f(%t: tensor<2x4xf64>, %i: tensor<3xi64>, %u: tensor<2x3xf64>) -> tensor<2x4xf64> {
      %0 = adj.scatter_add %t[%i], %u axis = 1 : tensor<2x4xf64>, tensor<3xi64>, tensor<2x3xf64>
      adj.return %0 : tensor<2x4xf64>
    })",
         .fixed = {{1, i64({3}, {3, 3, 1})}}});
}

TEST_CASE("rules: scatter set") {
  // Index 2 repeats: only its last update lands, so the first one gets no
  // sensitivity and slot 2 of the target none either.
  check({.source = R"(
    adj.func @f(%t: tensor<5x3xf64>, %i: tensor<4xi64>, %u: tensor<4x3xf64>) -> tensor<5x3xf64> {
      %0 = adj.scatter set %t[%i], %u axis = 0 : tensor<5x3xf64>, tensor<4xi64>, tensor<4x3xf64>
      adj.return %0 : tensor<5x3xf64>
    })",
         .fixed = {{1, i64({4}, {2, 0, 2, 4})}}});
  check({.source = R"(
    adj.func @f(%t: tensor<2x4xf64>, %i: tensor<3xi32>, %u: tensor<2x3xf64>) -> tensor<2x4xf64> {
      %0 = adj.scatter set %t[%i], %u axis = 1 : tensor<2x4xf64>, tensor<3xi32>, tensor<2x3xf64>
      adj.return %0 : tensor<2x4xf64>
    })",
         .fixed = {{1, i32({3}, {3, 3, 1})}}});
}

TEST_CASE("rules: scatter mul, min and max") {
  // mul is exact for distinct indices; min and max also with repeated ones.
  check({.source = R"(
    adj.func @f(%t: tensor<5x3xf64>, %i: tensor<2x2xi64>, %u: tensor<2x2x3xf64>) -> tensor<5x3xf64> {
      %0 = adj.scatter mul %t[%i], %u axis = 0 : tensor<5x3xf64>, tensor<2x2xi64>, tensor<2x2x3xf64>
      adj.return %0 : tensor<5x3xf64>
    })",
         .fixed = {{1, i64({2, 2}, {4, 0, 1, 3})}}});
  for (const char *mode : {"min", "max"})
    check({.source = std::string(R"(
    adj.func @f(%t: tensor<2x4xf64>, %i: tensor<3xi64>, %u: tensor<2x3xf64>) -> tensor<2x4xf64> {
      %0 = adj.scatter )") + mode + R"( %t[%i], %u axis = 1 : tensor<2x4xf64>, tensor<3xi64>, tensor<2x3xf64>
      adj.return %0 : tensor<2x4xf64>
    })",
           .fixed = {{1, i64({3}, {3, 3, 1})}}});
}
