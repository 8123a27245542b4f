//===- Invoke.h - Calling compiled code: the ABI ----------------*- C++ -*-===//
//
// Compiled code is called through one packed entry point per function,
//
//   void _adj_entry_<f>(void **args)
//
// where args[0] points to the results (the memref descriptors of all
// outputs back to back) and args[1 + i] to the descriptor of input i. A
// rank-r descriptor is {allocated ptr, aligned ptr, offset, sizes[r],
// strides[r]}, all 8-byte fields. Next to it the object defines
// `_adj_signature_<f>`, a NUL-terminated Signature::serialize() string.
//
// Compiled code allocates through the runtime (`_mlir_memref_to_llvm_*`,
// on the global MemoryPool). invoke() tracks the blocks one call allocates
// (on worker threads too: parallelFor chunks inherit the call's context):
// when an allocation fails it longjmps back to invoke(), which frees them
// and returns OutOfMemory (memory of the closure runtime counts and fails
// the same way, see allocateRuntimeBlock(); invoke() releases the closure
// objects the call made). Inside a parallel loop no jump is possible; the
// block then comes from the system past the pool's limit and the call
// fails when it returns. On success the blocks behind the outputs become
// the output tensors (one shared owner when two outputs share a block), an
// output computed into a donated input (Signature) shares that input's
// storage, an output that is other memory (an input, a constant) is copied,
// and anything else still allocated is freed.
//
// Recursion: a compiled function that can call itself calls
// adj_rt_enter_recursive on entry and adj_rt_leave_recursive before it
// returns. Past the call depth limit (setMaxCallDepth, 10000 by default,
// as the interpreter's), or when less than a safety margin of the thread's
// stack is left, the guard longjmps back to invoke() like a failed
// allocation, which returns ResourceExhausted naming the function, instead
// of letting the stack overflow.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_INVOKE_H
#define ADJOINT_RUNTIME_INVOKE_H

#include "adjoint/Runtime/Device.h"
#include "adjoint/Runtime/Signature.h"
#include "adjoint/Runtime/Status.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace adjoint::rt {

/// The packed entry point of a compiled function.
using PackedEntry = void (*)(void **args);

/// "_adj_entry_<function>" and "_adj_signature_<function>".
std::string entrySymbol(const std::string &function);
std::string signatureSymbol(const std::string &function);

/// What one invoke() did, for tests and benchmarks.
struct InvokeStats {
  /// Inputs copied because their memory was misaligned: host memory not
  /// aligned to its element, device memory not to kBufferAlignment.
  unsigned inputsCopied = 0;
  /// Outputs copied because compiled code returned memory it did not
  /// allocate in this call.
  unsigned outputsCopied = 0;
  /// Blocks allocated by the call and not returned (freed by invoke).
  unsigned blocksReleased = 0;
  /// Donated inputs copied before the call because it could not write them
  /// (borrowed, read-only, or sharing memory with another input).
  unsigned donatedCopied = 0;
  /// Outputs computed into a donated input's memory (that input's storage,
  /// neither allocated nor copied).
  unsigned outputsDonated = 0;
};

/// Checks count, dtypes and shapes of `inputs` against `signature`; the
/// message names the input and both types.
Status validateInputs(const Signature &signature,
                      const std::vector<Tensor> &inputs);

/// Calls `entry` with `inputs` and fills
/// `outputs` with tensors that the caller owns. Never aborts on allocation
/// failure: returns OutOfMemory with nothing leaked.
///
/// Host inputs are passed without a copy when their memory is aligned to
/// their element (numpy's arrays are; compiled code and the kernels assume
/// no more alignment of their inputs than that), and copied once into a
/// 64-byte aligned block otherwise. Compiled code writes only donated
/// inputs; one it may not write (borrowed caller memory, read-only, or
/// overlapping another input) is copied first, and the output computed
/// into it then owns the copy.
///
/// On a GPU `device` (null or the CPU: the host) the entry is GPU host
/// code: the GpuABI (GpuABI.h) acts on `device` for the call, the inputs
/// must be tensors on `device` (InvalidArgument otherwise) and their
/// descriptors hold device pointers, the device blocks the call allocates
/// are tracked, outputs are device tensors (a block of the call is
/// adopted; other memory is copied into a new block), and a GpuABI failure
/// returns its Status with the call's blocks freed. Work the call queued
/// may still be running when it returns: reading an output on the host
/// (Tensor::toHost) waits for it.
Status invoke(PackedEntry entry, const Signature &signature,
              const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
              InvokeStats *stats = nullptr, Device *device = nullptr);

/// Ends the running invoke() with a status of `code` and `message`: for a
/// runtime function that compiled code called and that cannot do its work
/// (a library it needs is missing). Like the recursion guard it longjmps
/// back to invoke(), so the caller's frames must hold nothing with a
/// destructor; outside invoke() or inside a parallel loop it prints the
/// message and aborts.
[[noreturn]] void failCompiledCall(StatusCode code, const char *message);

/// The call depth limit of compiled recursive functions (default 10000),
/// for every thread.
void setMaxCallDepth(int64_t limit);
int64_t maxCallDepth();

/// A 64-byte aligned block from the global pool for memory that the runtime
/// allocates on behalf of compiled code and owns itself (the closure
/// runtime's tuples, environments and tensor copies), so that it counts
/// against the pool's byte limit. When the pool refuses during invoke() on
/// the calling thread this longjmps back to invoke() like the allocation
/// hooks, which then returns OutOfMemory: the caller's frames must hold
/// nothing with a destructor, and what it owns must be reachable from the
/// closure arena, which invoke() releases. Inside a parallel loop the block
/// comes from the system past the limit and the call fails when it
/// returns (nullptr if the system refuses too); without invoke() it comes
/// from the system, and the process aborts if the system refuses, because
/// there is no status to report it with.
void *allocateRuntimeBlock(size_t bytes);
/// Frees a block of allocateRuntimeBlock() (nullptr is ignored).
void releaseRuntimeBlock(void *block);

} // namespace adjoint::rt

extern "C" {
/// The allocation functions of MLIR's memref-to-llvm lowering with
/// use-generic-functions, implemented on the global MemoryPool.
void *_mlir_memref_to_llvm_alloc(uint64_t size);
void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size);
void _mlir_memref_to_llvm_free(void *ptr);
/// The recursion guard (see the file comment); `function` is the
/// NUL-terminated name of the function being entered. Without invoke() (or
/// inside a parallel loop) there is nowhere to return the error to: the
/// guard prints it and aborts rather than overflow the stack.
void adj_rt_enter_recursive(const char *function);
void adj_rt_leave_recursive();
}

#endif // ADJOINT_RUNTIME_INVOKE_H
