//===- PinnedPool.cpp - Page-locked host blocks kept for reuse ------------===//

#include "GPU/PinnedPool.h"

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {
constexpr size_t kMinBlock = 4096;

size_t blockSize(size_t bytes) {
  size_t size = kMinBlock;
  while (size < bytes)
    size *= 2;
  return size;
}
} // namespace

PinnedPool::PinnedPool(Backend backend, size_t maxCachedBytes)
    : backend_(std::move(backend)), maxCachedBytes_(maxCachedBytes) {}

PinnedPool::~PinnedPool() { trim(); }

Status PinnedPool::allocate(size_t bytes, void **ptr) {
  size_t size = blockSize(bytes);
  std::vector<void *> &list = free_[size];
  if (!list.empty()) {
    *ptr = list.back();
    list.pop_back();
    cachedBytes_ -= size;
  } else {
    if (Status status = backend_.allocate(size, ptr); !status.ok())
      return status;
    ++driverAllocations_;
  }
  live_[*ptr] = size;
  return Status::success();
}

bool PinnedPool::release(void *ptr) {
  auto it = live_.find(ptr);
  if (it == live_.end())
    return false;
  size_t size = it->second;
  live_.erase(it);
  if (cachedBytes_ + size > maxCachedBytes_) {
    backend_.release(ptr);
    return true;
  }
  free_[size].push_back(ptr);
  cachedBytes_ += size;
  return true;
}

void PinnedPool::trim() {
  for (auto &[size, list] : free_)
    for (void *ptr : list)
      backend_.release(ptr);
  free_.clear();
  cachedBytes_ = 0;
}
