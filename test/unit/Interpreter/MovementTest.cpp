//===- MovementTest.cpp - Shape and data movement primitives --------------===//

#include "TestUtil.h"

using namespace adjoint;
using namespace adjoint::test;

TEST_CASE("broadcast_to, reshape and transpose") {
  Program p(R"(
    adj.func @f(%x: tensor<3x1xi32>) -> (tensor<2x3x2xi32>, tensor<1x3xi32>, tensor<1x3xi32>) {
      %0 = adj.broadcast_to %x : tensor<3x1xi32> to tensor<2x3x2xi32>
      %1 = adj.reshape %x : tensor<3x1xi32> to tensor<1x3xi32>
      %2 = adj.transpose %x perm = [1, 0] : tensor<3x1xi32>
      adj.return %0, %1, %2 : tensor<2x3x2xi32>, tensor<1x3xi32>, tensor<1x3xi32>
    }
    adj.func @t(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
      %0 = adj.transpose %x perm = [2, 0, 1] : tensor<2x3x4xf32>
      adj.return %0 : tensor<4x2x3xf32>
    }
    adj.func @dyn(%x: tensor<6xf32>) -> tensor<?x2xf32> {
      %0 = adj.reshape %x : tensor<6xf32> to tensor<?x2xf32>
      adj.return %0 : tensor<?x2xf32>
    })");
  auto r = p.call("f", {tensor(DType::I32, {3, 1}, {1, 2, 3})});
  requireClose(r[0].tensor(), DType::I32, {2, 3, 2},
               {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
  requireClose(r[1].tensor(), DType::I32, {1, 3}, {1, 2, 3});
  requireClose(r[2].tensor(), DType::I32, {1, 3}, {1, 2, 3});
  std::vector<double> in(24), want;
  for (int i = 0; i < 24; ++i)
    in[i] = i;
  for (int l = 0; l < 4; ++l)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        want.push_back(i * 12 + j * 4 + l);
  requireClose(p.run("t", {f32({2, 3, 4}, in)}), DType::F32, {4, 2, 3}, want);
  requireClose(p.run("dyn", {f32({6}, {1, 2, 3, 4, 5, 6})}), DType::F32, {3, 2},
               {1, 2, 3, 4, 5, 6});
}

TEST_CASE("slice, concat and pad") {
  Program p(R"(
    adj.func @f(%x: tensor<3x4xf32>) -> (tensor<2x2xf32>, tensor<3x6xf32>, tensor<4x7xf32>) {
      %0 = adj.slice %x start = [1, 0] limit = [3, 4] stride = [1, 2] : tensor<3x4xf32>
      %s = adj.slice %x start = [0, 2] limit = [3, 4] stride = [1, 1] : tensor<3x4xf32>
      %1 = adj.concat %x, %s axis = 1 : tensor<3x4xf32>, tensor<3x2xf32>
      %2 = adj.pad %x low = [1, 2] high = [0, 1] value = -1.0 : tensor<3x4xf32>
      adj.return %0, %1, %2 : tensor<2x2xf32>, tensor<3x6xf32>, tensor<4x7xf32>
    }
    adj.func @c0(%a: tensor<1x2xi64>, %b: tensor<2x2xi64>) -> tensor<3x2xi64> {
      %0 = adj.concat %a, %b axis = 0 : tensor<1x2xi64>, tensor<2x2xi64>
      adj.return %0 : tensor<3x2xi64>
    })");
  auto r = p.call("f", {f32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})});
  requireClose(r[0].tensor(), DType::F32, {2, 2}, {4, 6, 8, 10});
  requireClose(r[1].tensor(), DType::F32, {3, 6},
               {0, 1, 2, 3, 2, 3, 4, 5, 6, 7, 6, 7, 8, 9, 10, 11, 10, 11});
  requireClose(r[2].tensor(), DType::F32, {4, 7},
               {-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, -1,
                -1, -1, 4,  5,  6,  7,  -1, -1, -1, 8, 9, 10, 11, -1});
  requireClose(p.run("c0", {i64({1, 2}, {1, 2}), i64({2, 2}, {3, 4, 5, 6})}),
               DType::I64, {3, 2}, {1, 2, 3, 4, 5, 6});
}

TEST_CASE("gather along an axis") {
  Program p(R"(
    adj.func @f(%t: tensor<4x2xf32>, %i: tensor<3xi64>) -> tensor<3x2xf32> {
      %0 = adj.gather %t[%i] axis = 0 : tensor<4x2xf32>, tensor<3xi64>
      adj.return %0 : tensor<3x2xf32>
    }
    adj.func @g(%t: tensor<2x3xf32>, %i: tensor<2x2xi32>) -> tensor<2x2x2xf32> {
      %0 = adj.gather %t[%i] axis = 1 : tensor<2x3xf32>, tensor<2x2xi32>
      adj.return %0 : tensor<2x2x2xf32>
    })");
  requireClose(p.run("f", {f32({4, 2}, {0, 1, 10, 11, 20, 21, 30, 31}),
                           i64({3}, {3, 0, 3})}),
               DType::F32, {3, 2}, {30, 31, 0, 1, 30, 31});
  requireClose(p.run("g", {f32({2, 3}, {0, 1, 2, 10, 11, 12}),
                           tensor(DType::I32, {2, 2}, {2, 0, 1, 1})}),
               DType::F32, {2, 2, 2}, {2, 0, 1, 1, 12, 10, 11, 11});
  requireError([&] {
    p.run("f", {f32({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), i64({3}, {0, 4, 1})});
  }, {"test.mlir:3:", "adj.gather", "index 4", "[0, 4)"});
  requireError([&] {
    p.run("f", {f32({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), i64({3}, {0, -1, 1})});
  }, {"test.mlir:3:", "adj.gather", "index -1"});
}

TEST_CASE("scatter_add accumulates repeated indices") {
  Program p(R"(
    adj.func @f(%t: tensor<3x2xf32>, %i: tensor<4xi64>, %u: tensor<4x2xf32>) -> tensor<3x2xf32> {
      %0 = adj.scatter_add %t[%i], %u axis = 0 : tensor<3x2xf32>, tensor<4xi64>, tensor<4x2xf32>
      adj.return %0 : tensor<3x2xf32>
    }
    adj.func @g(%t: tensor<2x3xi32>, %i: tensor<2xi32>, %u: tensor<2x2xi32>) -> tensor<2x3xi32> {
      %0 = adj.scatter_add %t[%i], %u axis = 1 : tensor<2x3xi32>, tensor<2xi32>, tensor<2x2xi32>
      adj.return %0 : tensor<2x3xi32>
    })");
  Tensor target = f32({3, 2}, {1, 1, 1, 1, 1, 1});
  requireClose(p.run("f", {target, i64({4}, {2, 0, 2, 2}),
                           f32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}),
               DType::F32, {3, 2}, {4, 5, 1, 1, 14, 17});
  // The input is unchanged (values are immutable).
  requireClose(target, DType::F32, {3, 2}, {1, 1, 1, 1, 1, 1});
  requireClose(p.run("g", {tensor(DType::I32, {2, 3}, {0, 0, 0, 0, 0, 0}),
                           tensor(DType::I32, {2}, {1, 1}),
                           tensor(DType::I32, {2, 2}, {1, 2, 3, 4})}),
               DType::I32, {2, 3}, {0, 3, 0, 0, 7, 0});
  requireError([&] {
    p.run("f", {target, i64({4}, {0, 1, 3, 0}), f32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8})});
  }, {"test.mlir:3:", "adj.scatter_add", "index 3", "out of range"});
}
