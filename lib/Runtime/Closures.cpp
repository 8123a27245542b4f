//===- Closures.cpp - Boxes and environments for compiled code ------------===//
//
// Tuples (boxes of captured values, environment entries) and environments
// of include/adjoint/Runtime/Closures.h, kept in a per-thread arena that
// compiled public functions mark and release. Objects are immutable once
// the generated code has filled a new tuple, and a tuple is filled only
// with older objects, so an object never refers to a newer one: releasing
// everything newer than a mark leaves no dangling reference behind.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Closures.h"
#include "adjoint/Runtime/Tensor.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

using namespace adjoint;

static_assert(ADJ_RT_F64 == static_cast<int>(rt::DType::F64) &&
                  ADJ_RT_F32 == static_cast<int>(rt::DType::F32) &&
                  ADJ_RT_F16 == static_cast<int>(rt::DType::F16) &&
                  ADJ_RT_BF16 == static_cast<int>(rt::DType::BF16) &&
                  ADJ_RT_I64 == static_cast<int>(rt::DType::I64) &&
                  ADJ_RT_I32 == static_cast<int>(rt::DType::I32) &&
                  ADJ_RT_I1 == static_cast<int>(rt::DType::I1),
              "adj_rt_dtype must follow adjoint::rt::DType");

namespace {

struct Object {
  virtual ~Object() = default;
};

struct Tuple;
struct Env;

struct Slot {
  enum class Kind : uint8_t { Empty, Tensor, Env, Fn };
  Kind kind = Kind::Empty;
  int64_t dtype = 0;
  std::vector<unsigned char> bytes;
  Env *env = nullptr;
  intptr_t tag = 0;
  void *box = nullptr;
};

struct Tuple : Object {
  explicit Tuple(int64_t size) : slots(size > 0 ? size : 0) {}
  std::vector<Slot> slots;
};

struct Env : Object {
  /// Sorted by key.
  std::vector<std::pair<int64_t, Tuple *>> entries;
};

/// This thread's objects, oldest first.
struct Arena {
  std::vector<std::unique_ptr<Object>> objects;
};

Arena &arena() {
  thread_local Arena instance;
  return instance;
}

template <typename T, typename... Args>
T *make(Args &&...args) {
  auto object = std::make_unique<T>(std::forward<Args>(args)...);
  T *raw = object.get();
  arena().objects.push_back(std::move(object));
  return raw;
}

Slot *slotOf(void *tuple, int64_t slot) {
  auto *t = static_cast<Tuple *>(tuple);
  if (!t || slot < 0 || slot >= static_cast<int64_t>(t->slots.size()))
    return nullptr;
  return &t->slots[slot];
}

template <typename T>
T load(const unsigned char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store(unsigned char *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

/// lhs += rhs elementwise, for tensors of one dtype and size.
void addInto(std::vector<unsigned char> &lhs,
             const std::vector<unsigned char> &rhs, int64_t dtype) {
  unsigned char *a = lhs.data();
  const unsigned char *b = rhs.data();
  size_t n = lhs.size();
  switch (dtype) {
  case ADJ_RT_F64:
    for (size_t i = 0; i < n; i += 8)
      store(a + i, load<double>(a + i) + load<double>(b + i));
    break;
  case ADJ_RT_F32:
    for (size_t i = 0; i < n; i += 4)
      store(a + i, load<float>(a + i) + load<float>(b + i));
    break;
  case ADJ_RT_F16:
    for (size_t i = 0; i < n; i += 2)
      store(a + i, rt::floatToHalf(rt::halfToFloat(load<uint16_t>(a + i)) +
                                   rt::halfToFloat(load<uint16_t>(b + i))));
    break;
  case ADJ_RT_BF16:
    for (size_t i = 0; i < n; i += 2)
      store(a + i, rt::floatToBFloat16(
                       rt::bfloat16ToFloat(load<uint16_t>(a + i)) +
                       rt::bfloat16ToFloat(load<uint16_t>(b + i))));
    break;
  case ADJ_RT_I64:
    // Wraps around like compiled code and the interpreter.
    for (size_t i = 0; i < n; i += 8)
      store(a + i, load<uint64_t>(a + i) + load<uint64_t>(b + i));
    break;
  case ADJ_RT_I32:
    for (size_t i = 0; i < n; i += 4)
      store(a + i, static_cast<uint32_t>(load<uint32_t>(a + i) +
                                         load<uint32_t>(b + i)));
    break;
  default: // i1: logical or.
    for (size_t i = 0; i < n; ++i)
      a[i] = (a[i] != 0 || b[i] != 0) ? 1 : 0;
    break;
  }
}

/// The slot-wise sum of two environment entries. Nested sums are made
/// before the tuple that refers to them (see the file comment).
Tuple *addTuples(const Tuple *lhs, const Tuple *rhs) {
  size_t size = std::max(lhs->slots.size(), rhs->slots.size());
  std::vector<Slot> slots(size);
  for (size_t i = 0; i < size; ++i) {
    const Slot *a = i < lhs->slots.size() ? &lhs->slots[i] : nullptr;
    const Slot *b = i < rhs->slots.size() ? &rhs->slots[i] : nullptr;
    if (!a || a->kind == Slot::Kind::Empty) {
      if (b)
        slots[i] = *b;
      continue;
    }
    slots[i] = *a;
    if (!b || b->kind != a->kind)
      continue;
    if (a->kind == Slot::Kind::Tensor && a->dtype == b->dtype &&
        a->bytes.size() == b->bytes.size())
      addInto(slots[i].bytes, b->bytes, a->dtype);
    else if (a->kind == Slot::Kind::Env)
      slots[i].env = static_cast<Env *>(adj_rt_env_add(a->env, b->env));
  }
  Tuple *sum = make<Tuple>(0);
  sum->slots = std::move(slots);
  return sum;
}

} // namespace

extern "C" {

void *adj_rt_tuple_new(int64_t size) { return make<Tuple>(size); }

void adj_rt_tuple_put_tensor(void *tuple, int64_t slot, int64_t dtype,
                             intptr_t data, int64_t nbytes) {
  Slot *s = slotOf(tuple, slot);
  if (!s)
    return;
  s->kind = Slot::Kind::Tensor;
  s->dtype = dtype;
  auto *src = reinterpret_cast<const unsigned char *>(data);
  s->bytes.assign(src, src + (nbytes > 0 ? nbytes : 0));
}

void adj_rt_tuple_put_env(void *tuple, int64_t slot, void *env) {
  if (Slot *s = slotOf(tuple, slot)) {
    s->kind = Slot::Kind::Env;
    s->env = static_cast<Env *>(env);
  }
}

void adj_rt_tuple_put_fn(void *tuple, int64_t slot, intptr_t tag, void *box) {
  if (Slot *s = slotOf(tuple, slot)) {
    s->kind = Slot::Kind::Fn;
    s->tag = tag;
    s->box = box;
  }
}

void adj_rt_tuple_get_tensor(void *tuple, int64_t slot, intptr_t dst,
                             int64_t nbytes) {
  auto *out = reinterpret_cast<unsigned char *>(dst);
  size_t n = nbytes > 0 ? static_cast<size_t>(nbytes) : 0;
  const Slot *s = slotOf(tuple, slot);
  if (!s || s->kind != Slot::Kind::Tensor) {
    std::memset(out, 0, n);
    return;
  }
  size_t copied = std::min(n, s->bytes.size());
  std::memcpy(out, s->bytes.data(), copied);
  std::memset(out + copied, 0, n - copied);
}

void *adj_rt_tuple_get_env(void *tuple, int64_t slot) {
  const Slot *s = slotOf(tuple, slot);
  return s && s->kind == Slot::Kind::Env ? s->env : nullptr;
}

intptr_t adj_rt_tuple_get_fn_tag(void *tuple, int64_t slot) {
  const Slot *s = slotOf(tuple, slot);
  return s && s->kind == Slot::Kind::Fn ? s->tag : 0;
}

void *adj_rt_tuple_get_fn_box(void *tuple, int64_t slot) {
  const Slot *s = slotOf(tuple, slot);
  return s && s->kind == Slot::Kind::Fn ? s->box : nullptr;
}

void *adj_rt_env_set(void *env, int64_t key, void *tuple) {
  Env *updated = make<Env>();
  if (env)
    updated->entries = static_cast<Env *>(env)->entries;
  auto &entries = updated->entries;
  auto it = std::lower_bound(
      entries.begin(), entries.end(), key,
      [](const std::pair<int64_t, Tuple *> &e, int64_t k) {
        return e.first < k;
      });
  if (it != entries.end() && it->first == key)
    it->second = static_cast<Tuple *>(tuple);
  else
    entries.insert(it, {key, static_cast<Tuple *>(tuple)});
  return updated;
}

void *adj_rt_env_get(void *env, int64_t key) {
  if (!env)
    return nullptr;
  const auto &entries = static_cast<Env *>(env)->entries;
  auto it = std::lower_bound(
      entries.begin(), entries.end(), key,
      [](const std::pair<int64_t, Tuple *> &e, int64_t k) {
        return e.first < k;
      });
  return it != entries.end() && it->first == key ? it->second : nullptr;
}

void *adj_rt_env_add(void *lhs, void *rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  const auto &a = static_cast<Env *>(lhs)->entries;
  const auto &b = static_cast<Env *>(rhs)->entries;
  std::vector<std::pair<int64_t, Tuple *>> entries;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].first < b[j].first)) {
      entries.push_back(a[i++]);
    } else if (i == a.size() || b[j].first < a[i].first) {
      entries.push_back(b[j++]);
    } else {
      entries.push_back(
          {a[i].first, a[i].second && b[j].second
                           ? addTuples(a[i].second, b[j].second)
                           : (a[i].second ? a[i].second : b[j].second)});
      ++i;
      ++j;
    }
  }
  Env *sum = make<Env>();
  sum->entries = std::move(entries);
  return sum;
}

int64_t adj_rt_mark(void) {
  return static_cast<int64_t>(arena().objects.size());
}

void adj_rt_release(int64_t mark) {
  auto &objects = arena().objects;
  size_t keep = mark > 0 ? static_cast<size_t>(mark) : 0;
  // Newest first, the reverse of creation.
  while (objects.size() > keep)
    objects.pop_back();
}

void adj_rt_release_all(void) { adj_rt_release(0); }

int64_t adj_rt_live_objects(void) {
  return static_cast<int64_t>(arena().objects.size());
}

} // extern "C"
