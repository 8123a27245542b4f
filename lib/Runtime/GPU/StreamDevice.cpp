//===- StreamDevice.cpp - What the CUDA and HIP drivers share -------------===//

#include "GPU/StreamDevice.h"

#include <algorithm>

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {
/// Free pinned staging blocks kept for reuse.
constexpr size_t kMaxCachedPinnedBytes = size_t(64) << 20;
/// The flags CUDA and HIP agree on: a stream that does not synchronize
/// with the legacy default stream (which other libraries in the process,
/// torch, may use), pinned memory usable from every device, an event with
/// timing.
constexpr unsigned kNonBlockingStream = 0x1;
constexpr unsigned kPortablePinned = 0x1;
constexpr unsigned kTimingEvent = 0x0;
} // namespace

StreamDevice::Current::Current(const StreamDevice &device) : device_(device) {
  status_ = device.enterDevice(&saved_);
}

StreamDevice::Current::~Current() {
  if (status_.ok())
    device_.leaveDevice(saved_);
}

StreamDevice::StreamDevice(DeviceKind kind, int index,
                           DeviceProperties properties, Limits limits,
                           const StreamEntryPoints &entries,
                           const char *gemmVariable)
    : GpuDevice(kind, index, std::move(properties)), limits_(limits),
      entries_(entries), gemmVariable_(gemmVariable),
      pinned_(PinnedPool::Backend{[this](size_t bytes, void **ptr) {
                                    ADJ_STREAM_CURRENT(current.status());
                                    return allocatePinned(bytes, ptr);
                                  },
                                  [this](void *ptr) {
                                    ADJ_STREAM_CURRENT();
                                    freePinned(ptr);
                                  }},
              kMaxCachedPinnedBytes) {}

// Devices are never destroyed (the registry keeps them for the process).
StreamDevice::~StreamDevice() = default;

Status StreamDevice::initialize() {
  if (Status status = openContext(); !status.ok())
    return status;
  ADJ_STREAM_CURRENT(current.status());
  return call(entries_.streamCreate, " for " + id(), &stream_,
              kNonBlockingStream);
}

Status StreamDevice::finish() {
  ADJ_STREAM_CURRENT(current.status());
  return call(entries_.streamSynchronize, " on " + id(), stream_);
}

Status StreamDevice::allocatePinned(size_t bytes, void **ptr) {
  return call(entries_.hostAlloc,
              " (" + std::to_string(bytes) + " pinned bytes)", ptr, bytes,
              kPortablePinned);
}

void StreamDevice::freePinned(void *ptr) { (void)entries_.hostFree.fn(ptr); }

bool StreamDevice::isPinned(const void *host) const {
  unsigned flags = 0;
  return entries_.hostGetFlags.fn(&flags, const_cast<void *>(host)) == 0;
}

Status StreamDevice::createEvent(Event *event) {
  return call(entries_.eventCreate, "", event, kTimingEvent);
}

Status StreamDevice::recordEvent(Event event) {
  return call(entries_.eventRecord, "", event, stream_);
}

Status StreamDevice::waitEvent(Event event) {
  return call(entries_.eventSynchronize, "", event);
}

Status StreamDevice::withCurrent(const std::function<Status()> &work) {
  return withQueue([&] {
    ADJ_STREAM_CURRENT(current.status());
    return work();
  });
}

uintptr_t StreamDevice::nativeStream() {
  uintptr_t handle = 0;
  Status status = withQueue([&] {
    handle = reinterpret_cast<uintptr_t>(stream_);
    return Status::success();
  });
  return status.ok() ? handle : 0;
}

Status StreamDevice::timeOnStream(const std::function<Status()> &enqueue,
                                  double *milliseconds) {
  return withCurrent([&] {
    Event events[2] = {nullptr, nullptr};
    Status status;
    for (Event &event : events)
      if (status.ok())
        status = createEvent(&event);
    if (status.ok())
      status = recordEvent(events[0]);
    if (status.ok())
      status = enqueue();
    if (status.ok())
      status = recordEvent(events[1]);
    if (status.ok())
      status = waitEvent(events[1]);
    float elapsed = 0;
    if (status.ok())
      status = call(entries_.eventElapsedTime, "", &elapsed, events[0],
                    events[1]);
    for (Event event : events)
      if (event)
        (void)entries_.eventDestroy.fn(event);
    if (status.ok())
      *milliseconds = elapsed;
    return status;
  });
}

Status StreamDevice::enqueueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a,
                                 void *b, void *c, void **fallbackArgs) {
  GemmRoute route;
  if (Status status = gemmRouteFromEnvironment(gemmVariable_, &route);
      !status.ok())
    return status;
  return withCurrent([&] {
    if (!gemms_) {
      Status why;
      gemmLibrary_ = makeGemmLibrary(&why);
      GemmRouter::Device lend;
      lend.allocate = [this](size_t bytes, void **ptr) {
        return allocate(bytes, ptr);
      };
      lend.deallocate = [this](void *ptr) { deallocate(ptr); };
      lend.time = [this](const std::function<Status()> &work, double *ms) {
        return timeOnStream(work, ms);
      };
      gemms_ = std::make_unique<GemmRouter>(gemmVariable_, why,
                                            std::move(lend), route);
    }
    gemms_->setRoute(route);
    return gemms_->run(gemmLibrary_.get(), gemm, a, b, c,
                       [&] { return launchFallback(gemm, fallbackArgs); });
  });
}

LibraryWorkspace StreamDevice::libraryWorkspace() {
  return [this](void **block) {
    if (!workspace_)
      if (Status status = allocate(kLibraryWorkspaceBytes, &workspace_);
          !status.ok())
        return status;
    *block = workspace_;
    return Status::success();
  };
}

int StreamDevice::settledGemmRoute(const adj_rt_gpu_gemm_desc &gemm, void *a,
                                   void *b, void *c) {
  GemmRoute route;
  // The router is made on the first GEMM, which is never recorded; an
  // invalid route variable fails the GEMM, recorded or not.
  if (!gemms_ || !gemmRouteFromEnvironment(gemmVariable_, &route).ok())
    return -1;
  // The library may make its plan for the problem here.
  ADJ_STREAM_CURRENT(-1);
  gemms_->setRoute(route);
  route = gemms_->settledRoute(gemmLibrary_.get(), gemm, a, b, c);
  return route == GemmRoute::Measure ? -1 : static_cast<int>(route);
}

Status StreamDevice::checkGrid(const adj_rt_gpu_kernel &kernel,
                               const uint64_t grid[3]) const {
  for (int d = 0; d < 3; ++d)
    if (limits_.maxGrid[d] && grid[d] > limits_.maxGrid[d])
      return Status::error(StatusCode::InvalidArgument,
                           "grid dimension " + std::to_string(d) + " of " +
                               std::to_string(grid[d]) + " blocks exceeds " +
                               id() + "'s limit " +
                               std::to_string(limits_.maxGrid[d]) +
                               " for kernel " + kernel.name);
  return Status::success();
}

Status StreamDevice::checkArguments(
    const adj_rt_gpu_kernel &kernel,
    const std::vector<uint32_t> &declared) const {
  auto mismatch = [&](const std::string &why) {
    return Status::error(StatusCode::InvalidArgument,
                         "kernel " + std::string(kernel.name) + " on " +
                             id() + ": " + why);
  };
  if (declared.size() != kernel.numArgs)
    return mismatch("takes " + std::to_string(declared.size()) +
                    " arguments, its descriptor says " +
                    std::to_string(kernel.numArgs));
  for (uint32_t i = 0; i < kernel.numArgs; ++i) {
    // A pointer's size is 0 in the descriptor.
    uint32_t expected = kernel.argSizes[i] ? kernel.argSizes[i] : 8;
    if (declared[i] != expected)
      return mismatch("argument #" + std::to_string(i) + " has " +
                      std::to_string(declared[i]) +
                      " bytes, its descriptor says " +
                      std::to_string(expected));
  }
  return Status::success();
}

void adjoint::rt::gpu::readLaunchAttributes(
    const std::function<uint64_t(int)> &attribute, const LaunchAttributes &ids,
    DeviceProperties &p, StreamDevice::Limits &limits) {
  p.maxWorkgroupSize = attribute(ids.maxThreadsPerBlock);
  for (int d = 0; d < 3; ++d) {
    p.maxWorkgroupDims[d] = attribute(ids.maxBlockDim[d]);
    limits.maxGrid[d] = attribute(ids.maxGridDim[d]);
  }
  // The opt-in maximum where there is one (launches past the default set
  // it per function).
  p.localMemoryBytes = attribute(ids.sharedPerBlock);
  if (ids.sharedPerBlockOptIn >= 0)
    p.localMemoryBytes =
        std::max(p.localMemoryBytes, attribute(ids.sharedPerBlockOptIn));
  p.computeUnits = static_cast<uint32_t>(attribute(ids.multiprocessors));
  if (uint64_t warp = attribute(ids.warpSize))
    p.subgroupSizes.push_back(static_cast<uint32_t>(warp));
}
