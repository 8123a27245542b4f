//===- SizesTest.cpp - Overflow-checked sizes and saturating casts --------===//
//
// The runtime's side of "no wrapped size, no undefined conversion, no stack
// overflow": shapes whose size does not fit are errors, float -> int
// conversions saturate like adj.cast, and the recursion guard of compiled
// code fails the call instead of letting the stack overflow.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Signature.h"
#include "adjoint/Runtime/Tensor.h"
#include "adjoint/Support/CheckedSize.h"
#include "adjoint/Support/Error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

using namespace adjoint;
using namespace adjoint::rt;

namespace {
constexpr int64_t kTwo32 = int64_t(1) << 32;
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
} // namespace

TEST_CASE("checked element counts and byte sizes") {
  using Dims = std::vector<int64_t>;
  CHECK(checkedNumElements(Dims{}) == 1);
  CHECK(checkedNumElements(Dims{2, 3, 4}) == 24);
  CHECK(checkedNumElements(Dims{kTwo32, kTwo32 / 2 - 1}).has_value());
  CHECK_FALSE(checkedNumElements(Dims{kTwo32, kTwo32}).has_value());
  CHECK_FALSE(checkedNumElements(Dims{kMax64, 2}).has_value());
  CHECK_FALSE(checkedNumElements(Dims{3, -1}).has_value());
  // A zero anywhere makes the count 0, even after an overflow.
  CHECK(checkedNumElements(Dims{kTwo32, kTwo32, 0}) == 0);
  CHECK(checkedTensorBytes(Dims{kMax64 / 8}, 8) == kMax64 / 8 * 8);
  CHECK_FALSE(checkedTensorBytes(Dims{kMax64 / 8 + 1}, 8).has_value());
  CHECK_FALSE(checkedByteSize(-1, 4).has_value());
}

TEST_CASE("float to int conversions saturate with NaN as 0") {
  double nan = std::nan(""), inf = INFINITY;
  CHECK(saturatingFloatToInt<int32_t>(nan) == 0);
  CHECK(saturatingFloatToInt<int32_t>(inf) == INT32_MAX);
  CHECK(saturatingFloatToInt<int32_t>(-inf) == INT32_MIN);
  CHECK(saturatingFloatToInt<int32_t>(2147483647.9) == INT32_MAX);
  CHECK(saturatingFloatToInt<int32_t>(2147483648.0) == INT32_MAX);
  CHECK(saturatingFloatToInt<int32_t>(-2147483648.9) == INT32_MIN);
  CHECK(saturatingFloatToInt<int32_t>(-2.75) == -2);
  CHECK(saturatingFloatToInt<int64_t>(0x1p63) == kMax64);
  CHECK(saturatingFloatToInt<int64_t>(-0x1p63) == kMin64);
  CHECK(saturatingFloatToInt<int64_t>(0x1p62) == int64_t(1) << 62);

  // Tensor::fromDoubles converts as adj.cast does (it used static_cast).
  Tensor i32 = Tensor::fromDoubles(DType::I32, {4}, {1e30, -1e30, nan, 7.9});
  CHECK(i32.data<int32_t>()[0] == INT32_MAX);
  CHECK(i32.data<int32_t>()[1] == INT32_MIN);
  CHECK(i32.data<int32_t>()[2] == 0);
  CHECK(i32.data<int32_t>()[3] == 7);
  Tensor i64 = Tensor::fromDoubles(DType::I64, {3}, {1e30, -inf, nan});
  CHECK(i64.data<int64_t>()[0] == kMax64);
  CHECK(i64.data<int64_t>()[1] == kMin64);
  CHECK(i64.data<int64_t>()[2] == 0);
}

TEST_CASE("tensors whose size does not fit are errors") {
  // 2^64 elements would count as 0 (and 2^62 f32 elements as 0 bytes).
  CHECK_THROWS_AS(Tensor::allocate(DType::F32, {kTwo32, kTwo32}), Error);
  CHECK_THROWS_AS(Tensor::allocate(DType::F32, {int64_t(1) << 62}), Error);
  CHECK_THROWS_WITH(
      Tensor::borrow(DType::F64, {kTwo32, kTwo32}, nullptr),
      Catch::Contains("tensor<4294967296x4294967296xf64> is too large"));
  CHECK_THROWS_AS(Tensor::adopt(DType::I1, {kTwo32, kTwo32}, nullptr, nullptr),
                  Error);
  // Representable but far beyond any memory: an out-of-memory error.
  CHECK_THROWS_WITH(Tensor::allocate(DType::F32, {int64_t(1) << 60}),
                    Catch::Contains("out of memory"));
  // A signature cannot promise such a tensor either.
  CHECK(Signature::parse("f32[2,3] -> f32[4294967296,4294967296]") ==
        std::nullopt);
  CHECK(Signature::parse("f32[2,3] -> f32[4294967296,536870911]")
            .has_value());
}

namespace {

int gLevels = 0;

/// Plays a compiled recursive function that recurses `gLevels` deep, or
/// forever when gLevels < 0 (the guard must stop it).
void recurse(int level) {
  adj_rt_enter_recursive("recurse");
  if (gLevels < 0 || level < gLevels)
    recurse(level + 1);
  adj_rt_leave_recursive();
}

void recursiveEntry(void **) { recurse(0); }

} // namespace

TEST_CASE("the recursion guard fails the call at the depth limit") {
  Signature sig;
  std::vector<Tensor> outputs;
  int64_t before = maxCallDepth();
  setMaxCallDepth(100);

  gLevels = 99;
  CHECK(invoke(recursiveEntry, sig, {}, outputs).ok());

  gLevels = -1;
  Status status = invoke(recursiveEntry, sig, {}, outputs);
  CHECK(status.code() == StatusCode::ResourceExhausted);
  CHECK(status.message() ==
        "call depth limit of 100 exceeded in @recurse (compiled code)");

  // The jump skipped 100 leaves: invoke() restored the depth, so a call
  // just under the limit still runs.
  gLevels = 99;
  CHECK(invoke(recursiveEntry, sig, {}, outputs).ok());

  // Without a depth limit the stack check stops it, well before the end.
  setMaxCallDepth(kMax64);
  gLevels = -1;
  status = invoke(recursiveEntry, sig, {}, outputs);
  CHECK(status.code() == StatusCode::ResourceExhausted);
  CHECK_THAT(status.message(),
             Catch::StartsWith("the stack is exhausted at call depth "));
  setMaxCallDepth(before);
}
