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

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace adjoint::rt::gpu {

class CallGraphs;
class GraphDriver;
class StepLog;

/// Which sides of a copy are device memory (drivers with separate host and
/// device calls, as CUDA, pick theirs from it).
enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };

/// What a device ran (DeviceCounters), counted where it is queued: on the
/// device's own account, or on a graph's while it is captured.
struct WorkCounts {
  uint64_t kernels = 0;
  uint64_t libraryCalls = 0;
  uint64_t copies = 0;
  uint64_t fills = 0;
  void add(const WorkCounts &other) {
    kernels += other.kernels;
    libraryCalls += other.libraryCalls;
    copies += other.copies;
    fills += other.fills;
  }
};

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

  DeviceCounters counters() const override;
  void setProfiling(bool on) override;
  std::vector<KernelTime> kernelTimes() const override;

  /// A compiled call's start and end on this device (invoke();
  /// GpuDeviceSteps.cpp). `function` identifies the compiled function.
  /// Where the driver has graphs, a function's calls from the third on
  /// record their work and replay it as one graph launch at the end;
  /// beginCall() says whether this call records (pass it to endCall()).
  bool beginCall(const void *function);
  /// `completed`: the call returned normally (otherwise what it recorded
  /// is dropped). The error of queuing the call's work, if any.
  Status endCall(bool recorded, bool completed);

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
  /// fallback. Called without the device's lock (the router may time both
  /// routes), except when a recorded call's work is queued at its end
  /// (GpuDeviceSteps.cpp), with every route settled.
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

  /// The driver's graphs (GraphDriver.h); null (the default) where it has
  /// none.
  virtual GraphDriver *graphDriver() { return nullptr; }
  /// The route enqueueGemm() would take for `gemm` at these addresses, a
  /// number of the driver's (recorded calls replay it only while it
  /// stays); -1 where it would first measure the routes, which waits for
  /// the device. The default has one route.
  virtual int settledGemmRoute(const adj_rt_gpu_gemm_desc &gemm, void *a,
                               void *b, void *c) {
    return 0;
  }
  /// Runs `enqueue` (which queues work) and gives the device's time for
  /// that work in `*milliseconds`; the default cannot time (-1).
  virtual Status timeQueued(const std::function<Status()> &enqueue,
                            double *milliseconds) {
    *milliseconds = -1;
    return enqueue();
  }

  /// Runs `work` with the device ready and its lock held, so that nothing
  /// else is queued meanwhile (for driver calls outside the hooks above).
  Status withQueue(const std::function<Status()> &work);

private:
  // The queue's work, recorded or run (GpuDeviceSteps.cpp). Each issue*
  // queues one operation on the driver, counted.
  Status issueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                     const uint64_t grid[3], const uint64_t block[3],
                     uint32_t sharedBytes, void **args);
  Status issueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b,
                   void *c, void **fallbackArgs);
  Status issueCopy(void *dst, const void *src, size_t bytes, CopyKind kind);
  Status issueFill(void *dst, uint8_t value, size_t bytes);
  /// One timed run of `name` while profiling (with the lock held).
  void addKernelTime(const std::string &name, double milliseconds);
  /// Queues every operation of `log` in order.
  Status issueAll(const StepLog &log);
  /// The staging of `log`'s uploads, queued now, held until the device
  /// next waits for its queue.
  void adoptStaging(const StepLog &log);
  /// The log of the call recording on this thread, or null.
  StepLog *recordingHere();
  /// Before queuing work: a call recording on another thread queues what
  /// it has and runs on plainly; the recording call itself does so when
  /// `why` names work that cannot wait for its end (null: work it records),
  /// and then fails with the error of queuing what it had recorded.
  Status settleRecording(const char *why, bool always);
  /// Queues what the recording call logged so far and stops its recording
  /// (the rest of the call runs plainly): something that cannot wait for
  /// the end of the call, `why`, is about to use the queue. `always`: the
  /// function does it on every call, so it is not recorded again.
  Status interruptRecording(const char *why, bool always);
  /// The end of a recorded call: its work as a graph launch.
  Status launchAsGraph(const void *function, StepLog &log);
  /// Releases every graph (their kernels are being unloaded).
  void dropGraphs();


  /// Runs initialize() once; its status after that.
  Status ready();
  /// Runs `work` (returning a Status) with the device ready and locked;
  /// nothing for zero bytes; settleRecording(why, always) first.
  template <typename Fn>
  Status onQueue(size_t bytes, const char *why, bool always, Fn work);
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

  WorkCounts counts_;
  /// Where issue* count: counts_, or a graph's while it is captured.
  WorkCounts *sink_ = &counts_;
  /// The compiled functions' calls and graphs (GpuDeviceSteps.cpp).
  std::unique_ptr<CallGraphs> calls_;
  std::atomic<bool> profiling_{false};
  std::map<std::string, KernelTime> kernelTimes_;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_GPUDEVICE_H
