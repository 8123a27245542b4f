//===- Closures.cpp - Boxes and environments for compiled code ------------===//
//
// Tuples (boxes of captured values, environment entries) and environments
// of include/adjoint/Runtime/Closures.h, kept in a per-thread arena that
// compiled public functions mark and release. Objects are immutable once
// the runtime call that made them and the generated code that fills a new
// tuple are done, and refer only to objects made earlier or in the same
// runtime call. Marks are taken between runtime calls, so releasing
// everything newer than a mark leaves no dangling reference behind.
//
// Objects come from the memory pool through rt::allocateRuntimeBlock(), so
// they count against the pool's byte limit, and a failure inside invoke()
// jumps back to it like a failed allocation of compiled code. Tensor copies
// live where the call's tensors live (BoxMemory.h): in the host pool, or in
// the device's pool when invoke() runs GPU host code, whose tensors are
// device addresses; device failures jump back the same way. Hence nothing
// here holds a C++ object with a destructor
// across an allocation, and whatever is allocated is owned by the arena at
// once: invoke() then releases the arena to its mark and nothing leaks.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Closures.h"
#include "BoxMemory.h"
#include "adjoint/Runtime/DType.h"
#include "adjoint/Runtime/Invoke.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

using namespace adjoint;

static_assert(ADJ_RT_F64 == static_cast<int>(DType::F64) &&
                  ADJ_RT_F32 == static_cast<int>(DType::F32) &&
                  ADJ_RT_F16 == static_cast<int>(DType::F16) &&
                  ADJ_RT_BF16 == static_cast<int>(DType::BF16) &&
                  ADJ_RT_I64 == static_cast<int>(DType::I64) &&
                  ADJ_RT_I32 == static_cast<int>(DType::I32) &&
                  ADJ_RT_I1 == static_cast<int>(DType::I1),
              "adj_rt_dtype must follow adjoint::DType");

namespace {

/// The header of every arena object. Objects form a list, newest first; a
/// tuple's slots or an environment's entries follow the header in the same
/// block.
struct Object {
  enum class Kind : uint8_t { Tuple, Env };
  Object *prev;
  /// Slots or entries.
  int64_t size;
  Kind kind;
};

struct Slot {
  enum class Kind : uint8_t { Empty, Tensor, Env, Fn };
  Kind kind;
  int64_t dtype;
  /// A block the slot owns (null when the tensor has no bytes), on `device`
  /// (null: the host pool).
  unsigned char *bytes;
  int64_t nbytes;
  rt::gpu::GpuDevice *device;
  Object *env;
  intptr_t tag;
  void *box;
};

struct Entry {
  int64_t key;
  Object *tuple;
};

// A zero-filled payload is valid: empty slots and entries own nothing.
static_assert(std::is_trivially_copyable_v<Slot> &&
                  std::is_trivially_copyable_v<Entry>,
              "payloads are raw memory");

Slot *slotsOf(Object *tuple) { return reinterpret_cast<Slot *>(tuple + 1); }
Entry *entriesOf(Object *env) { return reinterpret_cast<Entry *>(env + 1); }

/// Frees a tuple's tensor copy, if any.
void clearSlot(Slot &slot) {
  if (slot.kind == Slot::Kind::Tensor)
    rt::releaseBox(slot.device, slot.bytes);
  slot = Slot();
}

/// This thread's objects. An intrusive list rather than a container: the
/// arena itself never allocates, so an allocation failure leaves it intact.
struct Arena {
  Object *top = nullptr;
  int64_t count = 0;

  /// Frees objects, newest first, until `keep` are left.
  void releaseTo(int64_t keep) {
    while (count > keep) {
      Object *object = top;
      top = object->prev;
      --count;
      if (object->kind == Object::Kind::Tuple)
        for (int64_t i = 0; i < object->size; ++i)
          clearSlot(slotsOf(object)[i]);
      rt::releaseRuntimeBlock(object);
    }
  }
  ~Arena() { releaseTo(0); }
};

Arena &arena() {
  thread_local Arena instance;
  return instance;
}

/// A new object with `size` zeroed items of `itemBytes` each, on top of the
/// arena. The functions below call this (and allocate tensor copies) while
/// they hold nothing that needs a destructor, and they fill an object only
/// after it is in the arena: when the allocation jumps back to invoke(), the
/// arena owns everything made so far and invoke() releases it. Null only
/// when a call that already failed found no memory at all; the object then
/// reads as empty (the call's results are thrown away).
Object *make(Object::Kind kind, int64_t size, size_t itemBytes) {
  size_t items = size > 0 ? static_cast<size_t>(size) : 0;
  if (items > (SIZE_MAX - sizeof(Object)) / itemBytes)
    items = 0; // Not a size that compiled code asks for.
  size_t payload = items * itemBytes;
  auto *object =
      static_cast<Object *>(rt::allocateRuntimeBlock(sizeof(Object) + payload));
  if (!object)
    return nullptr;
  Arena &a = arena();
  object->prev = a.top;
  object->size = static_cast<int64_t>(items);
  object->kind = kind;
  std::memset(static_cast<void *>(object + 1), 0, payload);
  a.top = object;
  ++a.count;
  return object;
}

Object *makeTuple(int64_t size) {
  return make(Object::Kind::Tuple, size, sizeof(Slot));
}
Object *makeEnv(int64_t size) {
  return make(Object::Kind::Env, size, sizeof(Entry));
}

Slot *slotOf(void *tuple, int64_t slot) {
  auto *t = static_cast<Object *>(tuple);
  if (!t || slot < 0 || slot >= t->size)
    return nullptr;
  return &slotsOf(t)[slot];
}

/// Makes the empty slot `dst` a tensor slot owning a copy of `nbytes`
/// bytes at `src` on `device`. The slot owns the block before the copy is
/// queued, so that a failing copy leaves nothing behind the arena's back.
void putBytes(Slot &dst, int64_t dtype, rt::gpu::GpuDevice *device,
              const unsigned char *src, int64_t nbytes) {
  dst.kind = Slot::Kind::Tensor;
  dst.dtype = dtype;
  dst.device = device;
  if (nbytes <= 0)
    return;
  auto n = static_cast<size_t>(nbytes);
  dst.bytes = rt::allocateBox(device, n);
  if (!dst.bytes)
    return;
  dst.nbytes = nbytes;
  rt::copyBox(device, dst.bytes, src, n);
}

/// Fills the empty slot `dst` with a copy of `src` (its own tensor copy).
void copySlot(Slot &dst, const Slot &src) {
  if (src.kind == Slot::Kind::Tensor)
    putBytes(dst, src.dtype, src.device, src.bytes, src.nbytes);
  else
    dst = src;
}

/// The slot-wise sum of two environment entries.
Object *addTuples(Object *lhs, Object *rhs) {
  int64_t size = std::max(lhs->size, rhs->size);
  Object *sum = makeTuple(size);
  if (!sum)
    return lhs;
  for (int64_t i = 0; i < size; ++i) {
    const Slot *a = i < lhs->size ? &slotsOf(lhs)[i] : nullptr;
    const Slot *b = i < rhs->size ? &slotsOf(rhs)[i] : nullptr;
    Slot &dst = slotsOf(sum)[i];
    if (!a || a->kind == Slot::Kind::Empty) {
      if (b)
        copySlot(dst, *b);
      continue;
    }
    copySlot(dst, *a);
    if (!b || b->kind != a->kind)
      continue;
    if (a->kind == Slot::Kind::Tensor && a->dtype == b->dtype &&
        a->nbytes == b->nbytes && a->device == b->device && dst.bytes)
      rt::addBoxes(dst.device, dst.bytes, b->bytes,
                   static_cast<size_t>(dst.nbytes), a->dtype);
    else if (a->kind == Slot::Kind::Env)
      dst.env = static_cast<Object *>(adj_rt_env_add(a->env, b->env));
  }
  return sum;
}

/// The first entry of `env` whose key is not less than `key`.
Entry *lowerBound(Object *env, int64_t key) {
  Entry *begin = entriesOf(env);
  return std::lower_bound(
      begin, begin + env->size, key,
      [](const Entry &e, int64_t k) { return e.key < k; });
}

} // namespace

extern "C" {

void *adj_rt_tuple_new(int64_t size) { return makeTuple(size); }

void adj_rt_tuple_put_tensor(void *tuple, int64_t slot, int64_t dtype,
                             intptr_t data, int64_t nbytes) {
  Slot *s = slotOf(tuple, slot);
  if (!s)
    return;
  clearSlot(*s);
  putBytes(*s, dtype, rt::boxDevice(),
           reinterpret_cast<const unsigned char *>(data), nbytes);
}

void adj_rt_tuple_put_env(void *tuple, int64_t slot, void *env) {
  if (Slot *s = slotOf(tuple, slot)) {
    clearSlot(*s);
    s->kind = Slot::Kind::Env;
    s->env = static_cast<Object *>(env);
  }
}

void adj_rt_tuple_put_fn(void *tuple, int64_t slot, intptr_t tag, void *box) {
  if (Slot *s = slotOf(tuple, slot)) {
    clearSlot(*s);
    s->kind = Slot::Kind::Fn;
    s->tag = tag;
    s->box = box;
  }
}

void adj_rt_tuple_get_tensor(void *tuple, int64_t slot, intptr_t dst,
                             int64_t nbytes) {
  auto *out = reinterpret_cast<unsigned char *>(dst);
  size_t n = nbytes > 0 ? static_cast<size_t>(nbytes) : 0;
  // `dst` is memory of the calling code: on its device, if it has one.
  rt::gpu::GpuDevice *device = rt::boxDevice();
  const Slot *s = slotOf(tuple, slot);
  size_t copied = 0;
  if (s && s->kind == Slot::Kind::Tensor && s->bytes) {
    copied = std::min(n, static_cast<size_t>(s->nbytes));
    rt::copyBox(device, out, s->bytes, copied);
  }
  if (n > copied)
    rt::zeroBox(device, out + copied, n - copied);
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
  auto *old = static_cast<Object *>(env);
  int64_t size = old ? old->size : 0;
  int64_t at = old ? lowerBound(old, key) - entriesOf(old) : 0;
  bool replace = at < size && entriesOf(old)[at].key == key;
  Object *updated = makeEnv(replace ? size : size + 1);
  if (!updated)
    return env;
  Entry *out = entriesOf(updated);
  if (old) {
    std::memcpy(out, entriesOf(old), at * sizeof(Entry));
    int64_t rest = size - at - (replace ? 1 : 0);
    std::memcpy(out + at + 1, entriesOf(old) + size - rest,
                rest * sizeof(Entry));
  }
  out[at] = {key, static_cast<Object *>(tuple)};
  return updated;
}

void *adj_rt_env_get(void *env, int64_t key) {
  if (!env)
    return nullptr;
  auto *e = static_cast<Object *>(env);
  Entry *it = lowerBound(e, key);
  return it != entriesOf(e) + e->size && it->key == key ? it->tuple
                                                         : nullptr;
}

void *adj_rt_env_add(void *lhs, void *rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  auto *l = static_cast<Object *>(lhs);
  auto *r = static_cast<Object *>(rhs);
  const Entry *a = entriesOf(l);
  const Entry *b = entriesOf(r);
  int64_t common = 0;
  for (int64_t i = 0, j = 0; i < l->size && j < r->size;) {
    if (a[i].key < b[j].key) {
      ++i;
    } else if (b[j].key < a[i].key) {
      ++j;
    } else {
      ++common;
      ++i;
      ++j;
    }
  }
  // The sum is made before the sums of common entries it refers to; all of
  // them come from this one call, between two marks.
  Object *sum = makeEnv(l->size + r->size - common);
  if (!sum)
    return lhs;
  Entry *out = entriesOf(sum);
  int64_t i = 0, j = 0;
  while (i < l->size || j < r->size) {
    if (j == r->size || (i < l->size && a[i].key < b[j].key)) {
      *out++ = a[i++];
    } else if (i == l->size || b[j].key < a[i].key) {
      *out++ = b[j++];
    } else {
      Object *x = a[i].tuple, *y = b[j].tuple;
      *out++ = {a[i].key, x && y ? addTuples(x, y) : (x ? x : y)};
      ++i;
      ++j;
    }
  }
  return sum;
}

int64_t adj_rt_mark(void) { return arena().count; }

void adj_rt_release(int64_t mark) { arena().releaseTo(mark > 0 ? mark : 0); }

void adj_rt_release_all(void) { adj_rt_release(0); }

int64_t adj_rt_live_objects(void) { return arena().count; }

} // extern "C"
