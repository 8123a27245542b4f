//===- ThreadPool.h - Fixed worker threads for parallel loops ---*- C++ -*-===//
//
// Kernels and compiled loops split an index range into chunks and run them
// on a fixed set of threads. The calling thread takes chunks too, so a pool
// of N threads has N - 1 background workers. Workers sleep on a condition
// variable between loops.
//
// One loop runs at a time: a parallelFor issued while another is running
// (from another thread, or nested inside a chunk) runs serially on its
// caller instead of waiting, which keeps nested parallelism deadlock-free.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_THREADPOOL_H
#define ADJOINT_RUNTIME_THREADPOOL_H

#include <cstdint>
#include <functional>
#include <memory>

namespace adjoint::rt {

class ThreadPool {
public:
  /// A pool of `numThreads` threads including the caller; 0 means the
  /// hardware concurrency.
  explicit ThreadPool(unsigned numThreads = 0);
  /// Stops and joins the workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// The process-wide pool; its size is $ADJOINT_NUM_THREADS when set to a
  /// positive number, else the hardware concurrency.
  static ThreadPool &global();

  /// Threads that run chunks, the caller included.
  unsigned numThreads() const;

  /// Calls `body(b, e)` on disjoint chunks [b, e) covering [begin, end),
  /// each at most `grain` long (grain <= 0 picks one chunk per thread), and
  /// returns when all have run. The first exception a chunk throws is
  /// rethrown here after the others finished.
  void parallelFor(int64_t begin, int64_t end, int64_t grain,
                   const std::function<void(int64_t, int64_t)> &body);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Whether the calling thread is running a chunk of a parallelFor (then it
/// must neither longjmp out of it nor wait for other chunks).
bool insideParallelChunk();

/// An opaque per-thread pointer that the chunks of a parallelFor inherit
/// from the thread that started the loop: workers see the caller's value
/// while they run its chunks. invoke() keeps its call state here, so that
/// allocations made by compiled code on worker threads count for the call.
void *taskContext();
void setTaskContext(void *context);

} // namespace adjoint::rt

extern "C" {
/// The C entry point for compiled code: runs fn(ctx, b, e) over [begin, end)
/// in chunks of at most `grain` on the global pool.
void adjrt_parallel_for(int64_t begin, int64_t end, int64_t grain,
                        void (*fn)(void *ctx, int64_t b, int64_t e),
                        void *ctx);
}

#endif // ADJOINT_RUNTIME_THREADPOOL_H
