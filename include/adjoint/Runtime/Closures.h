//===- Closures.h - Boxes and environments for compiled code ----*- C++ -*-===//
//
// The C ABI that code lowered by -adj-to-linalg calls for function values
// and sensitivity environments (lib/Codegen/Common/AdjToLinalg/Runtime.cpp
// declares the same signatures on the MLIR side; `index` is intptr_t).
//
// Objects:
//   tuple  a fixed number of slots, each a tensor (a private copy with its
//          element type), an environment, or a function value (tag, box).
//          The captured values of a closure (its box) and the value stored
//          under one environment key are tuples of their leaves.
//   env    an immutable map from int64 keys to tuples; null is the empty
//          environment. Setting a key makes a new environment.
//
// Memory: every object lives in a per-thread arena. A compiled public
// function without function or environment results takes
// `m = adj_rt_mark()` on entry and calls `adj_rt_release(m)` before it
// returns, which frees everything the call made: nothing it made can
// outlive it, because tensors leave a box or environment as fresh copies
// owned by the caller. Objects made by a function that returns function
// values or environments stay until an enclosing release, or until
// `adj_rt_release_all()` (or the thread's exit) when the host called it
// directly. Reference counting would need retain/release pairs placed
// through branches and loops of the generated code; the arena needs none.
// The memory comes from the global memory pool and counts against its byte
// limit. Inside rt::invoke() a failed allocation is an OutOfMemory status
// of the call, which releases the objects the call made (see
// rt::allocateRuntimeBlock()); the functions here never throw.
//
// Reads of a null tuple give zeros, empty environments and tag 0 with a
// null box: env_get of an absent key reads through a null tuple.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_CLOSURES_H
#define ADJOINT_RUNTIME_CLOSURES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element types of tensor slots (the order of adjoint::DType).
enum adj_rt_dtype {
  ADJ_RT_F64 = 0,
  ADJ_RT_F32 = 1,
  ADJ_RT_F16 = 2,
  ADJ_RT_BF16 = 3,
  ADJ_RT_I64 = 4,
  ADJ_RT_I32 = 5,
  ADJ_RT_I1 = 6,
};

/// A tuple of `size` empty slots (reading an empty slot gives zeros).
void *adj_rt_tuple_new(int64_t size);
/// Copies `nbytes` bytes at `data` into slot `slot` as a tensor of `dtype`.
void adj_rt_tuple_put_tensor(void *tuple, int64_t slot, int64_t dtype,
                             intptr_t data, int64_t nbytes);
void adj_rt_tuple_put_env(void *tuple, int64_t slot, void *env);
void adj_rt_tuple_put_fn(void *tuple, int64_t slot, intptr_t tag, void *box);

/// Copies the tensor in slot `slot` to `dst` (`nbytes` bytes), or writes
/// zeros when `tuple` is null or the slot holds no tensor.
void adj_rt_tuple_get_tensor(void *tuple, int64_t slot, intptr_t dst,
                             int64_t nbytes);
void *adj_rt_tuple_get_env(void *tuple, int64_t slot);
intptr_t adj_rt_tuple_get_fn_tag(void *tuple, int64_t slot);
void *adj_rt_tuple_get_fn_box(void *tuple, int64_t slot);

/// `env` with `key` bound to `tuple` (env itself is unchanged).
void *adj_rt_env_set(void *env, int64_t key, void *tuple);
/// The tuple bound to `key`, or null.
void *adj_rt_env_get(void *env, int64_t key);
/// The key-wise sum: keys of one side are kept, values of keys on both
/// sides are added slot by slot (tensors elementwise, i1 as logical or;
/// environments recursively).
void *adj_rt_env_add(void *lhs, void *rhs);

/// The current top of this thread's arena.
int64_t adj_rt_mark(void);
/// Frees every object made on this thread since `mark` was taken.
void adj_rt_release(int64_t mark);
/// Frees every object made on this thread.
void adj_rt_release_all(void);
/// Objects alive in this thread's arena (for tests).
int64_t adj_rt_live_objects(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // ADJOINT_RUNTIME_CLOSURES_H
