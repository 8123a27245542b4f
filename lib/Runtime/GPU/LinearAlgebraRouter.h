//===- LinearAlgebraRouter.h - A solver library or the kernels --*- C++ -*-===//
//
// A device's adj_rt_gpu_linalg_begin goes to a library (a vendor solver,
// or LAPACK on the host: HostLinearAlgebra.h) or to the generated kernels,
// one workgroup per matrix, which the host code launches itself. Which is
// faster depends on the size and the batch (the kernels win on batches of
// small matrices, a library on large ones), so it is measured once per
// problem (op, element type, sizes, flags) and cached: the first call runs
// the library and the second the kernels, untimed (each loads its code);
// the third and fourth time them, with the device's queue drained before
// and after; later calls take the faster. Each call computes its result
// on one route only. ADJOINT_GPU_LINALG = library or kernels forces a
// route (tests, benchmarks); measure is the default. Complex
// decompositions and eig have no kernels (hasKernels): a library computes
// them whatever the route.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_LINEARALGEBRAROUTER_H
#define ADJOINT_LIB_RUNTIME_GPU_LINEARALGEBRAROUTER_H

#include "GPU/GemmRouter.h"
#include "adjoint/Runtime/DType.h"

#include <array>
#include <chrono>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace adjoint::rt::gpu {

/// One decomposition as adj_rt_gpu_linalg_begin describes it.
struct LinearAlgebraProblem {
  uint32_t op;
  DType dtype;
  std::array<int64_t, 7> scalars;

  bool operator==(const LinearAlgebraProblem &other) const {
    return op == other.op && dtype == other.dtype && scalars == other.scalars;
  }
  /// Whether generated kernels exist for it: every FFT (its dtype is its
  /// values' parts') and the decompositions of real matrices but eig.
  bool hasKernels() const;
};

struct LinearAlgebraProblemHash {
  size_t operator()(const LinearAlgebraProblem &problem) const;
};

/// A library that computes decompositions on a device's buffers.
class LinearAlgebraLibrary {
public:
  virtual ~LinearAlgebraLibrary();
  /// "LAPACK on the host", for messages.
  virtual const char *name() const = 0;
  /// Whether it computes `problem` (the kernels do what it does not).
  virtual bool computes(const LinearAlgebraProblem &problem) const = 0;
  /// Queues (or runs) `problem` on `buffers`, the op's operands then
  /// results.
  virtual Status compute(const LinearAlgebraProblem &problem,
                         void *const *buffers) = 0;
};

class LinearAlgebraRouter {
public:
  /// `drain` waits for everything queued on the device (before and after
  /// a timed run).
  explicit LinearAlgebraRouter(std::function<Status()> drain);

  /// adj_rt_gpu_linalg_begin on a checked `problem`, with `route` as the
  /// environment gives it: computes it with `library` (null where there
  /// is none) and gives ADJ_RT_GPU_LINALG_DONE, or gives a ticket for the
  /// kernels.
  Status begin(LinearAlgebraLibrary *library,
               const LinearAlgebraProblem &problem, void *const *buffers,
               GemmRoute route, int64_t *ticket);
  /// adj_rt_gpu_linalg_end.
  Status end(int64_t ticket);

  /// For tests: the route cached for `problem` (Measure until measured).
  GemmRoute cachedRoute(const LinearAlgebraProblem &problem) const;

private:
  using Clock = std::chrono::steady_clock;
  struct Measurement {
    /// Calls so far while measuring (0-3, see the file comment).
    int calls = 0;
    double libraryMs = 0;
    GemmRoute choice = GemmRoute::Measure;
  };
  /// A timed run of the kernels between begin and end.
  struct PendingRun {
    LinearAlgebraProblem problem;
    Clock::time_point start;
  };

  std::function<Status()> drain_;
  mutable std::mutex mutex_;
  std::unordered_map<LinearAlgebraProblem, Measurement,
                     LinearAlgebraProblemHash>
      measurements_;
  std::unordered_map<int64_t, PendingRun> pending_;
  int64_t nextTicket_ = ADJ_RT_GPU_LINALG_KERNELS + 1;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_LINEARALGEBRAROUTER_H
