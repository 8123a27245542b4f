//===- ClosuresTest.cpp - Boxes and environments of compiled code ---------===//
//
// The C ABI of include/adjoint/Runtime/Closures.h called directly, as
// lowered code calls it: tensor copies in and out, environments (absent
// keys, key-wise sums for every element type, nesting), the arena's mark
// and release, and allocation failures against the memory pool's limit
// inside invoke() (with hand-written "compiled code", as in InvokeTest).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Closures.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/Tensor.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace adjoint;

namespace {

intptr_t addr(const void *p) { return reinterpret_cast<intptr_t>(p); }

/// A one-slot tuple holding `values` as a tensor of `dtype`.
template <typename T>
void *tensorTuple(int64_t dtype, const std::vector<T> &values) {
  void *t = adj_rt_tuple_new(1);
  adj_rt_tuple_put_tensor(t, 0, dtype, addr(values.data()),
                          static_cast<int64_t>(values.size() * sizeof(T)));
  return t;
}

/// The tensor in slot 0 of the tuple under `key`.
template <typename T>
std::vector<T> read(void *env, int64_t key, size_t n) {
  std::vector<T> out(n);
  adj_rt_tuple_get_tensor(adj_rt_env_get(env, key), 0, addr(out.data()),
                          static_cast<int64_t>(n * sizeof(T)));
  return out;
}

/// A fresh arena for each test.
struct Arena {
  Arena() { adj_rt_release_all(); }
  ~Arena() { adj_rt_release_all(); }
};

} // namespace

TEST_CASE("tuples copy tensors in and out", "[runtime][closures]") {
  Arena arena;
  std::vector<float> x{1.5f, -2.0f, 4.0f};
  void *t = adj_rt_tuple_new(3);
  adj_rt_tuple_put_tensor(t, 0, ADJ_RT_F32, addr(x.data()), 12);
  adj_rt_tuple_put_fn(t, 1, 7, t);
  void *env = adj_rt_env_set(nullptr, 3, t);
  adj_rt_tuple_put_env(t, 2, env);
  // The box holds a copy: changing the source changes nothing.
  x[0] = 100.0f;
  std::vector<float> out(3);
  adj_rt_tuple_get_tensor(t, 0, addr(out.data()), 12);
  CHECK(out == std::vector<float>{1.5f, -2.0f, 4.0f});
  CHECK(adj_rt_tuple_get_fn_tag(t, 1) == 7);
  CHECK(adj_rt_tuple_get_fn_box(t, 1) == t);
  CHECK(adj_rt_tuple_get_env(t, 2) == env);
  // A null tuple (an absent environment key) reads as zeros.
  adj_rt_tuple_get_tensor(nullptr, 0, addr(out.data()), 12);
  CHECK(out == std::vector<float>{0.0f, 0.0f, 0.0f});
  CHECK(adj_rt_tuple_get_env(nullptr, 0) == nullptr);
  CHECK(adj_rt_tuple_get_fn_tag(nullptr, 0) == 0);
}

TEST_CASE("environments are persistent maps", "[runtime][closures]") {
  Arena arena;
  void *e1 = adj_rt_env_set(nullptr, 2, tensorTuple<double>(ADJ_RT_F64, {1}));
  void *e2 = adj_rt_env_set(e1, 1, tensorTuple<double>(ADJ_RT_F64, {2}));
  void *e3 = adj_rt_env_set(e2, 2, tensorTuple<double>(ADJ_RT_F64, {3}));
  CHECK(read<double>(e1, 2, 1)[0] == 1);
  CHECK(adj_rt_env_get(e1, 1) == nullptr);
  CHECK(read<double>(e2, 1, 1)[0] == 2);
  CHECK(read<double>(e3, 2, 1)[0] == 3);
  CHECK(read<double>(e3, 9, 1)[0] == 0);
  CHECK(adj_rt_env_get(nullptr, 2) == nullptr);
}

TEST_CASE("env_add adds key-wise for every element type",
          "[runtime][closures]") {
  Arena arena;
  using rt::floatToBFloat16;
  using rt::floatToHalf;
  void *a = nullptr, *b = nullptr;
  a = adj_rt_env_set(a, 1, tensorTuple<double>(ADJ_RT_F64, {1.5, -2}));
  b = adj_rt_env_set(b, 1, tensorTuple<double>(ADJ_RT_F64, {0.25, 2}));
  a = adj_rt_env_set(a, 2, tensorTuple<float>(ADJ_RT_F32, {1.5f}));
  b = adj_rt_env_set(b, 2, tensorTuple<float>(ADJ_RT_F32, {2.0f}));
  a = adj_rt_env_set(
      a, 3, tensorTuple<uint16_t>(ADJ_RT_F16, {floatToHalf(1.5f)}));
  b = adj_rt_env_set(
      b, 3, tensorTuple<uint16_t>(ADJ_RT_F16, {floatToHalf(0.25f)}));
  a = adj_rt_env_set(
      a, 4, tensorTuple<uint16_t>(ADJ_RT_BF16, {floatToBFloat16(3.0f)}));
  b = adj_rt_env_set(
      b, 4, tensorTuple<uint16_t>(ADJ_RT_BF16, {floatToBFloat16(-1.0f)}));
  a = adj_rt_env_set(a, 5, tensorTuple<int64_t>(ADJ_RT_I64, {INT64_MAX}));
  b = adj_rt_env_set(b, 5, tensorTuple<int64_t>(ADJ_RT_I64, {1}));
  a = adj_rt_env_set(a, 6, tensorTuple<int32_t>(ADJ_RT_I32, {7, -3}));
  b = adj_rt_env_set(b, 6, tensorTuple<int32_t>(ADJ_RT_I32, {5, 3}));
  a = adj_rt_env_set(a, 7, tensorTuple<uint8_t>(ADJ_RT_I1, {1, 0, 0}));
  b = adj_rt_env_set(b, 7, tensorTuple<uint8_t>(ADJ_RT_I1, {1, 0, 1}));
  // Keys on one side only are kept.
  a = adj_rt_env_set(a, 8, tensorTuple<double>(ADJ_RT_F64, {8}));
  b = adj_rt_env_set(b, 9, tensorTuple<double>(ADJ_RT_F64, {9}));

  void *sum = adj_rt_env_add(a, b);
  CHECK(read<double>(sum, 1, 2) == std::vector<double>{1.75, 0});
  CHECK(read<float>(sum, 2, 1)[0] == 3.5f);
  CHECK(rt::halfToFloat(read<uint16_t>(sum, 3, 1)[0]) == 1.75f);
  CHECK(rt::bfloat16ToFloat(read<uint16_t>(sum, 4, 1)[0]) == 2.0f);
  CHECK(read<int64_t>(sum, 5, 1)[0] == INT64_MIN); // wraps around
  CHECK(read<int32_t>(sum, 6, 2) == std::vector<int32_t>{12, 0});
  CHECK(read<uint8_t>(sum, 7, 3) == std::vector<uint8_t>{1, 0, 1});
  CHECK(read<double>(sum, 8, 1)[0] == 8);
  CHECK(read<double>(sum, 9, 1)[0] == 9);
  // The operands are unchanged, and the empty environment adds nothing.
  CHECK(read<double>(a, 1, 2) == std::vector<double>{1.5, -2});
  CHECK(adj_rt_env_add(a, nullptr) == a);
  CHECK(adj_rt_env_add(nullptr, b) == b);
}

TEST_CASE("env_add recurses into nested environments and tuples",
          "[runtime][closures]") {
  Arena arena;
  void *innerA =
      adj_rt_env_set(nullptr, 7, tensorTuple<double>(ADJ_RT_F64, {2}));
  void *innerB =
      adj_rt_env_set(nullptr, 7, tensorTuple<double>(ADJ_RT_F64, {3}));
  // Key 1 holds the tuple (tensor, env) on both sides.
  double one = 1, ten = 10;
  void *ta = adj_rt_tuple_new(2);
  adj_rt_tuple_put_tensor(ta, 0, ADJ_RT_F64, addr(&one), 8);
  adj_rt_tuple_put_env(ta, 1, innerA);
  void *tb = adj_rt_tuple_new(2);
  adj_rt_tuple_put_tensor(tb, 0, ADJ_RT_F64, addr(&ten), 8);
  adj_rt_tuple_put_env(tb, 1, innerB);
  void *sum = adj_rt_env_add(adj_rt_env_set(nullptr, 1, ta),
                             adj_rt_env_set(nullptr, 1, tb));
  void *entry = adj_rt_env_get(sum, 1);
  double out = 0;
  adj_rt_tuple_get_tensor(entry, 0, addr(&out), 8);
  CHECK(out == 11);
  CHECK(read<double>(adj_rt_tuple_get_env(entry, 1), 7, 1)[0] == 5);
}

TEST_CASE("release frees what was made since the mark",
          "[runtime][closures]") {
  Arena arena;
  void *kept =
      adj_rt_env_set(nullptr, 1, tensorTuple<double>(ADJ_RT_F64, {4}));
  int64_t before = adj_rt_live_objects();
  int64_t mark = adj_rt_mark();
  CHECK(mark == before);
  for (int i = 0; i < 100; ++i)
    adj_rt_env_add(kept, kept);
  CHECK(adj_rt_live_objects() > before);
  adj_rt_release(mark);
  CHECK(adj_rt_live_objects() == before);
  CHECK(read<double>(kept, 1, 1)[0] == 4);
  adj_rt_release_all();
  CHECK(adj_rt_live_objects() == 0);
}

namespace {

/// Plays compiled code that keeps a chain of closures: each step boxes a
/// 4 KiB tensor, binds it in a new environment and sums environments, far
/// past a small pool limit. Returns x unchanged (copied by invoke()).
void boxesWithoutEnd(void **args) {
  static std::vector<float> payload(1024, 1.0f);
  void *env = nullptr;
  for (int i = 0; i < 4096; ++i) {
    void *box = tensorTuple<float>(ADJ_RT_F32, payload);
    void *step = adj_rt_env_set(nullptr, i % 3, box);
    env = adj_rt_env_add(env, step);
  }
  std::memcpy(args[0], args[1], 5 * sizeof(int64_t));
}

/// The same few boxes with no release at the end, as a public function
/// returning function values would leave them.
void boxesLeftBehind(void **args) {
  for (int i = 0; i < 3; ++i)
    tensorTuple<double>(ADJ_RT_F64, {double(i)});
  std::memcpy(args[0], args[1], 5 * sizeof(int64_t));
}

rt::Signature vectorIdentity() {
  rt::Signature sig;
  sig.inputs = {{DType::F32, {4}}};
  sig.outputs = {{DType::F32, {4}}};
  return sig;
}

} // namespace

TEST_CASE("closure objects are pool memory", "[runtime][closures]") {
  Arena arena;
  rt::MemoryPool &pool = rt::MemoryPool::global();
  uint64_t before = pool.stats().bytesInUse;
  std::vector<float> x(1024, 2.0f);
  void *t = tensorTuple<float>(ADJ_RT_F32, x);
  adj_rt_env_set(nullptr, 1, t);
  CHECK(pool.stats().bytesInUse >= before + 4096);
  adj_rt_release_all();
  CHECK(pool.stats().bytesInUse == before);
}

TEST_CASE("outside invoke() closure objects go past the pool's limit",
          "[runtime][closures]") {
  // Code run without invoke() has no status to fail with.
  Arena arena;
  rt::MemoryPool &pool = rt::MemoryPool::global();
  pool.trim();
  uint64_t before = pool.stats().bytesInUse;
  pool.setByteLimit(before + 1024);
  std::vector<float> x(1024, 2.0f);
  void *t = tensorTuple<float>(ADJ_RT_F32, x);
  pool.setByteLimit(0);
  std::vector<float> out(1024);
  adj_rt_tuple_get_tensor(t, 0, addr(out.data()), 4096);
  CHECK(out == x);
  adj_rt_release_all();
  CHECK(pool.stats().bytesInUse == before);
}

TEST_CASE("an allocation failure in the closure runtime is a status of the "
          "call, and leaks nothing",
          "[runtime][closures]") {
  Arena arena;
  rt::MemoryPool &pool = rt::MemoryPool::global();
  // Objects of the host made before the call stay.
  void *kept = tensorTuple<double>(ADJ_RT_F64, {7.0});
  void *keptEnv = adj_rt_env_set(nullptr, 4, kept);
  int64_t liveBefore = adj_rt_live_objects();
  rt::Tensor x = rt::Tensor::fromDoubles(DType::F32, {4}, {1, 2, 3, 4});
  pool.trim();
  rt::PoolStats before = pool.stats();
  pool.setByteLimit(before.bytesInUse + (256 << 10));
  std::vector<rt::Tensor> outputs;
  rt::Status status =
      rt::invoke(&boxesWithoutEnd, vectorIdentity(), {x}, outputs);
  pool.setByteLimit(0);
  REQUIRE(status.code() == rt::StatusCode::OutOfMemory);
  REQUIRE(status.message().find("the closure runtime could not allocate") !=
          std::string::npos);
  REQUIRE(outputs.empty());
  REQUIRE(adj_rt_live_objects() == liveBefore);
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
  REQUIRE(pool.stats().bytesInUse == before.bytesInUse);
  CHECK(read<double>(keptEnv, 4, 1)[0] == 7.0);

  // Without the limit the same call completes; what it leaves in the arena
  // is released as well.
  REQUIRE(rt::invoke(&boxesWithoutEnd, vectorIdentity(), {x}, outputs).ok());
  REQUIRE(outputs[0].toDoubles() == std::vector<double>{1, 2, 3, 4});
  REQUIRE(rt::invoke(&boxesLeftBehind, vectorIdentity(), {x}, outputs).ok());
  REQUIRE(adj_rt_live_objects() == liveBefore);
  adj_rt_release_all();
  REQUIRE(adj_rt_live_objects() == 0);
  outputs.clear();
  // The host's tuple, its tensor copy and its environment.
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks - 3);
}
