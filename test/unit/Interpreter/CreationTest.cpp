//===- CreationTest.cpp - constant, fill, iota and seeded input data ------===//

#include "TestUtil.h"

#include <cstring>

using namespace adjoint;
using namespace adjoint::test;

TEST_CASE("constant, fill and iota in several dtypes") {
  Program p(R"(
    adj.func @f() -> (tensor<2xf16>, tensor<2x2xi1>, tensor<3xbf16>, tensor<2x3xi32>, tensor<2x3xf64>, tensor<2xi64>) {
      %0 = adj.constant dense<[1.5, -2.0]> : tensor<2xf16>
      %1 = adj.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
      %2 = adj.fill 0.5 : tensor<3xbf16>
      %3 = adj.iota axis = 1 : tensor<2x3xi32>
      %4 = adj.iota axis = 0 : tensor<2x3xf64>
      %5 = adj.constant dense<9007199254740993> : tensor<2xi64>
      adj.return %0, %1, %2, %3, %4, %5 : tensor<2xf16>, tensor<2x2xi1>, tensor<3xbf16>, tensor<2x3xi32>, tensor<2x3xf64>, tensor<2xi64>
    })");
  auto r = p.call("f");
  requireClose(r[0].tensor(), DType::F16, {2}, {1.5, -2});
  requireClose(r[1].tensor(), DType::I1, {2, 2}, {1, 0, 0, 1});
  requireClose(r[2].tensor(), DType::BF16, {3}, {0.5, 0.5, 0.5});
  requireClose(r[3].tensor(), DType::I32, {2, 3}, {0, 1, 2, 0, 1, 2});
  requireClose(r[4].tensor(), DType::F64, {2, 3}, {0, 0, 0, 1, 1, 1});
  // Integers are exact, not rounded through double.
  int64_t big[2];
  std::memcpy(big, r[5].tensor().data(), sizeof big);
  CHECK(big[0] == 9007199254740993LL);
  CHECK(big[1] == 9007199254740993LL);
}

static uint64_t splitmix(uint64_t seed, uint64_t k) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + k + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static double u01(uint64_t seed, uint64_t k) {
  return static_cast<double>(splitmix(seed, k) >> 11) * 0x1p-53;
}

TEST_CASE("seeded input data: exact bits, determinism, moments") {
  // ir-run's rand:/randn: arguments and the test suites draw these; no op
  // does (programs use keys).
  std::vector<double> a =
      interp::randomUniform(DType::F64, {100000}, 7, -1, 3).toDoubles();
  std::vector<double> b =
      interp::randomUniform(DType::F64, {100000}, 7, -1, 3).toDoubles();
  std::vector<double> c =
      interp::randomUniform(DType::F64, {100000}, 8, -1, 3).toDoubles();
  CHECK(a == b);
  CHECK(a != c);
  // The exact formula for a couple of elements.
  for (uint64_t i : {0ull, 1ull, 99999ull})
    CHECK(a[i] == -1.0 + 4.0 * u01(7, i));
  double mean = 0, var = 0;
  for (double v : a) {
    CHECK(v >= -1.0);
    CHECK(v < 3.0);
    mean += v / a.size();
  }
  for (double v : a)
    var += (v - mean) * (v - mean) / a.size();
  CHECK(std::fabs(mean - 1.0) < 0.02);
  CHECK(std::fabs(var - 16.0 / 12) < 0.03);

  std::vector<double> n =
      interp::randomNormal(DType::F64, {100000}, 7, 2.0, 0.5).toDoubles();
  for (uint64_t i : {0ull, 5ull}) {
    double want = 2.0 + 0.5 * std::sqrt(-2 * std::log(1 - u01(7, 2 * i))) *
                            std::cos(2 * M_PI * u01(7, 2 * i + 1));
    CHECK(n[i] == want);
  }
  mean = 0, var = 0;
  for (double v : n)
    mean += v / n.size();
  for (double v : n)
    var += (v - mean) * (v - mean) / n.size();
  CHECK(std::fabs(mean - 2.0) < 0.01);
  CHECK(std::fabs(std::sqrt(var) - 0.5) < 0.01);

  // Narrower types round the same numbers; seeds may be negative.
  interp::Tensor u = interp::randomUniform(DType::F32, {2, 2}, -3, 0, 1);
  interp::Tensor h = interp::randomNormal(DType::F16, {3}, -3, 0, 1);
  auto s = static_cast<uint64_t>(int64_t(-3));
  requireClose(u, DType::F32, {2, 2},
               {u01(s, 0), u01(s, 1), u01(s, 2), u01(s, 3)}, 1e-7);
  double n0 = std::sqrt(-2 * std::log(1 - u01(s, 0))) *
              std::cos(2 * M_PI * u01(s, 1));
  CHECK(h.dtype() == DType::F16);
  CHECK(std::fabs(h.at(0) - n0) <= 2e-3 * (1 + std::fabs(n0)));
}

TEST_CASE("tensors too large to represent or to allocate are errors") {
  constexpr int64_t kTwo32 = int64_t(1) << 32;
  // 2^64 elements used to wrap to an empty tensor.
  CHECK_THROWS_WITH(
      interp::Tensor(DType::F32, {kTwo32, kTwo32}),
      Catch::Contains("tensor<4294967296x4294967296xf32> is too large"));
  // 2^62 bytes fit in int64_t but in no memory: an adjoint::Error, not a
  // std::length_error or an abort in LLVM's out-of-memory handler.
  CHECK_THROWS_WITH(interp::Tensor(DType::F32, {int64_t(1) << 60}),
                    Catch::Contains("out of memory: 4611686018427387904 "
                                    "bytes for tensor<1152921504606846976xf32>"));

  // A kernel's allocation names its op and location.
  Program p(R"(
    adj.func @f() -> tensor<1x4x18014398509481984x4xf32> {
      %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
      %r = adj.max_pool2d %in kernel = [6, 2] stride = [1, 1] padding = [0, 18014398509481984, 0, 0] : tensor<1x4x5x5xf32>
      adj.return %r : tensor<1x4x18014398509481984x4xf32>
    })");
  CHECK_THROWS_WITH(p.call("f"),
                    Catch::Contains("test.mlir:4:12: adj.max_pool2d: out of "
                                    "memory: 1152921504606846976 bytes"));
}
