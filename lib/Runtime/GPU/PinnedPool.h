//===- PinnedPool.h - Page-locked host blocks kept for reuse ----*- C++ -*-===//
//
// Pinned (page-locked) host memory is what the copy engines read and write
// directly: an upload from it is truly asynchronous, and a copy from
// pageable memory goes through the driver's own pinned bounce buffer at
// about half the bandwidth. Pinning is slow (it maps pages for the device),
// so the blocks that stage small uploads are kept on free lists per power
// of two and reused, up to a cap of cached bytes.
//
// Not thread-safe: the CUDA and HIP devices call it with their lock held.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_PINNEDPOOL_H
#define ADJOINT_LIB_RUNTIME_GPU_PINNEDPOOL_H

#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <functional>
#include <unordered_map>
#include <vector>

namespace adjoint::rt::gpu {

class PinnedPool {
public:
  /// The driver's pinned allocation and release.
  struct Backend {
    std::function<Status(size_t bytes, void **ptr)> allocate;
    std::function<void(void *ptr)> release;
  };
  /// Free blocks past `maxCachedBytes` go back to the driver.
  PinnedPool(Backend backend, size_t maxCachedBytes);
  ~PinnedPool();
  PinnedPool(const PinnedPool &) = delete;
  PinnedPool &operator=(const PinnedPool &) = delete;

  /// A pinned block of at least `bytes` (a power of two, 4 KiB or more).
  Status allocate(size_t bytes, void **ptr);
  /// Puts a block of allocate() back on its free list; false (and nothing
  /// done) for memory that is not a live block of this pool.
  bool release(void *ptr);
  /// Gives every free block back to the driver.
  void trim();

  /// Blocks handed out and not released, and free bytes kept.
  size_t liveBlocks() const { return live_.size(); }
  size_t cachedBytes() const { return cachedBytes_; }
  /// Driver allocations so far (reuse does not count).
  size_t driverAllocations() const { return driverAllocations_; }

private:
  Backend backend_;
  size_t maxCachedBytes_;
  std::unordered_map<size_t, std::vector<void *>> free_;
  std::unordered_map<void *, size_t> live_;
  size_t cachedBytes_ = 0;
  size_t driverAllocations_ = 0;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_PINNEDPOOL_H
