//===- GemmRouter.h - A vendor GEMM library or the kernel -------*- C++ -*-===//
//
// A device's adj_rt_gpu_gemm goes to its vendor's library (cuBLASLt,
// rocBLAS) where that is faster and to the generated kernel (the
// descriptor's fallback) where that is, measured once per problem (shape,
// layouts, element type, flags, alignment) and cached. This part is the
// same for every vendor: the first call of a problem runs both untimed
// (each loads its code on its first run), the second times the library on
// a scratch C (C is accumulated into, so it must never see an extra
// product) and the kernel on the real C (each run on the real C is the
// call's result), with events around the work on the device's queue; later
// calls take the winner. An environment variable per vendor
// (ADJOINT_CUDA_GEMM, ADJOINT_HIP_GEMM) = library or kernels forces a route
// (tests, benchmarks); measure is the default.
//
// The library itself is a GemmLibrary (cuBLASLt's CublasLtGemm.h,
// rocBLAS's RocblasGemm.h): it prepares a problem (its plans, cached per
// key) and queues it on the device's stream. The stream devices
// (StreamDevice.h) make the library and the router on their first GEMM.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_GEMMROUTER_H
#define ADJOINT_LIB_RUNTIME_GPU_GEMMROUTER_H

#include "GPU/Gemm.h"

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace adjoint::rt::gpu {

/// How GEMMs are computed.
enum class GemmRoute { Measure, Library, Kernels };

/// The route the environment variable `variable` names (Measure when
/// unset); InvalidArgument for any other value.
Status gemmRouteFromEnvironment(const char *variable, GemmRoute *route);

/// A vendor's GEMM library, as the router drives it. Called with the
/// router's lock held.
class GemmLibrary {
public:
  virtual ~GemmLibrary();
  /// "cuBLASLt", for messages.
  virtual const char *name() const = 0;
  /// Makes ready to compute `key`'s problem (once per key); `*available`
  /// is false when the library cannot compute it (the kernel does).
  virtual Status prepare(const adj_rt_gpu_gemm_desc &gemm, const GemmKey &key,
                         bool *available) = 0;
  /// Queues C += A B of a prepared problem.
  virtual Status enqueue(const adj_rt_gpu_gemm_desc &gemm, const GemmKey &key,
                         void *a, void *b, void *c) = 0;
};

/// The workspace of a device's library GEMMs: one block of this size, made
/// on first use and kept for the device's life. Kept, because a graph that
/// captured a library GEMM (GpuDeviceSteps.cpp) replays its kernels on
/// that address; one, because all of them run in order on the device's
/// stream. cuBLASLt's heuristics ask for up to 32 MiB on Hopper.
constexpr size_t kLibraryWorkspaceBytes = size_t(32) << 20;
/// Gives the workspace block (kLibraryWorkspaceBytes).
using LibraryWorkspace = std::function<Status(void **block)>;

/// Device memory a device lends from its pool (stream-ordered reuse: a
/// block given back may be handed to work queued later).
struct DeviceMemory {
  std::function<Status(size_t bytes, void **ptr)> allocate;
  std::function<void(void *ptr)> deallocate;
};

class GemmRouter {
public:
  /// What the device lends: its memory, and its timer.
  struct Device : DeviceMemory {
    /// Runs `enqueue` between two events on the device's queue, waits for
    /// them and gives the milliseconds between them.
    std::function<Status(const std::function<Status()> &enqueue,
                         double *milliseconds)>
        time;
  };

  /// `variable` names the route's environment variable in messages;
  /// `unavailable` is why the library is absent, when it is.
  GemmRouter(std::string variable, Status unavailable, Device device,
             GemmRoute route);

  /// The route of later calls (devices read the variable at each call, so
  /// that a test or benchmark may switch it).
  void setRoute(GemmRoute route) {
    std::lock_guard<std::mutex> lock(mutex_);
    route_ = route;
  }

  /// Queues C += A B of a checked, non-empty `gemm`, through `library`
  /// (null where it is unavailable) or `launchKernel` (which launches the
  /// descriptor's fallback on the real C).
  Status run(GemmLibrary *library, const adj_rt_gpu_gemm_desc &gemm, void *a,
             void *b, void *c, const std::function<Status()> &launchKernel);

  /// The route run() would take for `gemm` at these addresses without
  /// measuring (which waits for the device): a forced route, the kernel
  /// without a library or for a problem the library cannot compute, or
  /// the route measured already; Measure where it would measure.
  GemmRoute settledRoute(GemmLibrary *library,
                         const adj_rt_gpu_gemm_desc &gemm, void *a, void *b,
                         void *c);

  /// For tests: problems measured so far, and the route cached for `gemm`
  /// at addresses aligned to `alignment` bytes (Measure when none is).
  size_t measurements() const;
  GemmRoute cachedRoute(const adj_rt_gpu_gemm_desc &gemm,
                        uint32_t alignment = 256) const;

  /// The alignment a library may assume of all of `a`, `b` and `c`: the
  /// largest power of two dividing each, at most 256 (views at an offset
  /// rule out the algorithms that need aligned tiles).
  static uint32_t alignmentOf(const void *a, const void *b, const void *c);

private:
  /// Runs `work` on a scratch C of `gemm`'s extent from the pool.
  Status onScratch(const adj_rt_gpu_gemm_desc &gemm,
                   const std::function<Status(void *)> &work);
  /// The first call of a problem: both routes once, untimed (they load
  /// their code), the kernel's run being the call's result.
  Status warmUp(GemmLibrary &library, const adj_rt_gpu_gemm_desc &gemm,
                const GemmKey &key, void *a, void *b,
                const std::function<Status()> &kernel);
  /// The second call: times both routes (the kernel's run being the
  /// call's result) and caches the faster.
  Status measure(GemmLibrary &library, const adj_rt_gpu_gemm_desc &gemm,
                 const GemmKey &key, void *a, void *b,
                 const std::function<Status()> &kernel);

  std::string variable_;
  Status unavailable_;
  Device device_;
  GemmRoute route_;
  mutable std::mutex mutex_;
  std::unordered_map<GemmKey, GemmRoute, GemmKeyHash> choices_;
  /// Problems whose first call ran both routes untimed.
  std::unordered_set<GemmKey, GemmKeyHash> warmed_;
  size_t measurements_ = 0;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_GEMMROUTER_H
