//===- CublasLtGemm.h - GEMMs through cuBLASLt or the kernel ----*- C++ -*-===//
//
// The CUDA device's adj_rt_gpu_gemm: cuBLASLt where it is faster, the
// generated kernel (the descriptor's fallback) where that is, measured per
// problem by the vendor-independent GPU/GemmRouter.h;
// ADJOINT_CUDA_GEMM=library or kernels forces a route (tests, benchmarks),
// measure is the default.
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
#include "GPU/GemmRouter.h"

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace adjoint::rt::cuda {

/// How GEMMs are computed (ADJOINT_CUDA_GEMM).
using GemmRoute = gpu::GemmRoute;

/// The route ADJOINT_CUDA_GEMM names (Measure when unset); InvalidArgument
/// for any other value.
inline Status gemmRouteFromEnvironment(GemmRoute *route) {
  return gpu::gemmRouteFromEnvironment("ADJOINT_CUDA_GEMM", route);
}

class CublasLtGemm final : private gpu::GemmLibrary {
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
  ~CublasLtGemm() override;
  CublasLtGemm(const CublasLtGemm &) = delete;
  CublasLtGemm &operator=(const CublasLtGemm &) = delete;

  /// The route of later calls (the device reads ADJOINT_CUDA_GEMM at each
  /// call, so that a test or benchmark may switch it).
  void setRoute(GemmRoute route) { router_.setRoute(route); }

  /// Queues C += A B of a checked, non-empty `gemm`, through the library
  /// or `launchKernel` (which launches the descriptor's fallback on the
  /// real C).
  Status run(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b, void *c,
             const std::function<Status()> &launchKernel);

  /// For tests: problems measured so far, and the route cached for `gemm`
  /// at addresses aligned to `alignment` bytes (Measure when none is).
  size_t measurements() const { return router_.measurements(); }
  GemmRoute cachedRoute(const adj_rt_gpu_gemm_desc &gemm,
                        uint32_t alignment = 256) const {
    return router_.cachedRoute(gemm, alignment);
  }

  /// The alignment cuBLASLt may assume of all of `a`, `b` and `c`: the
  /// largest power of two dividing each, at most 256 (views at an offset
  /// rule out the algorithms that need aligned tiles).
  static uint32_t alignmentOf(const void *a, const void *b, const void *c) {
    return gpu::GemmRouter::alignmentOf(a, b, c);
  }

private:
  struct Plan;
  // gpu::GemmLibrary.
  const char *name() const override { return "cuBLASLt"; }
  Status prepare(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                 bool *available) override;
  Status enqueue(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                 void *a, void *b, void *c) override;
  /// The plan of `key`'s problem, made on first use; null (with a success
  /// status) when cuBLASLt offers no algorithm for it.
  Status plan(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
              Plan **out);
  /// Queues the library's C += A B with `plan`.
  Status enqueueLibrary(const Plan &plan, void *a, void *b, void *c);

  const CublasLtApi *api_;
  Device device_;
  gpu::GemmRouter router_;
  cublasLtHandle_t handle_ = nullptr;
  std::unordered_map<gpu::GemmKey, std::unique_ptr<Plan>, gpu::GemmKeyHash>
      plans_;
};

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUBLASLTGEMM_H
