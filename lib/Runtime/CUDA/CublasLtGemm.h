//===- CublasLtGemm.h - GEMMs through cuBLASLt or the kernel ----*- C++ -*-===//
//
// The CUDA device's adj_rt_gpu_gemm: cuBLASLt where it is faster, the
// generated kernel (the descriptor's fallback) where that is, measured once
// per problem (shape, layouts, element type, flags) and cached. The first
// call of a problem runs both untimed (each loads its code on its first
// run), the second times the library on a scratch C (C is accumulated
// into, so it must never see an extra product) and the kernel on the real
// C (each run on the real C is the call's result), with events around the
// work on the device's stream; later calls take the winner.
// ADJOINT_CUDA_GEMM=library
// or kernels forces a route (tests, benchmarks); measure is the default.
//
// The library plans (matmul and layout descriptors, the heuristic's
// algorithm and workspace size) are made once per problem too. Row-major
// matrices are cuBLASLt's column-major ones transposed: a row-major C is
// computed as C^T = B^T A^T.
//
// It owns nothing of the device: the stream, device memory and timing come
// from the device (CudaDevice), so that this class is tested on its own
// against a fake libcublasLt.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUBLASLTGEMM_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUBLASLTGEMM_H

#include "CUDA/CublasLt.h"
#include "GPU/Gemm.h"

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace adjoint::rt::cuda {

/// How GEMMs are computed (ADJOINT_CUDA_GEMM).
enum class GemmRoute { Measure, Library, Kernels };

/// The route ADJOINT_CUDA_GEMM names (Measure when unset); InvalidArgument
/// for any other value.
Status gemmRouteFromEnvironment(GemmRoute *route);

class CublasLtGemm {
public:
  /// What the device lends.
  struct Device {
    /// The stream every GEMM is queued on.
    cudaStream_t stream = nullptr;
    /// Device memory from the device's pool (stream-ordered reuse).
    std::function<Status(size_t bytes, void **ptr)> allocate;
    std::function<void(void *ptr)> deallocate;
    /// Runs `enqueue` between two events on the stream, waits for them and
    /// gives the milliseconds between them.
    std::function<Status(const std::function<Status()> &enqueue,
                         double *milliseconds)>
        time;
  };

  /// `api` is null where cuBLASLt is unavailable (`why`): then only the
  /// kernels run, and forcing the library is an error.
  CublasLtGemm(const CublasLtApi *api, Status why, Device device,
               GemmRoute route);
  ~CublasLtGemm();
  CublasLtGemm(const CublasLtGemm &) = delete;
  CublasLtGemm &operator=(const CublasLtGemm &) = delete;

  /// The route of later calls (the device reads ADJOINT_CUDA_GEMM at each
  /// call, so that a test or benchmark may switch it).
  void setRoute(GemmRoute route) {
    std::lock_guard<std::mutex> lock(mutex_);
    route_ = route;
  }

  /// Queues C += A B of a checked, non-empty `gemm`, through the library
  /// or `launchKernel` (which launches the descriptor's fallback on the
  /// real C).
  Status run(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b, void *c,
             const std::function<Status()> &launchKernel);

  /// For tests: problems measured so far, and the route cached for `gemm`
  /// at addresses aligned to `alignment` bytes (Measure when none is).
  size_t measurements() const;
  GemmRoute cachedRoute(const adj_rt_gpu_gemm_desc &gemm,
                        uint32_t alignment = 256) const;

  /// The alignment cuBLASLt may assume of all of `a`, `b` and `c`: the
  /// largest power of two dividing each, at most 256 (views at an offset
  /// rule out the algorithms that need aligned tiles).
  static uint32_t alignmentOf(const void *a, const void *b, const void *c);

private:
  struct Plan;
  /// The plan of `key`'s problem, made on first use; null (with a success
  /// status) when cuBLASLt offers no algorithm for it.
  Status plan(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
              Plan **out);
  /// Queues the library's C += A B with `plan`.
  Status enqueueLibrary(const Plan &plan, void *a, void *b, void *c);
  /// Runs `work` on a scratch C of `gemm`'s extent from the pool.
  Status onScratch(const adj_rt_gpu_gemm_desc &gemm,
                   const std::function<Status(void *)> &work);
  /// The first call of a problem: both routes once, untimed (they load
  /// their code), the kernel's run being the call's result.
  Status warmUp(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                Plan *plan, void *a, void *b,
                const std::function<Status()> &kernel);
  /// The second call: times both routes (the kernel's run being the
  /// call's result) and caches the faster.
  Status measure(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                 Plan *plan, void *a, void *b,
                 const std::function<Status()> &kernel);

  const CublasLtApi *api_;
  Status unavailable_;
  Device device_;
  GemmRoute route_;
  mutable std::mutex mutex_;
  cublasLtHandle_t handle_ = nullptr;
  std::unordered_map<gpu::GemmKey, std::unique_ptr<Plan>, gpu::GemmKeyHash>
      plans_;
  std::unordered_map<gpu::GemmKey, GemmRoute, gpu::GemmKeyHash> choices_;
  /// Problems whose first call ran both routes untimed.
  std::unordered_set<gpu::GemmKey, gpu::GemmKeyHash> warmed_;
  size_t measurements_ = 0;
};

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUBLASLTGEMM_H
