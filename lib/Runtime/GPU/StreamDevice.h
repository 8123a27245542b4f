//===- StreamDevice.h - What the CUDA and HIP drivers share -----*- C++ -*-===//
//
// CUDA's driver API and HIP's runtime are the same machine under two sets
// of names: a device made current on the calling thread, one non-blocking
// stream as the in-order queue, pinned host memory the copy engines read
// directly, events recorded on the stream, and a vendor GEMM library that
// works on that stream. This layer holds everything that follows from
// that model once, over a few primitives each vendor implements with its
// entry points (CudaDevice.h, HipDevice.h):
//
//   - the current-device guard (Current), around every vendor call;
//   - pinned staging: small uploads from a PinnedPool, large pageable
//     transfers double-buffered through two pinned bounce buffers
//     (StreamCopies.cpp);
//   - the grid limits and the check of a kernel's arguments against its
//     descriptor;
//   - event timing of work on the stream (timeOnStream);
//   - graphs (GraphDriver.h): stream capture, instantiation, launch, and
//     in-place update, the one entry point whose signature differs;
//   - the stream as a handle for other frameworks (nativeStream);
//   - GEMMs: the vendor's library (a GemmLibrary) or the generated kernel,
//     measured per problem by the GemmRouter.
//
// Each vendor keeps what really differs: its context or device selection,
// memory, copies, fills, module and kernel loading, launches and its
// libraries, and gives the entry points whose C signatures the two share
// (StreamEntryPoints: the stream and event handles are one type each
// here, so that CudaApi.h's and HipApi.h's tables hold them as they are).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_STREAMDEVICE_H
#define ADJOINT_LIB_RUNTIME_GPU_STREAMDEVICE_H

#include "GPU/GemmRouter.h"
#include "GPU/GpuDevice.h"
#include "GPU/GraphDriver.h"
#include "GPU/PinnedPool.h"
#include "GPU/StreamHandles.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace adjoint::rt::gpu {

/// The entry points of a vendor that the shared layer calls, with their
/// names for messages. CUDA's driver API and HIP's runtime give each the
/// same C signature (results: 0 is success).
struct StreamEntryPoints {
  template <typename Fn> struct Entry {
    Fn fn = nullptr;
    const char *name = "";
  };
  /// Stream creation with flags (1: no implicit synchronization with the
  /// default stream other libraries in the process use) and waiting.
  Entry<int (*)(Stream *, unsigned)> streamCreate;
  Entry<int (*)(Stream)> streamSynchronize;
  /// Pinned host memory (flags 1: usable from every device), its release,
  /// and the query that tells pinned memory from pageable.
  Entry<int (*)(void **, size_t, unsigned)> hostAlloc;
  Entry<int (*)(void *)> hostFree;
  Entry<int (*)(unsigned *, void *)> hostGetFlags;
  /// Events (flags 0: timing enabled), recorded at the stream's tail.
  Entry<int (*)(Event *, unsigned)> eventCreate;
  Entry<int (*)(Event, Stream)> eventRecord;
  Entry<int (*)(Event)> eventSynchronize;
  Entry<int (*)(float *, Event, Event)> eventElapsedTime;
  Entry<int (*)(Event)> eventDestroy;
  /// Graphs, where the driver has them (null entries where not): capture
  /// of the stream's work (mode 2, relaxed: the pool may allocate while a
  /// graph is captured), instantiation (flags 0), launch, destruction.
  Entry<int (*)(Stream, int)> streamBeginCapture;
  Entry<int (*)(Stream, Graph *)> streamEndCapture;
  Entry<int (*)(GraphExec *, Graph, unsigned long long)> graphInstantiate;
  Entry<int (*)(GraphExec, Stream)> graphLaunch;
  Entry<int (*)(Graph)> graphDestroy;
  Entry<int (*)(GraphExec)> graphExecDestroy;
};

class StreamDevice : public GpuDevice {
public:
  /// Launch limits GpuDevice does not check; 0 is a limit the driver did
  /// not report (not checked).
  struct Limits {
    uint64_t maxGrid[3] = {0, 0, 0};
  };
  /// `gemmVariable` names the environment variable that forces a GEMM
  /// route (ADJOINT_CUDA_GEMM).
  StreamDevice(DeviceKind kind, int index, DeviceProperties properties,
               Limits limits, const StreamEntryPoints &entries,
               const char *gemmVariable);
  ~StreamDevice() override;

  /// The stream as a handle for other frameworks (DLPack's stream
  /// protocol), the device made ready first; 0 when it is unusable.
  uintptr_t nativeStream() override;
  /// The device's stream; null until the device is initialized (it is
  /// inside withCurrent()).
  Stream stream() const { return stream_; }
  /// Runs `work` with the device ready, its lock held (nothing else is
  /// queued meanwhile) and the device current on this thread: for vendor
  /// libraries that queue work on the stream.
  Status withCurrent(const std::function<Status()> &work);
  /// Records an event, runs `enqueue` (which queues work on the stream),
  /// records another, waits for it and returns the GPU's time between the
  /// two in `*milliseconds`.
  Status timeOnStream(const std::function<Status()> &enqueue,
                      double *milliseconds);

  /// The pinned staging pool (for tests).
  const PinnedPool &pinnedPool() const { return pinned_; }
  /// The GEMM route choice, made on the first GEMM (for tests; null
  /// before).
  const GemmRouter *gemmRouter() const { return gemms_.get(); }

  /// Makes the device current on the calling thread for its life, and the
  /// thread's previous choice current again after (torch and others rely
  /// on theirs).
  class Current {
  public:
    explicit Current(const StreamDevice &device);
    ~Current();
    const Status &status() const { return status_; }

  private:
    const StreamDevice &device_;
    intptr_t saved_ = 0;
    Status status_;
  };

protected:
  // The vendor's part. copyAsync and makeGemmLibrary are called with the
  // device current (inside a Current), which enterDevice and leaveDevice
  // make so; openContext before the device can be made current.
  /// Makes the device current on this thread; `*saved` is what
  /// leaveDevice() restores.
  virtual Status enterDevice(intptr_t *saved) const = 0;
  virtual void leaveDevice(intptr_t saved) const = 0;
  /// What initialize() does before it makes the device current (CUDA
  /// retains its primary context); nothing by default.
  virtual Status openContext() { return Status::success(); }
  /// Queues a copy on the stream.
  virtual Status copyAsync(void *dst, const void *src, size_t bytes,
                           CopyKind kind) = 0;
  /// The vendor's GEMM library on this device's stream, made on the first
  /// GEMM with the device current; null with the reason in `*why` where
  /// it does not load.
  virtual std::unique_ptr<GemmLibrary> makeGemmLibrary(Status *why) = 0;
  /// Ok for 0; otherwise the vendor's error named with `call` and
  /// `context`.
  virtual Status check(int result, const char *call,
                       const std::string &context) const = 0;
  /// The device's library workspace (GemmRouter.h), for makeGemmLibrary:
  /// a block of the pool made on first use (with the device locked, as
  /// library calls are) and never given back.
  LibraryWorkspace libraryWorkspace();
  /// Gives `exec` the parameters of `graph` in place (cuGraphExecUpdate,
  /// hipGraphExecUpdate); `*updated` false, the status ok, where the
  /// driver cannot. Called with the device current.
  virtual Status updateGraph(GraphExec exec, Graph graph, bool *updated) = 0;

  /// Calls `entry` with `args`, its result checked.
  template <typename Fn, typename... Args>
  Status call(const StreamEntryPoints::Entry<Fn> &entry,
              const std::string &context, Args... args) const {
    return check(entry.fn(args...), entry.name, context);
  }

  // GpuDevice's hooks that follow from the model.
  /// Opens the context and creates the stream.
  Status initialize() override;
  Status finish() override;
  Status enqueueCopy(void *dst, const void *src, size_t bytes, CopyKind kind,
                     bool blocking) override;
  PinnedPool *stagingPool() override { return &pinned_; }
  Status enqueueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b,
                     void *c, void **fallbackArgs) override;
  int settledGemmRoute(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b,
                       void *c) override;
  GraphDriver *graphDriver() override;
  Status timeQueued(const std::function<Status()> &enqueue,
                    double *milliseconds) override {
    return timeOnStream(enqueue, milliseconds);
  }

  /// InvalidArgument when `grid` exceeds the device's limits.
  Status checkGrid(const adj_rt_gpu_kernel &kernel,
                   const uint64_t grid[3]) const;
  /// InvalidArgument when the kernel's arguments, as the loaded code
  /// declares them (`declared`: bytes of each), disagree with its
  /// descriptor: a launch reads as many argument values as the kernel
  /// takes, of its sizes, and would read past the descriptor's.
  Status checkArguments(const adj_rt_gpu_kernel &kernel,
                        const std::vector<uint32_t> &declared) const;

private:
  /// The GraphDriver over the graph entry points (StreamGraphs.cpp).
  class Graphs final : public GraphDriver {
  public:
    explicit Graphs(StreamDevice &device) : device_(device) {}
    Status beginCapture() override;
    Status endCapture(void **graph) override;
    Status instantiate(void *graph, void **exec) override;
    Status update(void *exec, void *graph, bool *updated) override;
    Status launch(void *exec) override;
    void destroyGraph(void *graph) override;
    void destroyExec(void *exec) override;

  private:
    StreamDevice &device_;
  };

  Status allocatePinned(size_t bytes, void **ptr);
  void freePinned(void *ptr);
  bool isPinned(const void *host) const;
  Status createEvent(Event *event);
  Status recordEvent(Event event);
  Status waitEvent(Event event);

  /// Large transfers from or to pageable memory through the two bounce
  /// buffers (StreamCopies.cpp).
  struct Bounce {
    void *host = nullptr;
    Event done = nullptr;
    bool pending = false;
  };
  /// The two bounce buffers, created on first use; false when the driver
  /// refuses pinned memory (copies then go directly from pageable memory).
  bool haveBounceBuffers();
  Status waitFor(Bounce &bounce);
  Status bounceToDevice(char *dst, const char *src, size_t bytes);
  Status bounceToHost(char *dst, const char *src, size_t bytes);

  Limits limits_;
  StreamEntryPoints entries_;
  const char *gemmVariable_;
  Stream stream_ = nullptr;
  PinnedPool pinned_;
  Bounce bounce_[2];
  bool bounceTried_ = false;
  /// Made on the first GEMM (the library is loaded then, not at
  /// start-up); gemmLibrary_ stays null where it is unavailable.
  std::unique_ptr<GemmRouter> gemms_;
  std::unique_ptr<GemmLibrary> gemmLibrary_;
  void *workspace_ = nullptr;
  Graphs graphs_{*this};
};

/// A vendor library over the table `load` gives (loadCufft, ...), made by
/// `make(table)`; null where the library does not load, with the reason in
/// `*why` where given.
template <typename Api, typename Make>
auto makeLibrary(Status (*load)(const Api **), Make make,
                 Status *why = nullptr) -> decltype(make(std::declval<const Api &>())) {
  const Api *api = nullptr;
  Status status = load(&api);
  if (why)
    *why = status;
  if (!status.ok())
    return nullptr;
  return make(*api);
}

/// The device attributes the launch checks and DeviceProperties need, as
/// each vendor numbers them (-1: the vendor has none).
struct LaunchAttributes {
  int maxThreadsPerBlock;
  int maxBlockDim[3];
  int maxGridDim[3];
  int sharedPerBlock;
  /// The opt-in maximum of dynamic shared memory (CUDA), or -1.
  int sharedPerBlockOptIn;
  int multiprocessors;
  int warpSize;
};

/// Fills the workgroup limits, local memory, compute units and subgroup
/// size of `p` and the grid limits of `limits` from `attribute`, which
/// reads one attribute (0 where the driver does not say).
void readLaunchAttributes(const std::function<uint64_t(int)> &attribute,
                          const LaunchAttributes &ids, DeviceProperties &p,
                          StreamDevice::Limits &limits);

} // namespace adjoint::rt::gpu

/// Makes the device current for the rest of the scope, or returns `result`
/// (a Status, or nothing) when it cannot be.
#define ADJ_STREAM_CURRENT(result)                                             \
  ::adjoint::rt::gpu::StreamDevice::Current current(*this);                    \
  if (!current.status().ok())                                                  \
    return result;

#endif // ADJOINT_LIB_RUNTIME_GPU_STREAMDEVICE_H
