//===- ReductionsTest.cpp - matmul and reductions -------------------------===//

#include "TestUtil.h"

#include <random>

using namespace adjoint;
using namespace adjoint::test;

static std::string shapeType(const std::vector<int64_t> &shape,
                             const std::string &element) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + element + ">";
}

static Tensor randomTensor(std::mt19937 &rng, DType dtype,
                           std::vector<int64_t> shape) {
  std::uniform_real_distribution<double> dist(-2, 2);
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<double> values(n);
  for (double &v : values)
    v = isFloat(dtype) ? dist(rng) : std::round(dist(rng) * 3);
  return tensor(dtype, std::move(shape), values);
}

TEST_CASE("matmul by hand") {
  Program p(R"(
    adj.func @f(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
      %0 = adj.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf32>
      adj.return %0 : tensor<2x2xf32>
    })");
  requireClose(p.run("f", {f32({2, 3}, {1, 2, 3, 4, 5, 6}),
                           f32({3, 2}, {7, 8, 9, 10, 11, 12})}),
               DType::F32, {2, 2}, {58, 64, 139, 154});
}

TEST_CASE("matmul property: batched, broadcast batch dims, every dtype") {
  std::mt19937 rng(42);
  const std::vector<std::pair<std::string, DType>> types = {
      {"f64", DType::F64}, {"f32", DType::F32}, {"f16", DType::F16},
      {"bf16", DType::BF16}, {"i64", DType::I64}, {"i32", DType::I32}};
  for (int trial = 0; trial < 24; ++trial) {
    auto [name, dtype] = types[trial % types.size()];
    std::uniform_int_distribution<int64_t> dim(1, 5);
    int64_t m = dim(rng), k = dim(rng), n = dim(rng);
    // Batch shapes that broadcast: [B1, 1] x [B2] style combinations.
    std::vector<int64_t> aBatch, bBatch;
    switch (trial % 4) {
    case 1:
      aBatch = {dim(rng)};
      bBatch = aBatch;
      break;
    case 2:
      aBatch = {dim(rng), 1};
      bBatch = {dim(rng)};
      break;
    case 3:
      bBatch = {2, dim(rng)};
      break;
    }
    std::vector<int64_t> aShape = aBatch, bShape = bBatch;
    aShape.insert(aShape.end(), {m, k});
    bShape.insert(bShape.end(), {k, n});
    Tensor a = randomTensor(rng, dtype, aShape), b = randomTensor(rng, dtype, bShape);
    // Naive reference: batch shapes padded to rank 2, broadcast by hand.
    size_t rank = std::max(aBatch.size(), bBatch.size());
    auto pad2 = [](std::vector<int64_t> s) {
      s.insert(s.begin(), 2 - s.size(), 1);
      return s;
    };
    std::vector<int64_t> ab = pad2(aBatch), bb = pad2(bBatch);
    int64_t b0 = std::max(ab[0], bb[0]), b1 = std::max(ab[1], bb[1]);
    std::vector<int64_t> outShape = {b0, b1, m, n};
    outShape.erase(outShape.begin(), outShape.begin() + (2 - rank));
    std::vector<double> av = a.toDoubles(), bv = b.toDoubles(), want;
    auto at = [](const std::vector<int64_t> &p2, int64_t i0, int64_t i1) {
      // Linear batch index of (i0, i1) in a padded batch shape.
      return (p2[0] == 1 ? 0 : i0) * p2[1] + (p2[1] == 1 ? 0 : i1);
    };
    for (int64_t i0 = 0; i0 < b0; ++i0)
      for (int64_t i1 = 0; i1 < b1; ++i1) {
        int64_t ia = at(ab, i0, i1), ib = at(bb, i0, i1);
        for (int64_t i = 0; i < m; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (int64_t l = 0; l < k; ++l)
              s += av[ia * m * k + i * k + l] * bv[ib * k * n + l * n + j];
            want.push_back(s);
          }
      }
    std::string at_ = shapeType(aShape, name), bt = shapeType(bShape, name),
                ot = shapeType(outShape, name);
    INFO("trial " << trial << " " << at_ << " x " << bt);
    Program p("adj.func @f(%a: " + at_ + ", %b: " + bt + ") -> " + ot +
              " {\n  %0 = adj.matmul %a, %b : " + at_ + ", " + bt +
              "\n  adj.return %0 : " + ot + "\n}");
    double tol = isFloat(dtype) ? 4 * tolerance(dtype) * k : 0;
    requireClose(p.run("f", {a, b}), dtype, outShape, want, tol);
  }
}

TEST_CASE("reductions: axes, keepdims, sum/max/mean") {
  Program p(R"(
    adj.func @f(%x: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<2x1xf32>, tensor<f32>, tensor<1x1xf32>, tensor<2xf32>) {
      %0 = adj.reduce_sum %x axes = [0] : tensor<2x3xf32>
      %1 = adj.reduce_max %x axes = [1] keepdims : tensor<2x3xf32>
      %2 = adj.reduce_mean %x axes = [0, 1] : tensor<2x3xf32>
      %3 = adj.reduce_sum %x axes = [1, 0] keepdims : tensor<2x3xf32>
      %4 = adj.reduce_mean %x axes = [1] : tensor<2x3xf32>
      adj.return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<2x1xf32>, tensor<f32>, tensor<1x1xf32>, tensor<2xf32>
    }
    adj.func @ints(%x: tensor<2x2xi32>) -> (tensor<2xi32>, tensor<i32>) {
      %0 = adj.reduce_sum %x axes = [1] : tensor<2x2xi32>
      %1 = adj.reduce_max %x axes = [0, 1] : tensor<2x2xi32>
      adj.return %0, %1 : tensor<2xi32>, tensor<i32>
    }
    adj.func @none(%x: tensor<2xf64>) -> tensor<2xf64> {
      %0 = adj.reduce_sum %x axes = [] : tensor<2xf64>
      adj.return %0 : tensor<2xf64>
    })");
  auto r = p.call("f", {f32({2, 3}, {1, 5, 3, -4, 2, 8})});
  requireClose(r[0].tensor(), DType::F32, {3}, {-3, 7, 11});
  requireClose(r[1].tensor(), DType::F32, {2, 1}, {5, 8});
  requireClose(r[2].tensor(), DType::F32, {}, {15.0 / 6});
  requireClose(r[3].tensor(), DType::F32, {1, 1}, {15});
  requireClose(r[4].tensor(), DType::F32, {2}, {3, 2});
  auto q = p.call("ints", {tensor(DType::I32, {2, 2}, {1, -7, 3, 4})});
  requireClose(q[0].tensor(), DType::I32, {2}, {-6, 7});
  requireClose(q[1].tensor(), DType::I32, {}, {4});
  requireClose(p.run("none", {f64({2}, {1, 2})}), DType::F64, {2}, {1, 2});
}

TEST_CASE("reduction property on random shapes") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    std::uniform_int_distribution<int64_t> dim(1, 4);
    std::vector<int64_t> shape = {dim(rng), dim(rng), dim(rng)};
    int64_t axis = trial % 3;
    bool keep = trial % 2;
    Tensor x = randomTensor(rng, DType::F64, shape);
    std::vector<double> v = x.toDoubles();
    std::vector<int64_t> out;
    for (int64_t d = 0; d < 3; ++d)
      if (d != axis || keep)
        out.push_back(d == axis ? 1 : shape[d]);
    std::vector<double> sum, max, mean;
    int64_t s0 = shape[1] * shape[2], s1 = shape[2];
    for (int64_t i = 0; i < (axis == 0 ? 1 : shape[0]); ++i)
      for (int64_t j = 0; j < (axis == 1 ? 1 : shape[1]); ++j)
        for (int64_t l = 0; l < (axis == 2 ? 1 : shape[2]); ++l) {
          double s = 0, m = -INFINITY;
          for (int64_t r = 0; r < shape[axis]; ++r) {
            int64_t idx[3] = {i, j, l};
            idx[axis] = r;
            double e = v[idx[0] * s0 + idx[1] * s1 + idx[2]];
            s += e;
            m = std::max(m, e);
          }
          sum.push_back(s);
          max.push_back(m);
          mean.push_back(s / shape[axis]);
        }
    std::string in = shapeType(shape, "f64"), ot = shapeType(out, "f64");
    std::string attrs = " axes = [" + std::to_string(axis) + "]" +
                        (keep ? " keepdims" : "") + " : " + in;
    Program p("adj.func @f(%x: " + in + ") -> (" + ot + ", " + ot + ", " + ot +
              ") {\n %0 = adj.reduce_sum %x" + attrs +
              "\n %1 = adj.reduce_max %x" + attrs +
              "\n %2 = adj.reduce_mean %x" + attrs + "\n adj.return %0, %1, %2 : " +
              ot + ", " + ot + ", " + ot + "\n}");
    auto r = p.call("f", {x});
    requireClose(r[0].tensor(), DType::F64, out, sum);
    requireClose(r[1].tensor(), DType::F64, out, max);
    requireClose(r[2].tensor(), DType::F64, out, mean);
  }
}
