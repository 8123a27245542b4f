//===- CachingAllocator.cpp - Device memory kept for reuse ----------------===//

#include "GPU/CachingAllocator.h"

#include <algorithm>

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

CachingAllocator::CachingAllocator(Backend backend)
    : backend_(std::move(backend)) {}

// Devices live for the whole process; blocks still cached at exit go back
// to the system with it (the driver may already be unloaded by then).
CachingAllocator::~CachingAllocator() = default;

size_t CachingAllocator::roundSize(size_t bytes) {
  size_t size = MemoryPool::roundToSizeClass(std::max<size_t>(bytes, 1));
  return (size + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment;
}

Status CachingAllocator::allocate(size_t bytes, void **ptr) {
  *ptr = nullptr;
  size_t size = roundSize(bytes);
  if (size < bytes)
    return Status::error(StatusCode::OutOfMemory,
                         "cannot allocate " + std::to_string(bytes) +
                             " bytes of device memory");
  auto handOut = [&](void *block) {
    live_[block] = size;
    ++stats_.allocations;
    ++stats_.liveBlocks;
    stats_.bytesInUse += size;
    stats_.peakBytesInUse = std::max(stats_.peakBytesInUse, stats_.bytesInUse);
    *ptr = block;
  };
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(size);
    if (it != free_.end() && !it->second.empty()) {
      void *block = it->second.back();
      it->second.pop_back();
      stats_.bytesCached -= size;
      ++stats_.reused;
      handOut(block);
      return Status::success();
    }
  }
  auto overLimit = [&] {
    std::lock_guard<std::mutex> lock(mutex_);
    return limit_ &&
           stats_.bytesInUse + stats_.bytesCached + size > limit_;
  };
  if (overLimit())
    releaseCached();
  Status status;
  void *block = nullptr;
  if (overLimit()) {
    std::lock_guard<std::mutex> lock(mutex_);
    status = Status::error(
        StatusCode::OutOfMemory,
        "cannot allocate " + std::to_string(bytes) +
            " bytes of device memory: " + std::to_string(stats_.bytesInUse) +
            " bytes in use, limit " + std::to_string(limit_) + " bytes");
  } else {
    status = backend_.allocate(size, &block);
    if (!status.ok()) {
      // The driver's memory may be held by our own cache: give it back
      // and try once more.
      releaseCached();
      status = backend_.allocate(size, &block);
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!status.ok()) {
    ++stats_.failures;
    return status;
  }
  ++stats_.systemAllocations;
  handOut(block);
  return Status::success();
}

bool CachingAllocator::deallocate(void *ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(ptr);
  if (it == live_.end())
    return false;
  size_t size = it->second;
  live_.erase(it);
  free_[size].push_back(ptr);
  ++stats_.deallocations;
  --stats_.liveBlocks;
  stats_.bytesInUse -= size;
  stats_.bytesCached += size;
  return true;
}

bool CachingAllocator::owns(const void *ptr) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_.count(ptr) != 0;
}

void CachingAllocator::releaseCached() {
  decltype(free_) cached;
  size_t bytes = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cached.swap(free_);
    bytes = stats_.bytesCached;
    stats_.bytesCached = 0;
  }
  if (cached.empty())
    return;
  if (!backend_.quiesce()) {
    // Queued work may still use them: back to the cache.
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto &[size, list] : cached)
      free_[size].insert(free_[size].end(), list.begin(), list.end());
    stats_.bytesCached += bytes;
    return;
  }
  for (auto &[size, list] : cached)
    for (void *block : list)
      backend_.release(block);
}

void CachingAllocator::emptyCache() { releaseCached(); }

void CachingAllocator::setByteLimit(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  limit_ = bytes;
}

PoolStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}
