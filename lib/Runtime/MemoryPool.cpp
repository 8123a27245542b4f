//===- MemoryPool.cpp - Size-class caching allocator ----------------------===//

#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/AlignedBuffer.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace adjoint::rt;

struct MemoryPool::Impl {
  mutable std::mutex mutex;
  /// Live block -> its size class.
  std::unordered_map<void *, size_t> live;
  /// Size class -> cached blocks.
  std::unordered_map<size_t, std::vector<void *>> freeLists;
  size_t limit = 0;
  size_t maxCached = size_t(1) << 30;
  PoolStats stats;

  uint64_t held() const { return stats.bytesInUse + stats.bytesCached; }

  void releaseCache() {
    for (auto &[size, blocks] : freeLists) {
      for (void *block : blocks)
        alignedFree(block);
      stats.bytesCached -= size * blocks.size();
      blocks.clear();
    }
  }
};

MemoryPool::MemoryPool() : impl_(std::make_unique<Impl>()) {}

MemoryPool::~MemoryPool() {
  // Blocks still in use belong to someone else's tensors; only the cache
  // is ours to release.
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->releaseCache();
}

MemoryPool &MemoryPool::global() {
  static MemoryPool *pool = new MemoryPool();
  return *pool;
}

size_t MemoryPool::roundToSizeClass(size_t bytes) {
  constexpr size_t kQuantum = kBufferAlignment;
  if (bytes <= 4 * kQuantum)
    return std::max<size_t>(kQuantum, (bytes + kQuantum - 1) / kQuantum *
                                          kQuantum);
  if (bytes > (std::numeric_limits<size_t>::max() >> 2))
    return bytes;
  // Four classes per power of two: steps of a quarter of it.
  size_t power = std::bit_floor(bytes);
  size_t step = power / 4;
  return (bytes + step - 1) / step * step;
}

void *MemoryPool::allocate(size_t bytes) {
  size_t size = roundToSizeClass(bytes);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Impl &s = *impl_;
  void *block = nullptr;
  auto it = s.freeLists.find(size);
  if (it != s.freeLists.end() && !it->second.empty()) {
    block = it->second.back();
    it->second.pop_back();
    s.stats.bytesCached -= size;
    ++s.stats.reused;
  } else {
    // Written as a subtraction: held() + size can wrap for a huge request.
    auto fits = [&] {
      return s.limit == 0 || (size <= s.limit && s.held() <= s.limit - size);
    };
    if (!fits())
      s.releaseCache();
    if (fits()) {
      block = alignedAlloc(size);
      if (!block) {
        // The system is short of memory: give back what we cache, retry.
        s.releaseCache();
        block = alignedAlloc(size);
      }
    }
    if (!block) {
      ++s.stats.failures;
      return nullptr;
    }
    ++s.stats.systemAllocations;
  }
  s.live.emplace(block, size);
  ++s.stats.allocations;
  ++s.stats.liveBlocks;
  s.stats.bytesInUse += size;
  s.stats.peakBytesInUse =
      std::max(s.stats.peakBytesInUse, s.stats.bytesInUse);
  return block;
}

bool MemoryPool::deallocate(void *ptr) {
  if (!ptr)
    return false;
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Impl &s = *impl_;
  auto it = s.live.find(ptr);
  if (it == s.live.end())
    return false;
  size_t size = it->second;
  s.live.erase(it);
  ++s.stats.deallocations;
  --s.stats.liveBlocks;
  s.stats.bytesInUse -= size;
  bool cache = size <= kMaxCachedBlock &&
               s.stats.bytesCached + size <= s.maxCached &&
               (s.limit == 0 || s.held() + size <= s.limit);
  if (cache) {
    s.freeLists[size].push_back(ptr);
    s.stats.bytesCached += size;
  } else {
    alignedFree(ptr);
  }
  return true;
}

bool MemoryPool::owns(const void *ptr) const { return blockSize(ptr) != 0; }

size_t MemoryPool::blockSize(const void *ptr) const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  auto it = impl_->live.find(const_cast<void *>(ptr));
  return it == impl_->live.end() ? 0 : it->second;
}

void MemoryPool::setByteLimit(size_t bytes) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->limit = bytes;
  if (bytes != 0 && impl_->held() > bytes)
    impl_->releaseCache();
}

size_t MemoryPool::byteLimit() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->limit;
}

void MemoryPool::setMaxCachedBytes(size_t bytes) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->maxCached = bytes;
  if (impl_->stats.bytesCached > bytes)
    impl_->releaseCache();
}

void MemoryPool::trim() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->releaseCache();
}

PoolStats MemoryPool::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->stats;
}

void MemoryPool::resetPeak() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->stats.peakBytesInUse = impl_->stats.bytesInUse;
}
