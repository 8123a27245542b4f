//===- CudaDevice.h - NVIDIA GPUs through the CUDA driver API ---*- C++ -*-===//
//
// Every GPU the CUDA driver reports ("cuda:0", ...): its primary context
// (shared with other CUDA users in the process, as torch and JAX), one
// non-blocking stream as the device's in-order queue, device memory from
// cuMemAlloc into the shared caching pool, modules from fatbins (cubin +
// PTX) loaded once per device, small uploads staged in pinned memory and
// large host transfers through two pinned bounce buffers unless the host
// side is pinned already. The context is made current on the calling
// thread around every driver call, so any thread may use the device.
//
// Libraries that work on the device's stream (cuBLASLt) go through
// withContext() and stream(), and time their work with timeOnStream();
// GEMMs go to cuBLASLt or the generated kernel, whichever was measured
// faster (CublasLtGemm.h); decompositions to cuSOLVER (CusolverSolver.h)
// or the generated kernels, LAPACK on the host where cuSOLVER is missing.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUDADEVICE_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUDADEVICE_H

#include "CUDA/CublasLtGemm.h"
#include "CUDA/CudaApi.h"
#include "GPU/PinnedPool.h"
#include "GPU/GpuDevice.h"

#include <functional>
#include <memory>
#include <vector>

namespace adjoint::rt::cuda {

class CudaDevice final : public gpu::GpuDevice {
public:
  /// Launch limits the shared part does not check.
  struct Limits {
    uint64_t maxGrid[3] = {1, 1, 1};
  };
  CudaDevice(const CudaApi &api, CUdevice device, int index,
             DeviceProperties properties, Limits limits);
  ~CudaDevice() override;

  const CudaApi &api() const { return cu_; }
  /// The device's stream; null until the device is initialized (it is
  /// inside withContext()).
  CUstream stream() const { return stream_; }
  /// The stream as a handle for other frameworks (DLPack's stream
  /// protocol), the device made ready first; 0 when it is unusable.
  uintptr_t nativeStream() override;
  /// Runs `work` with the device ready, its lock held (nothing else is
  /// queued meanwhile) and its context current on this thread.
  Status withContext(const std::function<Status()> &work);
  /// Records an event, runs `enqueue` (which queues work on stream()),
  /// records another, waits for it and returns the time between the two
  /// in `*milliseconds` (the GPU's time of the work, not the host's).
  Status timeOnStream(const std::function<Status()> &enqueue,
                      double *milliseconds);

  /// The pinned staging pool (for tests).
  const gpu::PinnedPool &pinnedPool() const { return pinned_; }

protected:
  Status initialize() override;
  Status rawAllocate(size_t bytes, void **ptr) override;
  void rawRelease(void *ptr) override;
  Status enqueueCopy(void *dst, const void *src, size_t bytes,
                     gpu::CopyKind kind, bool blocking) override;
  Status enqueueFill(void *dst, uint8_t value, size_t bytes) override;
  Status finish() override;
  Status loadModule(const adj_rt_gpu_module &module, void **handle) override;
  Status loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                    void **handle) override;
  Status enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                       const uint64_t grid[3], const uint64_t block[3],
                       uint32_t sharedBytes, void **args) override;
  void releaseKernel(void *handle) override;
  void releaseModule(void *handle) override;
  bool acceptsFormat(uint32_t format) const override {
    return format == ADJ_RT_GPU_CUDA;
  }
  gpu::PinnedPool *stagingPool() override { return &pinned_; }
  /// cuBLASLt or the generated kernel, measured per problem
  /// (CublasLtGemm.h).
  Status enqueueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b,
                     void *c, void **fallbackArgs) override;
  /// cuSOLVER, where it loads.
  std::unique_ptr<gpu::DenseSolver> makeDenseSolver() override;
  /// cuFFT, where it loads.
  std::unique_ptr<gpu::LinearAlgebraLibrary> makeFftLibrary() override;

private:
  class Current;
  struct Bounce {
    void *host = nullptr;
    CUevent done = nullptr;
    bool pending = false;
  };
  Status check(CUresult result, const char *call,
               const std::string &context = "") const {
    return cuda::check(cu_, result, call, context);
  }
  Status allocatePinned(size_t bytes, void **ptr);
  void freePinned(void *ptr);
  bool isPinned(const void *host) const;
  /// The two bounce buffers, created on first use; false when the driver
  /// refuses pinned memory (copies then go directly from pageable memory).
  bool haveBounceBuffers();
  Status waitFor(Bounce &bounce);
  Status bounceToDevice(CUdeviceptr dst, const char *src, size_t bytes);
  Status bounceToHost(char *dst, CUdeviceptr src, size_t bytes);

  const CudaApi &cu_;
  CUdevice device_;
  Limits limits_;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  gpu::PinnedPool pinned_;
  /// Made on the first GEMM (cuBLASLt is loaded then, not at start-up).
  std::unique_ptr<CublasLtGemm> gemms_;
  Bounce bounce_[2];
  bool bounceTried_ = false;
};

/// The CUDA GPUs; when there are none, Unavailable with the reason
/// ("libcuda.so.1 not found (...)", or the driver found no GPU).
Status probeDevices(std::vector<std::unique_ptr<Device>> &devices);

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUDADEVICE_H
