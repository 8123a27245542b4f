//===- PoolTest.cpp - Aligned buffers and the memory pool -----------------===//

#include "adjoint/Runtime/AlignedBuffer.h"
#include "adjoint/Runtime/MemoryPool.h"

#include <catch2/catch.hpp>

#include <set>
#include <thread>
#include <vector>

using namespace adjoint::rt;

TEST_CASE("aligned buffers are 64-byte aligned and movable") {
  for (size_t bytes : {size_t(0), size_t(1), size_t(63), size_t(64),
                       size_t(1000), size_t(1) << 20}) {
    AlignedBuffer buffer(bytes);
    REQUIRE(buffer);
    REQUIRE(isBufferAligned(buffer.data()));
    REQUIRE(buffer.size() == bytes);
    AlignedBuffer moved = std::move(buffer);
    REQUIRE(!buffer);
    REQUIRE(moved);
  }
  REQUIRE(!isBufferAligned(reinterpret_cast<void *>(uintptr_t(64 + 4))));
}

TEST_CASE("size classes are four per power of two, multiples of 64") {
  REQUIRE(MemoryPool::roundToSizeClass(0) == 64);
  REQUIRE(MemoryPool::roundToSizeClass(1) == 64);
  REQUIRE(MemoryPool::roundToSizeClass(65) == 128);
  REQUIRE(MemoryPool::roundToSizeClass(256) == 256);
  REQUIRE(MemoryPool::roundToSizeClass(257) == 320);
  REQUIRE(MemoryPool::roundToSizeClass(1000) == 1024);
  REQUIRE(MemoryPool::roundToSizeClass(1025) == 1280);
  REQUIRE(MemoryPool::roundToSizeClass(3000) == 3072);
  for (size_t bytes = 1; bytes < 100000; bytes = bytes * 3 / 2 + 1) {
    size_t size = MemoryPool::roundToSizeClass(bytes);
    REQUIRE(size >= bytes);
    REQUIRE(size % 64 == 0);
    // Waste is at most a quarter of the request above 256 bytes.
    if (bytes > 256)
      REQUIRE(size - bytes <= bytes / 4 + 1);
  }
}

TEST_CASE("the pool reuses freed blocks of the same class") {
  MemoryPool pool;
  void *a = pool.allocate(1000);
  REQUIRE(a);
  REQUIRE(isBufferAligned(a));
  REQUIRE(pool.owns(a));
  REQUIRE(pool.blockSize(a) == 1024);
  REQUIRE(pool.deallocate(a));
  REQUIRE(!pool.owns(a));
  PoolStats before = pool.stats();
  REQUIRE(before.bytesCached == 1024);
  void *b = pool.allocate(990); // same class
  REQUIRE(b == a);
  PoolStats after = pool.stats();
  REQUIRE(after.reused == before.reused + 1);
  REQUIRE(after.systemAllocations == before.systemAllocations);
  REQUIRE(after.bytesCached == 0);
  REQUIRE(after.bytesInUse == 1024);
  REQUIRE(pool.deallocate(b));
  pool.trim();
  REQUIRE(pool.stats().bytesCached == 0);
  REQUIRE(pool.stats().liveBlocks == 0);
}

TEST_CASE("the pool ignores pointers it did not hand out") {
  MemoryPool pool;
  int local = 0;
  REQUIRE(!pool.deallocate(&local));
  REQUIRE(!pool.deallocate(nullptr));
  void *a = pool.allocate(64);
  REQUIRE(pool.deallocate(a));
  REQUIRE(!pool.deallocate(a)); // a second free is not a second release
  REQUIRE(pool.stats().deallocations == 1);
}

TEST_CASE("the byte limit makes allocations fail with nullptr") {
  MemoryPool pool;
  pool.setByteLimit(4096);
  REQUIRE(pool.byteLimit() == 4096);
  void *a = pool.allocate(3000); // 3072-byte block
  REQUIRE(a);
  void *b = pool.allocate(2000); // would exceed the limit
  REQUIRE(b == nullptr);
  REQUIRE(pool.stats().failures == 1);
  void *small = pool.allocate(1000); // 1024 more still fits
  REQUIRE(small);
  // Cached blocks count towards the limit but are released on demand.
  REQUIRE(pool.deallocate(a));
  void *c = pool.allocate(2000);
  REQUIRE(c);
  REQUIRE(pool.stats().bytesInUse + pool.stats().bytesCached <= 4096);
  pool.setByteLimit(0);
  void *big = pool.allocate(1 << 20);
  REQUIRE(big);
  REQUIRE(pool.stats().peakBytesInUse >= (1 << 20));
  pool.deallocate(big);
  pool.resetPeak();
  REQUIRE(pool.stats().peakBytesInUse == pool.stats().bytesInUse);
  // The pool frees what it caches, not what is in use (LeakSanitizer).
  REQUIRE(pool.deallocate(small));
  REQUIRE(pool.deallocate(c));
}

TEST_CASE("the pool is thread-safe") {
  MemoryPool pool;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&pool, t] {
      std::vector<void *> blocks;
      for (int i = 0; i < 2000; ++i) {
        blocks.push_back(pool.allocate(64 * ((i + t) % 17 + 1)));
        if (i % 3 == 0) {
          pool.deallocate(blocks.front());
          blocks.erase(blocks.begin());
        }
      }
      for (void *b : blocks)
        pool.deallocate(b);
    });
  for (std::thread &t : threads)
    t.join();
  PoolStats stats = pool.stats();
  REQUIRE(stats.liveBlocks == 0);
  REQUIRE(stats.bytesInUse == 0);
  REQUIRE(stats.allocations == 8000);
  REQUIRE(stats.deallocations == 8000);
  REQUIRE(stats.failures == 0);
}
