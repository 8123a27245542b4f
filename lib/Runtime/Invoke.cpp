//===- Invoke.cpp - Calling compiled code: the ABI ------------------------===//
//
// The allocation hooks of compiled code and the call wrapper that turns an
// allocation failure deep inside compiled code into a status: the hook
// longjmps to a setjmp in runGuarded(). Only compiled code (which has no
// destructors to run) and the hook itself lie between the two.
//
// Inside a parallel loop (on a worker, or in a chunk on the calling thread)
// there is no safe way back: the pool's threads are in the middle of the
// loop. There a failed allocation takes the memory from the system past
// the pool's limit instead, and the call fails when it returns.
//
// The closure runtime (Closures.cpp) allocates its objects through
// allocateRuntimeBlock(), which fails the same way, so its frames lie
// between the two as well: they hold nothing with a destructor when they
// allocate. Its objects are owned by its arena, not by the call, and
// invoke() releases the arena to where the call found it.
//
// A call on a GPU device runs host code that calls the GpuABI (GpuABI.h):
// its device blocks are tracked here like the host blocks, and a GpuABI
// failure jumps back the same way (the entry points of GPU/GpuCall.h).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Invoke.h"
#include "GPU/GpuCall.h"
#include "GPU/GpuDevice.h"
#include "adjoint/Runtime/AlignedBuffer.h"
#include "adjoint/Runtime/Closures.h"
#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/ThreadPool.h"
#include "adjoint/Support/Error.h"

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unordered_map>
#include <unordered_set>

using namespace adjoint;
using namespace adjoint::rt;

namespace {

/// The state of one invoke(), the task context (rt::taskContext()) of the
/// calling thread and of the pool's workers while they run its loops.
struct CallContext {
  std::jmp_buf jump;
  std::thread::id owner = std::this_thread::get_id();
  std::mutex mutex;
  /// Blocks allocated by compiled code during the call and not yet freed.
  std::unordered_set<void *> blocks;
  size_t failedBytes = 0;
  /// Whether that allocation was one of the closure runtime's.
  bool failedInRuntime = false;
  /// An allocation failed where no jump was possible.
  bool failed = false;
  /// Set before a jump back by the recursion guard or a runtime function
  /// that could not do its work (failCompiledCall).
  Status error;
  /// The device of a call on a GPU (null on the CPU), the device blocks
  /// the GpuABI handed out and not yet freed, and its failure.
  gpu::GpuDevice *device = nullptr;
  std::unordered_set<void *> deviceBlocks;
  Status deviceError;
};

CallContext *currentCall() {
  return static_cast<CallContext *>(taskContext());
}

/// Blocks that come from the system rather than the pool: alignments above
/// the pool's (no lowering asks for one today) and the fallback inside
/// parallel loops. Remembered so that the free hook can tell them apart.
std::mutex gSystemMutex;
std::unordered_set<void *> &systemBlocks() {
  static auto *set = new std::unordered_set<void *>();
  return *set;
}

void *systemBlock(size_t alignment, size_t size) {
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  void *block = std::aligned_alloc(alignment, rounded ? rounded : alignment);
  if (block) {
    std::lock_guard<std::mutex> lock(gSystemMutex);
    systemBlocks().insert(block);
  }
  return block;
}

/// Records that an allocation of `size` bytes failed in `call`. Jumps back
/// to invoke() where that is possible (the calling thread, outside parallel
/// loops); elsewhere marks the call failed and returns, and the caller takes
/// the memory from the system instead.
void allocationFailed(CallContext *call, size_t size, bool inRuntime) {
  bool canJump =
      std::this_thread::get_id() == call->owner && !insideParallelChunk();
  {
    std::lock_guard<std::mutex> lock(call->mutex);
    call->failedBytes = size;
    call->failedInRuntime = inRuntime;
    call->failed |= !canJump;
  }
  if (canJump)
    std::longjmp(call->jump, 1);
}

//===----------------------------------------------------------------------===//
// The recursion guard
//===----------------------------------------------------------------------===//

std::atomic<int64_t> gMaxCallDepth{10000};
/// Levels of compiled recursive functions this thread is in.
thread_local int64_t tCallDepth = 0;

/// Stack kept free below the guard: what runs between two guarded entries
/// (a recursive function's frame, the kernels it calls with their
/// stack-allocated blocks) must fit in it.
constexpr size_t kStackMargin = size_t(1) << 20;

/// The lowest stack address this thread's recursion may reach (the end of
/// its stack plus the margin), or 0 when the system does not say.
uintptr_t stackFloor() {
  thread_local uintptr_t floor = [] {
    uintptr_t result = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
      return result;
    void *low = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0)
      result = reinterpret_cast<uintptr_t>(low) +
               std::min(kStackMargin, size / 4);
    pthread_attr_destroy(&attr);
    return result;
  }();
  return floor;
}

/// Fails `call` with its error (already set). Inside a parallel loop
/// there is no way back to invoke(): print it and abort (see Invoke.h).
[[noreturn]] void callFailed(CallContext *call) {
  if (std::this_thread::get_id() == call->owner && !insideParallelChunk())
    std::longjmp(call->jump, 1);
  std::fprintf(stderr, "adjoint: %s\n", call->error.message().c_str());
  std::abort();
}

void *track(void *block, size_t alignment, size_t size) {
  CallContext *call = currentCall();
  if (!call)
    return block;
  if (!block) {
    allocationFailed(call, size, /*inRuntime=*/false);
    block = systemBlock(std::max<size_t>(alignment, kBufferAlignment), size);
    if (!block)
      return nullptr;
  }
  std::lock_guard<std::mutex> lock(call->mutex);
  call->blocks.insert(block);
  return block;
}

void releaseBlock(void *block) {
  if (MemoryPool::global().deallocate(block))
    return;
  std::lock_guard<std::mutex> lock(gSystemMutex);
  if (systemBlocks().erase(block))
    std::free(block);
}

/// Runs the entry point; false when an allocation hook jumped back.
[[gnu::noinline]] bool runGuarded(PackedEntry entry, void **args,
                                  CallContext *call) {
  if (setjmp(call->jump) != 0)
    return false;
  entry(args);
  return true;
}

/// Copies a strided array of `spec` into the contiguous `dst`.
void copyStrided(char *dst, const char *src, const std::vector<int64_t> &shape,
                 const int64_t *strides, size_t elementSize) {
  int64_t count = numElements(shape);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      offset += index[d] * strides[d];
    std::memcpy(dst + n * elementSize, src + offset * elementSize,
                elementSize);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// Whether donated input `i` may be written by the call: it owns its
/// memory (a borrowed array is the caller's), is not read-only, and shares
/// no byte with another input (which the call reads).
bool isWritableDonation(const std::vector<Tensor> &inputs, size_t i) {
  const Tensor &input = inputs[i];
  if (input.isBorrowed() || input.isReadOnly())
    return false;
  auto begin = reinterpret_cast<uintptr_t>(input.data());
  uintptr_t end = begin + input.byteSize();
  for (size_t j = 0; j < inputs.size(); ++j) {
    if (j == i || &inputs[j].device() != &input.device())
      continue;
    auto otherBegin = reinterpret_cast<uintptr_t>(inputs[j].data());
    uintptr_t otherEnd = otherBegin + inputs[j].byteSize();
    if (begin < otherEnd && otherBegin < end)
      return false;
  }
  return true;
}

/// The donated input (as passed) whose memory the output `data` of type
/// `spec` is, or null.
const Tensor *donatedStorage(const Signature &signature,
                             const std::vector<const Tensor *> &passed,
                             const void *data, const TensorSpec &spec) {
  for (size_t i = 0; i < passed.size(); ++i)
    if (signature.inputs[i].donated && passed[i]->data() == data &&
        passed[i]->dtype() == spec.dtype && passed[i]->shape() == spec.shape)
      return passed[i];
  return nullptr;
}

bool isRowMajor(const std::vector<int64_t> &shape, const int64_t *strides) {
  int64_t expected = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1 && strides[d] != expected)
      return false;
    expected *= shape[d];
  }
  return true;
}

/// Copies the output at `data` (on `device`, strided) into the fresh
/// row-major device tensor `out`, through the host when it is strided.
Status copyDeviceOutput(Device &device, const Tensor &out, const char *data,
                        const std::vector<int64_t> &shape,
                        const int64_t *strides, size_t elementSize) {
  if (!out.byteSize())
    return Status::success();
  if (isRowMajor(shape, strides))
    return device.copyDeviceToDevice(out.data(), data, out.byteSize());
  int64_t span = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (strides[d] < 0)
      return Status::error(StatusCode::Internal,
                           "a device output has a negative stride");
    span += (shape[d] - 1) * strides[d];
  }
  std::vector<char> host(size_t(span) * elementSize);
  std::vector<char> packed(out.byteSize());
  if (Status s = device.copyDeviceToHost(host.data(), data, host.size());
      !s.ok())
    return s;
  copyStrided(packed.data(), host.data(), shape, strides, elementSize);
  return device.copyHostToDevice(out.data(), packed.data(), packed.size());
}

} // namespace

gpu::GpuDevice &adjoint::rt::gpu::currentDevice(const char *function) {
  CallContext *call = currentCall();
  if (!call || !call->device)
    fail(Status::error(StatusCode::Internal,
                       std::string(function) +
                           " called outside a call that invoke() runs on a "
                           "GPU device"));
  return *call->device;
}

gpu::GpuDevice *adjoint::rt::gpu::callDevice() {
  CallContext *call = currentCall();
  return call ? call->device : nullptr;
}

void adjoint::rt::gpu::trackBlock(void *block) {
  if (CallContext *call = currentCall()) {
    std::lock_guard<std::mutex> lock(call->mutex);
    call->deviceBlocks.insert(block);
  }
}

void adjoint::rt::gpu::untrackBlock(void *block) {
  if (CallContext *call = currentCall()) {
    std::lock_guard<std::mutex> lock(call->mutex);
    call->deviceBlocks.erase(block);
  }
}

void adjoint::rt::gpu::fail(Status status) {
  CallContext *call = currentCall();
  if (call && std::this_thread::get_id() == call->owner &&
      !insideParallelChunk()) {
    call->deviceError = std::move(status);
    std::longjmp(call->jump, 1);
  }
  std::fprintf(stderr, "adjoint: %s\n", status.toString().c_str());
  std::abort();
}

[[gnu::noinline]] void adjoint::rt::gpu::orFail(Status status) {
  if (!status.ok())
    fail(std::move(status));
}

void *adjoint::rt::allocateRuntimeBlock(size_t bytes) {
  if (void *block = MemoryPool::global().allocate(bytes))
    return block;
  CallContext *call = currentCall();
  if (call)
    allocationFailed(call, bytes, /*inRuntime=*/true);
  // Not reached on invoke()'s thread outside parallel loops. Elsewhere a
  // failed call fails when it returns, and code run without invoke() has
  // no status to fail with: both go on past the pool's limit.
  if (void *block = systemBlock(kBufferAlignment, bytes))
    return block;
  if (call)
    return nullptr;
  // Without invoke() (lowered code run by mlir-runner, say) there is
  // nobody to tell, and a null object would read as zeros: wrong results.
  std::fprintf(stderr,
               "adjoint: out of memory in the closure runtime (%zu bytes) "
               "outside a call made by invoke()\n",
               bytes);
  std::abort();
}

void adjoint::rt::releaseRuntimeBlock(void *block) {
  if (block)
    releaseBlock(block);
}

extern "C" void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return track(MemoryPool::global().allocate(size), kBufferAlignment, size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment,
                                                    uint64_t size) {
  if (alignment <= kBufferAlignment)
    return _mlir_memref_to_llvm_alloc(size);
  bool powerOfTwo = (alignment & (alignment - 1)) == 0;
  return track(powerOfTwo ? systemBlock(alignment, size) : nullptr,
               powerOfTwo ? alignment : kBufferAlignment, size);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  if (CallContext *call = currentCall()) {
    std::lock_guard<std::mutex> lock(call->mutex);
    call->blocks.erase(ptr);
  }
  releaseBlock(ptr);
}

void adjoint::rt::setMaxCallDepth(int64_t limit) {
  gMaxCallDepth.store(limit, std::memory_order_relaxed);
}

int64_t adjoint::rt::maxCallDepth() {
  return gMaxCallDepth.load(std::memory_order_relaxed);
}

extern "C" void adj_rt_enter_recursive(const char *function) {
  int64_t limit = gMaxCallDepth.load(std::memory_order_relaxed);
  int64_t depth = ++tCallDepth;
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  bool tooDeep = depth > limit;
  if (!tooDeep && here >= stackFloor())
    return;
  CallContext *call = currentCall();
  if (!call) {
    std::fprintf(stderr,
                 "adjoint: recursion in @%s too deep (depth %lld) outside a "
                 "call made by invoke()\n",
                 function, static_cast<long long>(depth));
    std::abort();
  }
  // No object with a destructor may live in this frame across the jump:
  // the message is built in the call's own string.
  call->error = Status::error(
      StatusCode::ResourceExhausted,
      tooDeep ? "call depth limit of " + std::to_string(limit) +
                    " exceeded in @" + function + " (compiled code)"
              : "the stack is exhausted at call depth " +
                    std::to_string(depth) + " in @" + function +
                    " (compiled code; call depth limit " +
                    std::to_string(limit) + ")");
  callFailed(call);
}

extern "C" void adj_rt_leave_recursive() { --tCallDepth; }

void adjoint::rt::failCompiledCall(StatusCode code, const char *message) {
  CallContext *call = currentCall();
  if (!call) {
    std::fprintf(stderr, "adjoint: %s: %s\n", statusCodeName(code), message);
    std::abort();
  }
  // The status's string lives in the call: nothing with a destructor is
  // left in this frame when callFailed jumps.
  call->error = Status::error(code, message);
  callFailed(call);
}

std::string adjoint::rt::entrySymbol(const std::string &function) {
  return "_adj_entry_" + function;
}

std::string adjoint::rt::signatureSymbol(const std::string &function) {
  return "_adj_signature_" + function;
}

Status adjoint::rt::validateInputs(const Signature &signature,
                                   const std::vector<Tensor> &inputs) {
  if (inputs.size() != signature.inputs.size())
    return Status::error(StatusCode::InvalidArgument,
                         "expected " + std::to_string(signature.inputs.size()) +
                             " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSpec &spec = signature.inputs[i];
    if (!inputs[i].valid())
      return Status::error(StatusCode::InvalidArgument,
                           "input #" + std::to_string(i) +
                               " is an empty tensor, expected " + spec.str());
    if (!spec.matches(inputs[i]))
      return Status::error(StatusCode::InvalidArgument,
                           "input #" + std::to_string(i) + ": expected " +
                               spec.str() + ", got " +
                               inputs[i].typeString());
    if (!inputs[i].data() && spec.numel() != 0)
      return Status::error(StatusCode::InvalidArgument,
                           "input #" + std::to_string(i) +
                               " has no data");
  }
  return Status::success();
}

Status adjoint::rt::invoke(PackedEntry entry, const Signature &signature,
                           const std::vector<Tensor> &inputs,
                           std::vector<Tensor> &outputs, InvokeStats *stats,
                           Device *device) {
  outputs.clear();
  if (Status status = validateInputs(signature, inputs); !status.ok())
    return status;
  // Every device but the CPU is a GpuDevice (lib/Runtime/GPU).
  gpu::GpuDevice *gpuDevice =
      device && device->kind() != DeviceKind::CPU
          ? static_cast<gpu::GpuDevice *>(device)
          : nullptr;
  Device &target = gpuDevice ? *device : cpuDevice();
  for (size_t i = 0; i < inputs.size(); ++i) {
    bool here = gpuDevice ? &inputs[i].device() == device
                          : inputs[i].device().kind() == DeviceKind::CPU;
    if (!here)
      return Status::error(StatusCode::InvalidArgument,
                           "input #" + std::to_string(i) + " is on " +
                               inputs[i].device().id() + ", the call runs on " +
                               target.id() + ": copy it with Tensor::to()");
  }
  if (gpuDevice)
    if (Status status = gpuDevice->status(); !status.ok())
      return status;
  InvokeStats local;

  // Input descriptors, back to back in one vector. Host memory aligned to
  // its element is passed as is (compiled code writes only donated inputs
  // and assumes no more alignment than the element's: see Invoke.h); device
  // memory must be aligned to kBufferAlignment (the device pools' blocks
  // are; a view imported through DLPack at a byte offset may not be).
  // Anything else, and a donated input the call may not write, is copied
  // once, on its own device.
  std::vector<Tensor> copies;
  copies.reserve(inputs.size());
  size_t inputWords = 0;
  for (const Tensor &input : inputs)
    inputWords += 3 + 2 * input.shape().size();
  std::vector<int64_t> descriptors(inputWords);
  std::vector<void *> args(1 + inputs.size());
  size_t word = 0;
  // What each input's descriptor points to: the input, or its copy.
  std::vector<const Tensor *> passed(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor *input = &inputs[i];
    auto address = reinterpret_cast<uintptr_t>(input->data());
    bool usable = gpuDevice ? isBufferAligned(input->data())
                            : address % dtypeSize(input->dtype()) == 0;
    if (usable && signature.inputs[i].donated &&
        !isWritableDonation(inputs, i)) {
      usable = false;
      ++local.donatedCopied;
    }
    if (!usable) {
      try {
        copies.push_back(input->clone());
      } catch (const Error &e) {
        return Status::error(StatusCode::OutOfMemory, e.what());
      }
      input = &copies.back();
      ++local.inputsCopied;
    }
    passed[i] = input;
    int64_t *desc = descriptors.data() + word;
    args[1 + i] = desc;
    const std::vector<int64_t> &shape = input->shape();
    size_t rank = shape.size();
    word += 3 + 2 * rank;
    auto ptr = static_cast<int64_t>(reinterpret_cast<intptr_t>(input->data()));
    desc[0] = desc[1] = ptr;
    desc[2] = 0;
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      desc[3 + d] = shape[d];
      desc[3 + rank + d] = stride;
      stride *= shape[d];
    }
  }

  size_t resultWords = 0;
  for (const TensorSpec &spec : signature.outputs)
    resultWords += 3 + 2 * spec.shape.size();
  std::vector<int64_t> results(resultWords + 1, 0);
  args[0] = results.data();

  CallContext call;
  call.device = gpuDevice;
  void *outer = taskContext();
  int64_t arenaMark = adj_rt_mark();
  // A jump out of recursive code skips its leave calls: restore the depth.
  int64_t callDepth = tCallDepth;
  // On a GPU with graphs, the call's work may be recorded and launched as
  // one graph when it ends (GpuDeviceSteps.cpp). The guard ends a call
  // that did not return (an exception through compiled code) as failed.
  struct CallOnDevice {
    gpu::GpuDevice *device;
    bool recorded;
    bool ended = false;
    Status end(bool completed) {
      ended = true;
      return device ? device->endCall(recorded, completed)
                    : Status::success();
    }
    ~CallOnDevice() {
      if (!ended)
        (void)end(false);
    }
  } onDevice{gpuDevice,
             gpuDevice &&
                 gpuDevice->beginCall(reinterpret_cast<const void *>(entry))};
  setTaskContext(&call);
  bool completed = runGuarded(entry, args.data(), &call);
  setTaskContext(outer);
  tCallDepth = callDepth;
  if (Status status = onDevice.end(completed && !call.failed &&
                                   call.error.ok() && call.deviceError.ok());
      !status.ok() && call.deviceError.ok())
    call.deviceError = status;
  // Compiled code releases the closure objects it made before it returns,
  // but not when a hook jumped out of it; nothing it made can outlive the
  // call (its signature has no function values or environments).
  adj_rt_release(arenaMark);

  auto releaseAll = [&] {
    for (void *block : call.blocks)
      releaseBlock(block);
    call.blocks.clear();
    for (void *block : call.deviceBlocks)
      gpuDevice->deallocate(block);
    call.deviceBlocks.clear();
  };
  if (!call.deviceError.ok()) {
    releaseAll();
    return call.deviceError;
  }
  if (!call.error.ok()) {
    releaseAll();
    return call.error;
  }
  if (!completed || call.failed) {
    releaseAll();
    PoolStats pool = MemoryPool::global().stats();
    size_t limit = MemoryPool::global().byteLimit();
    return Status::error(
        StatusCode::OutOfMemory,
        std::string(call.failedInRuntime ? "the closure runtime"
                                         : "compiled code") +
            " could not allocate " +
            std::to_string(call.failedBytes) + " bytes (" +
            std::to_string(pool.bytesInUse) + " bytes in use" +
            (limit ? ", pool limit " + std::to_string(limit) + " bytes"
                   : std::string()) +
            ")");
  }

  // Outputs: a block of this call becomes caller-owned (one owner per
  // block, however many outputs view it); other memory is copied.
  std::unordered_map<void *, std::shared_ptr<void>> owners;
  word = 0;
  for (size_t i = 0; i < signature.outputs.size(); ++i) {
    const TensorSpec &spec = signature.outputs[i];
    const int64_t *desc = results.data() + word;
    size_t rank = spec.shape.size();
    word += 3 + 2 * rank;
    std::vector<int64_t> sizes(desc + 3, desc + 3 + rank);
    if (sizes != spec.shape) {
      outputs.clear();
      owners.clear();
      releaseAll();
      return Status::error(StatusCode::Internal,
                           "output #" + std::to_string(i) +
                               " of compiled code has the wrong shape for " +
                               spec.str());
    }
    auto *allocated = reinterpret_cast<void *>(desc[0]);
    char *data = reinterpret_cast<char *>(desc[1]) +
                 desc[2] * static_cast<int64_t>(dtypeSize(spec.dtype));
    const int64_t *strides = desc + 3 + rank;
    // Computed into a donated input (-adj-reuse-donated): the output is
    // that input's storage, on either kind of device.
    if (const Tensor *donor = donatedStorage(signature, passed, data, spec);
        donor && isRowMajor(spec.shape, strides)) {
      outputs.push_back(*donor);
      ++local.outputsDonated;
      continue;
    }
    if (gpuDevice) {
      // Device outputs: a block of this call becomes the tensor's storage;
      // anything else (an input, a constant) is copied into a new block.
      bool ours = owners.count(allocated) || call.deviceBlocks.count(allocated);
      if (ours && isRowMajor(spec.shape, strides)) {
        std::shared_ptr<void> &owner = owners[allocated];
        if (!owner) {
          owner = std::shared_ptr<void>(
              allocated, [gpuDevice](void *p) { gpuDevice->deallocate(p); });
          call.deviceBlocks.erase(allocated);
        }
        outputs.push_back(
            Tensor::adopt(spec.dtype, spec.shape, data, owner, device));
        continue;
      }
      Status copied;
      try {
        Tensor copy = Tensor::allocateOn(*device, spec.dtype, spec.shape);
        copied = copyDeviceOutput(*device, copy, data, spec.shape, strides,
                                  dtypeSize(spec.dtype));
        outputs.push_back(std::move(copy));
        ++local.outputsCopied;
      } catch (const Error &e) {
        copied = Status::error(StatusCode::OutOfMemory, e.what());
      }
      if (!copied.ok()) {
        outputs.clear();
        owners.clear();
        releaseAll();
        return copied;
      }
      continue;
    }
    bool ours = owners.count(allocated) || call.blocks.count(allocated);
    if (ours && isRowMajor(spec.shape, strides)) {
      std::shared_ptr<void> &owner = owners[allocated];
      if (!owner) {
        owner = std::shared_ptr<void>(allocated, releaseBlock);
        call.blocks.erase(allocated);
      }
      outputs.push_back(Tensor::adopt(spec.dtype, spec.shape, data, owner));
      continue;
    }
    try {
      Tensor copy = Tensor::allocate(spec.dtype, spec.shape);
      if (copy.byteSize())
        copyStrided(static_cast<char *>(copy.data()), data, spec.shape,
                    strides, dtypeSize(spec.dtype));
      outputs.push_back(std::move(copy));
      ++local.outputsCopied;
    } catch (const Error &e) {
      outputs.clear();
      owners.clear();
      releaseAll();
      return Status::error(StatusCode::OutOfMemory, e.what());
    }
  }
  local.blocksReleased =
      static_cast<unsigned>(call.blocks.size() + call.deviceBlocks.size());
  releaseAll();
  if (stats)
    *stats = local;
  return Status::success();
}
