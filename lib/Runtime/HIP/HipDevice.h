//===- HipDevice.h - AMD GPUs through the HIP runtime -----------*- C++ -*-===//
//
// Every GPU the HIP runtime reports ("hip:0", ...): one non-blocking stream
// as the device's in-order queue, device memory from hipMalloc into the
// shared caching pool, modules from AMD code objects (ADJ_RT_GPU_HSACO)
// loaded once per device, small uploads staged in pinned memory
// (hipHostMalloc, kept in a PinnedPool). HIP selects the device per thread
// (hipSetDevice), so the device is made current around every runtime call
// and the caller's choice restored after, and any thread may use it.
//
// GEMMs go to rocBLAS or the generated kernel, whichever was measured
// faster (GPU/GemmRouter.h, HIP/RocblasGemm.h; ADJOINT_HIP_GEMM=library or
// kernels forces one); decompositions to rocSOLVER (RocsolverSolver.h) or
// the generated kernels, LAPACK on the host where rocSOLVER is missing.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_HIPDEVICE_H
#define ADJOINT_LIB_RUNTIME_HIP_HIPDEVICE_H

#include "GPU/GpuDevice.h"
#include "GPU/PinnedPool.h"
#include "HIP/HipApi.h"
#include "HIP/RocblasGemm.h"

#include <functional>
#include <memory>
#include <vector>

namespace adjoint::rt::hip {

class HipDevice final : public gpu::GpuDevice {
public:
  /// Launch limits the shared part does not check.
  struct Limits {
    uint64_t maxGrid[3] = {1, 1, 1};
  };
  HipDevice(const HipApi &api, hipDevice_t device, int index,
            DeviceProperties properties, Limits limits);
  ~HipDevice() override;

  /// The stream as a handle for other frameworks (DLPack's stream
  /// protocol), the device made ready first; 0 when it is unusable.
  uintptr_t nativeStream() override;
  /// The device's stream; null until the device is initialized (it is
  /// inside withCurrent()).
  hipStream_t stream() const { return stream_; }
  /// Runs `work` with the device ready, its lock held (nothing else is
  /// queued meanwhile) and the device current on this thread (for
  /// libraries that queue work on stream()).
  Status withCurrent(const std::function<Status()> &work);
  /// Records an event, runs `enqueue` (which queues work on the device's
  /// stream), records another, waits for it and returns the GPU's time
  /// between the two in `*milliseconds`.
  Status timeOnStream(const std::function<Status()> &enqueue,
                      double *milliseconds);

  /// The pinned staging pool (for tests).
  const gpu::PinnedPool &pinnedPool() const { return pinned_; }
  /// The GEMM route choice, made on the first GEMM (for tests; null before).
  const gpu::GemmRouter *gemmRouter() const { return gemms_.get(); }

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
    return format == ADJ_RT_GPU_HSACO;
  }
  gpu::PinnedPool *stagingPool() override { return &pinned_; }
  /// rocBLAS or the generated kernel, measured per problem.
  Status enqueueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b,
                     void *c, void **fallbackArgs) override;
  /// rocSOLVER, where it loads.
  std::unique_ptr<gpu::DenseSolver> makeDenseSolver() override;
  /// rocFFT, where it loads.
  std::unique_ptr<gpu::LinearAlgebraLibrary> makeFftLibrary() override;

private:
  class Current;
  Status check(hipError_t result, const char *call,
               const std::string &context = "") const {
    return hip::check(hip_, result, call, context);
  }
  Status allocatePinned(size_t bytes, void **ptr);
  void freePinned(void *ptr);

  const HipApi &hip_;
  hipDevice_t device_;
  Limits limits_;
  hipStream_t stream_ = nullptr;
  gpu::PinnedPool pinned_;
  /// Made on the first GEMM (rocBLAS is loaded then, not at start-up);
  /// rocblas_ stays null where rocBLAS is unavailable.
  std::unique_ptr<gpu::GemmRouter> gemms_;
  std::unique_ptr<RocblasGemm> rocblas_;
};

/// The HIP GPUs; when there are none, Unavailable with the reason
/// ("libamdhip64.so.6, libamdhip64.so.5 or libamdhip64.so not found (...)",
/// or the runtime found no GPU).
Status probeDevices(std::vector<std::unique_ptr<Device>> &devices);

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_HIPDEVICE_H
