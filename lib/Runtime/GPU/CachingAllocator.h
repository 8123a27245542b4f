//===- CachingAllocator.h - Device memory kept for reuse --------*- C++ -*-===//
//
// Driver allocations of device memory are slow (a system call, often a
// device synchronization), and a training step asks for the same sizes
// again and again, so blocks freed by compiled code stay with the device
// on a free list per size class and are handed out again, as PyTorch's CUDA
// caching allocator does. Sizes are rounded up to the host pool's size
// classes (four per power of two) and to 256 bytes, the alignment every
// block has. When the driver refuses, the cached blocks go back to it and
// the allocation is tried once more.
//
// Blocks are only handed out again to work queued after the free on the
// device's one in-order queue, so a block freed while kernels still use it
// is safe to reuse. Before cached blocks go back to the driver, the device
// waits for its queue (the `quiesce` hook).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_CACHINGALLOCATOR_H
#define ADJOINT_LIB_RUNTIME_GPU_CACHINGALLOCATOR_H

#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace adjoint::rt::gpu {

/// The alignment of every device block.
constexpr size_t kDeviceAlignment = 256;

class CachingAllocator {
public:
  /// What the allocator needs from the driver.
  struct Backend {
    /// A fresh driver block of `bytes`, aligned to kDeviceAlignment.
    std::function<Status(size_t bytes, void **ptr)> allocate;
    /// Gives a driver block back; called only after `quiesce`.
    std::function<void(void *ptr)> release;
    /// Waits until no queued work can still use a cached block; false when
    /// it cannot (the device fails, or its queue is being captured into a
    /// graph): the cached blocks are kept then.
    std::function<bool()> quiesce;
  };

  explicit CachingAllocator(Backend backend);
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator &) = delete;
  CachingAllocator &operator=(const CachingAllocator &) = delete;

  /// A block of at least `bytes` (a zero-byte request gets a minimal block).
  Status allocate(size_t bytes, void **ptr);
  /// Puts a block of allocate() on its free list; false (and nothing done)
  /// for a pointer that is not a live block of this allocator.
  bool deallocate(void *ptr);
  /// Whether `ptr` is a live block.
  bool owns(const void *ptr) const;
  /// Gives every cached block back to the driver.
  void emptyCache();
  /// Caps the bytes held (in use plus cached); 0 means no limit.
  void setByteLimit(size_t bytes);
  PoolStats stats() const;

  /// The block size a request of `bytes` gets.
  static size_t roundSize(size_t bytes);

private:
  /// Takes the free lists (under the lock) and releases them (outside it:
  /// quiesce takes the device's lock, which may be held by a thread that
  /// waits for this one).
  void releaseCached();

  Backend backend_;
  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void *>> free_;
  std::unordered_map<const void *, size_t> live_;
  PoolStats stats_;
  size_t limit_ = 0;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_CACHINGALLOCATOR_H
