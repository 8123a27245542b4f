//===- ThreadPoolTest.cpp - parallelFor -----------------------------------===//

#include "adjoint/Runtime/ThreadPool.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace adjoint::rt;

TEST_CASE("parallelFor covers the range exactly once in bounded chunks") {
  ThreadPool pool(4);
  REQUIRE(pool.numThreads() == 4);
  for (int64_t grain : {int64_t(0), int64_t(1), int64_t(7), int64_t(1000)}) {
    std::vector<std::atomic<int>> hits(1001);
    std::atomic<int64_t> maxChunk{0};
    std::atomic<bool> emptyChunk{false};
    // No Catch2 assertions inside chunks: they may run on other threads.
    pool.parallelFor(3, 1001, grain, [&](int64_t b, int64_t e) {
      if (b >= e)
        emptyChunk = true;
      int64_t len = e - b;
      int64_t seen = maxChunk.load();
      while (len > seen && !maxChunk.compare_exchange_weak(seen, len)) {
      }
      for (int64_t i = b; i < e; ++i)
        ++hits[i];
    });
    REQUIRE(!emptyChunk);
    for (int64_t i = 0; i < 1001; ++i)
      REQUIRE(hits[i] == (i >= 3 ? 1 : 0));
    if (grain > 0)
      REQUIRE(maxChunk <= grain);
  }
  // Empty and reversed ranges run nothing.
  bool ran = false;
  pool.parallelFor(5, 5, 1, [&](int64_t, int64_t) { ran = true; });
  pool.parallelFor(5, 2, 1, [&](int64_t, int64_t) { ran = true; });
  REQUIRE(!ran);
}

TEST_CASE("parallelFor runs chunks on several threads") {
  ThreadPool pool(4);
  std::mutex mutex;
  std::set<std::thread::id> ids;
  // Chunks that wait until a second thread shows up make the check
  // independent of scheduling luck (bounded, so it cannot hang).
  std::atomic<int> started{0};
  pool.parallelFor(0, 4, 1, [&](int64_t, int64_t) {
    ++started;
    for (int spin = 0; spin < 200000 && started < 2; ++spin)
      std::this_thread::yield();
    std::lock_guard<std::mutex> lock(mutex);
    ids.insert(std::this_thread::get_id());
  });
  REQUIRE(ids.size() >= 2);
}

TEST_CASE("nested and concurrent parallelFor do not deadlock") {
  ThreadPool pool(3);
  std::atomic<int64_t> sum{0};
  pool.parallelFor(0, 8, 1, [&](int64_t b, int64_t e) {
    pool.parallelFor(0, 100, 10, [&](int64_t ib, int64_t ie) {
      for (int64_t i = ib; i < ie; ++i)
        sum += i;
    });
  });
  REQUIRE(sum == 8 * 4950);

  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t)
    callers.emplace_back([&] {
      for (int r = 0; r < 20; ++r)
        pool.parallelFor(0, 100, 3, [&](int64_t b, int64_t e) {
          total += e - b;
        });
    });
  for (std::thread &t : callers)
    t.join();
  REQUIRE(total == 3 * 20 * 100);
}

TEST_CASE("an exception in a chunk reaches the caller") {
  ThreadPool pool(4);
  std::atomic<int> ran{0};
  REQUIRE_THROWS_AS(pool.parallelFor(0, 16, 1,
                                     [&](int64_t b, int64_t) {
                                       ++ran;
                                       if (b == 5)
                                         throw std::runtime_error("chunk 5");
                                     }),
                    std::runtime_error);
  REQUIRE(ran == 16); // the other chunks still ran
  // The pool is still usable.
  std::atomic<int> after{0};
  pool.parallelFor(0, 10, 1, [&](int64_t, int64_t) { ++after; });
  REQUIRE(after == 10);
}

namespace {
void addRange(void *ctx, int64_t b, int64_t e) {
  auto *sum = static_cast<std::atomic<int64_t> *>(ctx);
  for (int64_t i = b; i < e; ++i)
    *sum += i;
}
} // namespace

TEST_CASE("the C entry point runs on the global pool") {
  REQUIRE(ThreadPool::global().numThreads() >= 1);
  std::atomic<int64_t> sum{0};
  adjrt_parallel_for(0, 1000, 64, &addRange, &sum);
  REQUIRE(sum == 999 * 1000 / 2);
}

TEST_CASE("a single-thread pool runs everything on the caller") {
  ThreadPool pool(1);
  std::thread::id caller = std::this_thread::get_id();
  bool elsewhere = false;
  pool.parallelFor(0, 50, 5, [&](int64_t, int64_t) {
    elsewhere |= std::this_thread::get_id() != caller;
  });
  REQUIRE(!elsewhere);
}
