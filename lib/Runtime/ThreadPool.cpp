//===- ThreadPool.cpp - Fixed worker threads for parallel loops -----------===//

#include "adjoint/Runtime/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

using namespace adjoint::rt;

namespace {
/// How long an idle worker polls for the next loop before it sleeps.
constexpr std::chrono::microseconds kSpin(200);

/// Set while this thread runs a chunk of some pool, so that a nested loop
/// runs serially instead of waiting for threads that are busy with us.
thread_local bool tInsideChunk = false;
thread_local void *tTaskContext = nullptr;

struct ChunkScope {
  bool saved = tInsideChunk;
  ChunkScope() { tInsideChunk = true; }
  ~ChunkScope() { tInsideChunk = saved; }
};

/// Installs the task context of the loop's caller on a worker.
struct TaskContextScope {
  void *saved = tTaskContext;
  explicit TaskContextScope(void *context) { tTaskContext = context; }
  ~TaskContextScope() { tTaskContext = saved; }
};
} // namespace

bool adjoint::rt::insideParallelChunk() { return tInsideChunk; }
void *adjoint::rt::taskContext() { return tTaskContext; }
void adjoint::rt::setTaskContext(void *context) { tTaskContext = context; }

struct ThreadPool::Impl {
  unsigned numThreads = 1;
  std::vector<std::thread> workers;

  /// Serializes loops: a second concurrent loop runs serially instead.
  std::mutex busy;

  std::mutex mutex;
  std::condition_variable wake;
  std::condition_variable finished;
  bool stopping = false;
  uint64_t generation = 0;
  /// `generation`, readable without the mutex by workers that spin.
  std::atomic<uint64_t> published{0};
  unsigned pendingWorkers = 0;

  // The loop being run (valid while pendingWorkers > 0 or the caller runs).
  const std::function<void(int64_t, int64_t)> *body = nullptr;
  int64_t begin = 0, end = 0, grain = 1, numChunks = 0;
  std::atomic<int64_t> nextChunk{0};
  std::exception_ptr error;
  void *taskContext = nullptr;

  void runChunks() {
    ChunkScope scope;
    TaskContextScope context(taskContext);
    for (;;) {
      int64_t chunk = nextChunk.fetch_add(1, std::memory_order_relaxed);
      if (chunk >= numChunks)
        return;
      int64_t b = begin + chunk * grain;
      int64_t e = std::min(end, b + grain);
      try {
        (*body)(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!error)
          error = std::current_exception();
      }
    }
  }

  void workerLoop() {
    uint64_t seen = 0;
    for (;;) {
      // Poll a little before sleeping: a loop issued within kSpin (the next
      // kernel or loop of the same compiled function) then starts without
      // the tens of microseconds a futex wake-up costs.
      auto until = std::chrono::steady_clock::now() + kSpin;
      for (int i = 0; published.load(std::memory_order_acquire) == seen; ++i) {
        if (i % 64 == 63 && std::chrono::steady_clock::now() > until)
          break;
        std::this_thread::yield();
      }
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stopping || generation != seen; });
        if (stopping)
          return;
        seen = generation;
      }
      runChunks();
      std::lock_guard<std::mutex> lock(mutex);
      if (--pendingWorkers == 0)
        finished.notify_one();
    }
  }
};

ThreadPool::ThreadPool(unsigned numThreads) : impl_(std::make_unique<Impl>()) {
  if (numThreads == 0)
    numThreads = std::max(1u, std::thread::hardware_concurrency());
  impl_->numThreads = numThreads;
  for (unsigned i = 1; i < numThreads; ++i)
    impl_->workers.emplace_back([this] { impl_->workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->wake.notify_all();
  for (std::thread &worker : impl_->workers)
    worker.join();
}

ThreadPool &ThreadPool::global() {
  // Never destroyed: joining threads during static destruction can hang
  // when the process exits from inside a loop.
  static ThreadPool *pool = [] {
    unsigned threads = 0;
    if (const char *env = std::getenv("ADJOINT_NUM_THREADS")) {
      long n = std::strtol(env, nullptr, 10);
      if (n > 0)
        threads = static_cast<unsigned>(n);
    }
    return new ThreadPool(threads);
  }();
  return *pool;
}

unsigned ThreadPool::numThreads() const { return impl_->numThreads; }

void ThreadPool::parallelFor(
    int64_t begin, int64_t end, int64_t grain,
    const std::function<void(int64_t, int64_t)> &body) {
  if (end <= begin)
    return;
  int64_t count = end - begin;
  if (grain <= 0)
    grain = (count + impl_->numThreads - 1) / impl_->numThreads;
  int64_t numChunks = (count + grain - 1) / grain;
  if (numChunks == 1 || impl_->workers.empty() || tInsideChunk) {
    ChunkScope scope;
    for (int64_t b = begin; b < end; b += grain)
      body(b, std::min(end, b + grain));
    return;
  }
  std::unique_lock<std::mutex> busy(impl_->busy, std::try_to_lock);
  if (!busy.owns_lock()) {
    ChunkScope scope;
    for (int64_t b = begin; b < end; b += grain)
      body(b, std::min(end, b + grain));
    return;
  }

  Impl &s = *impl_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.body = &body;
    s.begin = begin;
    s.end = end;
    s.grain = grain;
    s.numChunks = numChunks;
    s.nextChunk.store(0, std::memory_order_relaxed);
    s.error = nullptr;
    s.taskContext = tTaskContext;
    s.pendingWorkers = static_cast<unsigned>(s.workers.size());
    ++s.generation;
    s.published.store(s.generation, std::memory_order_release);
  }
  s.wake.notify_all();
  s.runChunks();
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    s.finished.wait(lock, [&] { return s.pendingWorkers == 0; });
    s.body = nullptr;
    error = std::exchange(s.error, nullptr);
  }
  if (error)
    std::rethrow_exception(error);
}

extern "C" void adjrt_parallel_for(int64_t begin, int64_t end, int64_t grain,
                                   void (*fn)(void *, int64_t, int64_t),
                                   void *ctx) {
  ThreadPool::global().parallelFor(
      begin, end, grain, [&](int64_t b, int64_t e) { fn(ctx, b, e); });
}
