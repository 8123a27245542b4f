//===- MemoryPool.h - Size-class caching allocator --------------*- C++ -*-===//
//
// Compiled code allocates every intermediate buffer through the pool, and a
// training step allocates the same sizes again and again, so freed blocks
// are kept on per-size-class free lists and handed out again instead of
// going back to the system. Size classes are four per power of two
// (1, 1.25, 1.5 and 1.75 times 2^k, rounded to 64 bytes), so a block wastes
// at most a fifth of its size. Blocks above a maximum class go straight to
// the system.
//
// An optional byte limit caps the memory the pool holds (in use plus
// cached): an allocation that would exceed it first releases the cache and
// then fails with nullptr. Tests use it to provoke allocation failures.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_MEMORYPOOL_H
#define ADJOINT_RUNTIME_MEMORYPOOL_H

#include <cstddef>
#include <cstdint>
#include <memory>

namespace adjoint::rt {

/// Counters of a MemoryPool; bytes are block bytes (request rounded up to
/// its size class).
struct PoolStats {
  /// allocate() calls that returned memory, and deallocate() calls.
  uint64_t allocations = 0;
  uint64_t deallocations = 0;
  /// Allocations served from a free list, and from the system.
  uint64_t reused = 0;
  uint64_t systemAllocations = 0;
  /// allocate() calls that returned nullptr.
  uint64_t failures = 0;
  /// Blocks and bytes handed out and not yet returned.
  uint64_t liveBlocks = 0;
  uint64_t bytesInUse = 0;
  /// The largest bytesInUse seen (reset by resetPeak()).
  uint64_t peakBytesInUse = 0;
  /// Bytes on the free lists.
  uint64_t bytesCached = 0;
};

/// A thread-safe caching allocator of 64-byte aligned blocks.
class MemoryPool {
public:
  /// Blocks larger than this are not cached.
  static constexpr size_t kMaxCachedBlock = size_t(1) << 30;

  MemoryPool();
  ~MemoryPool();
  MemoryPool(const MemoryPool &) = delete;
  MemoryPool &operator=(const MemoryPool &) = delete;

  /// The process-wide pool that compiled code and runtime tensors use. It is
  /// never destroyed (tensors may outlive static destructors).
  static MemoryPool &global();

  /// A 64-byte aligned block of at least `bytes` bytes (a zero-byte request
  /// gets a distinct minimal block), or nullptr when the byte limit or the
  /// system refuses.
  void *allocate(size_t bytes);
  /// Returns a block from allocate() and says true. nullptr, and a pointer
  /// that this pool did not hand out, are left alone (false), so a stray
  /// free from compiled code cannot corrupt the free lists.
  bool deallocate(void *ptr);
  /// Whether `ptr` is a live block of this pool.
  bool owns(const void *ptr) const;
  /// The block size behind a live block (0 if not owned).
  size_t blockSize(const void *ptr) const;

  /// Caps the bytes held (in use plus cached); 0 means no limit. Lowering
  /// the limit does not release blocks in use.
  void setByteLimit(size_t bytes);
  size_t byteLimit() const;
  /// Caps the bytes kept on the free lists (default 1 GiB); a freed block
  /// that does not fit goes back to the system.
  void setMaxCachedBytes(size_t bytes);

  /// Releases every cached block to the system.
  void trim();

  PoolStats stats() const;
  /// Sets peakBytesInUse to the current bytesInUse.
  void resetPeak();

  /// The block size a request of `bytes` gets.
  static size_t roundToSizeClass(size_t bytes);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_MEMORYPOOL_H
