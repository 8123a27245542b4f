//===- GpuDevice.h - What every GPU driver shares ---------------*- C++ -*-===//
//
// A GPU device is a driver (OpenCL, Level Zero, CUDA, HIP) behind a few
// hooks, and this shared part: the caching pool of device memory, the
// one in-order queue every copy, fill and launch goes to, the per-device
// caches of loaded modules, kernels and constants (keyed by the addresses
// of the GpuABI descriptors, loaded lazily on first use), the staging of
// host data for asynchronous uploads, and the checks that turn misuse into
// a Status before a driver sees it. A new driver implements the hooks
// below and a probe function (see DeviceRegistry.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_GPUDEVICE_H
#define ADJOINT_LIB_RUNTIME_GPU_GPUDEVICE_H

#include "GPU/CachingAllocator.h"
#include "GPU/HostLinearAlgebra.h"
#include "GPU/LinearAlgebraRouter.h"
#include "GPU/PinnedPool.h"
#include "GPU/SolverLinearAlgebra.h"
#include "adjoint/Runtime/Device.h"
#include "adjoint/Runtime/GpuABI.h"

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace adjoint::rt::gpu {

/// Which sides of a copy are device memory (drivers with separate host and
/// device calls, as CUDA, pick theirs from it).
enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };

class GpuDevice : public Device {
public:
  GpuDevice(DeviceKind kind, int index, DeviceProperties properties);
  ~GpuDevice() override;

  std::string name() const override { return properties_.name; }
  DeviceKind kind() const override { return kind_; }
  int index() const override { return index_; }
  Status status() const override;
  const DeviceProperties &properties() const override { return properties_; }

  Status allocate(size_t bytes, void **ptr) override;
  void deallocate(void *ptr) override;
  /// Asynchronous: small copies are staged in host memory kept until the
  /// queue has passed them, large ones wait for the copy. Either way the
  /// caller may reuse `src` when this returns.
  Status copyHostToDevice(void *dst, const void *src, size_t bytes) override;
  /// Waits for the queue to reach the copy and for the copy.
  Status copyDeviceToHost(void *dst, const void *src, size_t bytes) override;
  Status copyDeviceToDevice(void *dst, const void *src,
                            size_t bytes) override;
  Status fill(void *dst, uint8_t value, size_t bytes) override;
  Status synchronize() override;
  PoolStats memoryStats() const override { return pool_.stats(); }
  void emptyCache() override;
  void setMemoryLimit(size_t bytes) override { pool_.setByteLimit(bytes); }

  /// Whether `ptr` is a live block of this device's pool.
  bool ownsBlock(const void *ptr) const { return pool_.owns(ptr); }

  /// The GpuABI's launch: loads the module and the kernel on first use.
  Status launch(const adj_rt_gpu_kernel &kernel, const uint64_t grid[3],
                const uint64_t block[3], uint32_t sharedBytes, void **args);
  /// The GpuABI's GEMM: checks the descriptor (a Status naming what is
  /// wrong) and queues it through enqueueGemm(); nothing for an empty
  /// product.
  Status gemm(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b, void *c,
              void **fallbackArgs);
  /// Launches the GEMM's generated kernel.
  Status launchFallback(const adj_rt_gpu_gemm_desc &gemm,
                        void **fallbackArgs) {
    return launch(*gemm.fallback, gemm.grid, gemm.block, gemm.sharedBytes,
                  fallbackArgs);
  }
  /// The GpuABI's decompositions (GpuDeviceLinearAlgebra.cpp): checks
  /// the problem and the buffers, reads ADJOINT_GPU_LINALG and routes it
  /// (LinearAlgebraRouter.h) to linearAlgebraLibrary() or to the kernels.
  Status linearAlgebraBegin(const LinearAlgebraProblem &problem,
                            void *const *buffers, int64_t *ticket);
  Status linearAlgebraEnd(int64_t ticket);
  /// The GpuABI's constants: the device copy of `bytes` at `host`,
  /// uploaded on first use.
  Status constant(const void *host, uint64_t bytes, void **device);
  /// Forgets the modules, kernels and constants loaded from compiled code,
  /// after the queue has passed every launch that uses them: the code is
  /// being unloaded, and its descriptors' addresses may be reused by code
  /// loaded later (the caches are keyed by address). Live code loads what
  /// it needs again on its next launch.
  void forgetLoadedCode();
  /// Modules and kernels loaded so far (for tests of the caches).
  size_t loadedModules() const;
  size_t loadedKernels() const;

protected:
  /// The driver's part. Every hook but rawAllocate/rawRelease is called
  /// with the device's lock held, so a driver needs no locking of its own.
  /// Creates the context and the queue (once, before anything else).
  virtual Status initialize() = 0;
  /// A fresh device block of `bytes`, aligned to kDeviceAlignment.
  virtual Status rawAllocate(size_t bytes, void **ptr) = 0;
  /// Gives a block back; no queued work uses it any more.
  virtual void rawRelease(void *ptr) = 0;
  /// Queues a copy between host and device memory as `kind` says;
  /// `blocking` waits for it (and so for everything queued before it).
  virtual Status enqueueCopy(void *dst, const void *src, size_t bytes,
                             CopyKind kind, bool blocking) = 0;
  virtual Status enqueueFill(void *dst, uint8_t value, size_t bytes) = 0;
  /// Waits for everything queued.
  virtual Status finish() = 0;
  /// Builds a module from checked SPIR-V (or the driver's own format).
  virtual Status loadModule(const adj_rt_gpu_module &module,
                            void **handle) = 0;
  /// The kernel `kernel.name` of a loaded module; checks the argument
  /// count where the driver can tell it.
  virtual Status loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                            void **handle) = 0;
  /// Sets the arguments and queues one launch (block sizes are checked).
  virtual Status enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                               const uint64_t grid[3],
                               const uint64_t block[3], uint32_t sharedBytes,
                               void **args) = 0;
  /// Releases a kernel or module of loadKernel/loadModule (no launch
  /// queued uses it any more).
  virtual void releaseKernel(void *handle) = 0;
  virtual void releaseModule(void *handle) = 0;
  /// Queues a checked, non-empty GEMM. A driver with a vendor library
  /// chooses between it and launchFallback(); the default launches the
  /// fallback. Called without the device's lock (a library call may
  /// allocate a workspace from the pool or time both routes).
  virtual Status enqueueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a,
                             void *b, void *c, void **fallbackArgs) {
    return launchFallback(gemm, fallbackArgs);
  }
  /// The driver's vendor solver (cuSOLVER, rocSOLVER), made on the
  /// device's first decomposition; null (the default) where it has none or
  /// it does not load.
  virtual std::unique_ptr<DenseSolver> makeDenseSolver() { return nullptr; }
  /// The driver's FFT library (cuFFT), made on the device's first
  /// decomposition; null (the default) where it has none or it does not
  /// load.
  virtual std::unique_ptr<LinearAlgebraLibrary> makeFftLibrary() {
    return nullptr;
  }
  /// The module formats this driver loads (ADJ_RT_GPU_SPIRV for both
  /// drivers here).
  virtual bool acceptsFormat(uint32_t format) const = 0;
  /// The pinned host memory small uploads are staged in, which the copy
  /// engines read directly (CUDA, HIP); null (the default) stages on the
  /// heap. Staging falls back to the heap when the pool refuses (pinned
  /// memory is a limited resource).
  virtual PinnedPool *stagingPool() { return nullptr; }

  /// Runs `work` with the device ready and its lock held, so that nothing
  /// else is queued meanwhile (for driver calls outside the hooks above).
  Status withQueue(const std::function<Status()> &work);

private:
  /// Runs initialize() once; its status after that.
  Status ready();
  /// Runs `work` (returning a Status) with the device ready and locked;
  /// nothing for zero bytes.
  template <typename Fn> Status onQueue(size_t bytes, Fn work);
  /// Host memory that holds a small upload until the queue has passed it,
  /// and its release, called after finish().
  Status allocateStaging(size_t bytes, void **ptr);
  void releaseStaging(void *ptr);
  void releaseAllStaging();

  DeviceKind kind_;
  int index_;
  DeviceProperties properties_;
  CachingAllocator pool_;
  /// Guards the driver and the caches. Recursive: an allocation that fails
  /// inside constant() empties the pool, which waits for the queue.
  mutable std::recursive_mutex mutex_;
  bool initialized_ = false;
  Status initStatus_;
  std::unordered_map<const adj_rt_gpu_module *, void *> modules_;
  std::unordered_map<const adj_rt_gpu_kernel *, void *> kernels_;
  struct Constant {
    void *device;
    uint64_t bytes;
  };
  std::unordered_map<const void *, Constant> constants_;
  /// Host copies of queued uploads (allocateStaging), released once the
  /// queue has passed them.
  std::vector<void *> staging_;
  size_t stagingBytes_ = 0;
  /// The library of `problem` (GpuDeviceLinearAlgebra.cpp): the vendor's
  /// FFT library or solver where there is one, else LAPACK (FFTW) on the
  /// host. Called without the device's lock.
  LinearAlgebraLibrary *linearAlgebraLibrary(const LinearAlgebraProblem &problem);

  HostLinearAlgebra hostLinearAlgebra_{*this};
  /// The vendor libraries' routes, made on the first decomposition; null
  /// where the driver's hooks give none.
  std::once_flag librariesOnce_;
  std::unique_ptr<SolverLinearAlgebra> solverLinearAlgebra_;
  std::unique_ptr<LinearAlgebraLibrary> fftLibrary_;
  LinearAlgebraRouter linearAlgebraRouter_{[this] { return synchronize(); }};
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_GPUDEVICE_H
