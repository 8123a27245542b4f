//===- HipDevice.cpp - AMD GPUs through the HIP runtime -------------------===//

#include "HIP/HipDevice.h"
#include "HIP/HipImage.h"
#include "HIP/KernelMetadata.h"
#include "HIP/RocfftLibrary.h"
#include "HIP/RocsolverSolver.h"

#include <algorithm>
#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
/// Free pinned staging blocks kept for reuse.
constexpr size_t kMaxCachedPinnedBytes = size_t(64) << 20;

/// A loaded module and the arguments its kernels declare.
struct Module {
  hipModule_t module;
  KernelArguments arguments;
};
} // namespace

/// Makes the device current on this thread for its life, and the thread's
/// previous device current again after (torch and others rely on theirs).
class HipDevice::Current {
public:
  explicit Current(const HipDevice &device) : device_(device) {
    if (device.hip_.hipGetDevice(&previous_) != hipSuccess)
      previous_ = -1;
    if (previous_ == device.device_)
      return;
    status_ = device.check(device.hip_.hipSetDevice(device.device_),
                           "hipSetDevice", " for " + device.id());
  }
  ~Current() {
    if (status_.ok() && previous_ >= 0 && previous_ != device_.device_)
      (void)device_.hip_.hipSetDevice(previous_);
  }
  const Status &status() const { return status_; }

private:
  const HipDevice &device_;
  int previous_ = -1;
  Status status_;
};

#define ADJ_HIP_CURRENT(result)                                                \
  Current current(*this);                                                      \
  if (!current.status().ok())                                                  \
    return result;

HipDevice::HipDevice(const HipApi &api, hipDevice_t device, int index,
                     DeviceProperties properties, Limits limits)
    : GpuDevice(DeviceKind::HIP, index, std::move(properties)), hip_(api),
      device_(device), limits_(limits),
      pinned_(gpu::PinnedPool::Backend{[this](size_t bytes, void **ptr) {
                                         return allocatePinned(bytes, ptr);
                                       },
                                       [this](void *ptr) { freePinned(ptr); }},
              kMaxCachedPinnedBytes) {}

// Devices are never destroyed (the registry keeps them for the process).
HipDevice::~HipDevice() = default;

Status HipDevice::allocatePinned(size_t bytes, void **ptr) {
  ADJ_HIP_CURRENT(current.status());
  return check(hip_.hipHostMalloc(ptr, bytes, hipHostMallocPortable),
               "hipHostMalloc",
               " (" + std::to_string(bytes) + " pinned bytes)");
}

void HipDevice::freePinned(void *ptr) {
  ADJ_HIP_CURRENT();
  (void)hip_.hipHostFree(ptr);
}

Status HipDevice::initialize() {
  ADJ_HIP_CURRENT(current.status());
  return check(hip_.hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking),
               "hipStreamCreateWithFlags", " for " + id());
}

uintptr_t HipDevice::nativeStream() {
  uintptr_t handle = 0;
  Status status = withQueue([&] {
    handle = reinterpret_cast<uintptr_t>(stream_);
    return Status::success();
  });
  return status.ok() ? handle : 0;
}

Status HipDevice::withCurrent(const std::function<Status()> &work) {
  return withQueue([&] {
    ADJ_HIP_CURRENT(current.status());
    return work();
  });
}

std::unique_ptr<gpu::LinearAlgebraLibrary> HipDevice::makeFftLibrary() {
  const RocfftApi *api = nullptr;
  if (!loadRocfft(&api).ok())
    return nullptr;
  return std::make_unique<RocfftLibrary>(*this, *api);
}

std::unique_ptr<gpu::DenseSolver> HipDevice::makeDenseSolver() {
  const RocsolverApi *api = nullptr;
  if (!loadRocsolver(&api).ok())
    return nullptr;
  return std::make_unique<RocsolverSolver>(*this, *api);
}

Status HipDevice::timeOnStream(const std::function<Status()> &enqueue,
                               double *milliseconds) {
  return withCurrent([&] {
    hipEvent_t events[2] = {nullptr, nullptr};
    Status status;
    for (hipEvent_t &event : events)
      if (status.ok())
        status = check(hip_.hipEventCreateWithFlags(&event, hipEventDefault),
                       "hipEventCreateWithFlags");
    if (status.ok())
      status = check(hip_.hipEventRecord(events[0], stream_),
                     "hipEventRecord");
    if (status.ok())
      status = enqueue();
    if (status.ok())
      status = check(hip_.hipEventRecord(events[1], stream_),
                     "hipEventRecord");
    if (status.ok())
      status = check(hip_.hipEventSynchronize(events[1]),
                     "hipEventSynchronize");
    float elapsed = 0;
    if (status.ok())
      status = check(hip_.hipEventElapsedTime(&elapsed, events[0], events[1]),
                     "hipEventElapsedTime");
    for (hipEvent_t event : events)
      if (event)
        (void)hip_.hipEventDestroy(event);
    if (status.ok())
      *milliseconds = elapsed;
    return status;
  });
}

Status HipDevice::enqueueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a,
                              void *b, void *c, void **fallbackArgs) {
  gpu::GemmRoute route;
  if (Status status = gpu::gemmRouteFromEnvironment("ADJOINT_HIP_GEMM", &route);
      !status.ok())
    return status;
  return withCurrent([&] {
    if (!gemms_) {
      const RocblasApi *api = nullptr;
      Status why = loadRocblas(&api);
      if (why.ok())
        rocblas_ = std::make_unique<RocblasGemm>(*api, stream_);
      gpu::GemmRouter::Device lend;
      lend.allocate = [this](size_t bytes, void **ptr) {
        return allocate(bytes, ptr);
      };
      lend.deallocate = [this](void *ptr) { deallocate(ptr); };
      lend.time = [this](const std::function<Status()> &work, double *ms) {
        return timeOnStream(work, ms);
      };
      gemms_ = std::make_unique<gpu::GemmRouter>(
          "ADJOINT_HIP_GEMM", why, std::move(lend), route);
    }
    gemms_->setRoute(route);
    return gemms_->run(rocblas_.get(), gemm, a, b, c,
                       [&] { return launchFallback(gemm, fallbackArgs); });
  });
}

Status HipDevice::rawAllocate(size_t bytes, void **ptr) {
  ADJ_HIP_CURRENT(current.status());
  return check(hip_.hipMalloc(ptr, bytes), "hipMalloc",
               " (" + std::to_string(bytes) + " bytes on " + id() + ")");
}

void HipDevice::rawRelease(void *ptr) {
  ADJ_HIP_CURRENT();
  (void)hip_.hipFree(ptr);
}

Status HipDevice::enqueueCopy(void *dst, const void *src, size_t bytes,
                              gpu::CopyKind kind, bool blocking) {
  ADJ_HIP_CURRENT(current.status());
  // HIP's copies take a non-const source; they do not write it.
  void *from = const_cast<void *>(src);
  Status status;
  switch (kind) {
  case gpu::CopyKind::DeviceToDevice:
    status = check(hip_.hipMemcpyDtoDAsync(dst, from, bytes, stream_),
                   "hipMemcpyDtoDAsync");
    break;
  case gpu::CopyKind::HostToDevice:
    status = check(hip_.hipMemcpyHtoDAsync(dst, from, bytes, stream_),
                   "hipMemcpyHtoDAsync");
    break;
  case gpu::CopyKind::DeviceToHost:
    status = check(hip_.hipMemcpyDtoHAsync(dst, from, bytes, stream_),
                   "hipMemcpyDtoHAsync");
    break;
  }
  if (!status.ok() || !blocking)
    return status;
  return finish();
}

Status HipDevice::enqueueFill(void *dst, uint8_t value, size_t bytes) {
  ADJ_HIP_CURRENT(current.status());
  return check(hip_.hipMemsetD8Async(dst, value, bytes, stream_),
               "hipMemsetD8Async");
}

Status HipDevice::finish() {
  ADJ_HIP_CURRENT(current.status());
  return check(hip_.hipStreamSynchronize(stream_), "hipStreamSynchronize",
               " on " + id());
}

Status HipDevice::loadModule(const adj_rt_gpu_module &module, void **handle) {
  std::string name = module.name ? module.name : "<unnamed>";
  if (Status status = checkHipImage(module.data, module.size, name);
      !status.ok())
    return status;
  KernelArguments arguments;
  if (Status status =
          readKernelArguments(module.data, module.size, name, &arguments);
      !status.ok())
    return status;
  ADJ_HIP_CURRENT(current.status());
  hipModule_t result = nullptr;
  // A code object for another chip fails here (hipErrorNoBinaryForGpu or
  // hipErrorInvalidImage): the message names the module and the device,
  // whose chip (properties().chip) the target must match.
  if (Status status = check(hip_.hipModuleLoadData(&result, module.data),
                            "hipModuleLoadData",
                            " for module " + name + " on " + id() + " (" +
                                properties().chip + ")");
      !status.ok())
    return status;
  *handle = new Module{result, std::move(arguments)};
  return Status::success();
}

Status HipDevice::loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                             void **handle) {
  const auto *m = static_cast<const Module *>(module);
  ADJ_HIP_CURRENT(current.status());
  hipFunction_t function = nullptr;
  if (Status status = check(
          hip_.hipModuleGetFunction(&function, m->module, kernel.name),
          "hipModuleGetFunction", std::string(" for kernel ") + kernel.name);
      !status.ok())
    return status;
  // hipModuleLaunchKernel reads as many argument values as the kernel
  // declares, of its sizes: a descriptor that disagrees would make it read
  // past them.
  auto mismatch = [&](const std::string &why) {
    return Status::error(StatusCode::InvalidArgument,
                         "kernel " + std::string(kernel.name) + " on " +
                             id() + ": " + why);
  };
  auto declared = m->arguments.find(kernel.name);
  if (declared == m->arguments.end())
    return mismatch("not in its code object's amdhsa.kernels metadata");
  const std::vector<uint32_t> &sizes = declared->second;
  if (sizes.size() != kernel.numArgs)
    return mismatch("takes " + std::to_string(sizes.size()) +
                    " arguments, its descriptor says " +
                    std::to_string(kernel.numArgs));
  for (uint32_t i = 0; i < kernel.numArgs; ++i) {
    uint32_t expected = kernel.argSizes[i] ? kernel.argSizes[i] : 8;
    if (sizes[i] != expected)
      return mismatch("argument #" + std::to_string(i) + " has " +
                      std::to_string(sizes[i]) +
                      " bytes, its descriptor says " +
                      std::to_string(expected));
  }
  *handle = function;
  return Status::success();
}

Status HipDevice::enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                                const uint64_t grid[3], const uint64_t block[3],
                                uint32_t sharedBytes, void **args) {
  std::string what = std::string(" for kernel ") + kernel.name;
  for (int d = 0; d < 3; ++d) {
    // A limit the driver did not report (0) is not checked here.
    if (limits_.maxGrid[d] && grid[d] > limits_.maxGrid[d])
      return Status::error(StatusCode::InvalidArgument,
                           "grid dimension " + std::to_string(d) + " of " +
                               std::to_string(grid[d]) + " blocks exceeds " +
                               id() + "'s limit " +
                               std::to_string(limits_.maxGrid[d]) + what);
    // AMD's dispatch packet counts work items, not blocks, in 32 bits: a
    // grid HIP's block limit allows may still not fit.
    if (grid[d] * block[d] > UINT32_MAX)
      return Status::error(StatusCode::InvalidArgument,
                           "grid dimension " + std::to_string(d) + " of " +
                               std::to_string(grid[d]) + " blocks of " +
                               std::to_string(block[d]) +
                               " work items exceeds AMD's 2^32 work items" +
                               what);
  }
  ADJ_HIP_CURRENT(current.status());
  return check(hip_.hipModuleLaunchKernel(
                   static_cast<hipFunction_t>(handle),
                   static_cast<unsigned>(grid[0]),
                   static_cast<unsigned>(grid[1]),
                   static_cast<unsigned>(grid[2]),
                   static_cast<unsigned>(block[0]),
                   static_cast<unsigned>(block[1]),
                   static_cast<unsigned>(block[2]), sharedBytes, stream_,
                   kernel.numArgs ? args : nullptr, nullptr),
               "hipModuleLaunchKernel", what);
}

// Functions belong to their module and are not released on their own.
void HipDevice::releaseKernel(void *) {}

void HipDevice::releaseModule(void *handle) {
  auto *m = static_cast<Module *>(handle);
  {
    ADJ_HIP_CURRENT();
    (void)hip_.hipModuleUnload(m->module);
  }
  delete m;
}

namespace {

/// "gfx942:sramecc+:xnack-" from the device properties, or "" where the
/// runtime does not export them or no gfx name is where the layout puts
/// it. Tried as LLVM's amdgpu-arch does: ROCm 5's layout under its ROCm 6
/// name (R0000), ROCm 6's (R0600), then the plain name, whose layout is
/// the runtime's own (R0000 in ROCm 5, R0600 in ROCm 6).
std::string architectureName(const HipApi &hip, hipDevice_t device) {
  struct Query {
    hipError_t (*fn)(void *, int);
    std::initializer_list<size_t> offsets;
  };
  const Query queries[] = {
      {hip.hipGetDevicePropertiesR0000, {kPropertiesGcnArchNameOffset}},
      {hip.hipGetDevicePropertiesR0600, {kPropertiesR0600GcnArchNameOffset}},
      {hip.hipGetDeviceProperties,
       {kPropertiesGcnArchNameOffset, kPropertiesR0600GcnArchNameOffset}}};
  std::vector<char> properties(kPropertiesBufferBytes, '\0');
  for (const Query &query : queries) {
    if (!query.fn || query.fn(properties.data(), device) != hipSuccess)
      continue;
    for (size_t offset : query.offsets) {
      const char *name = properties.data() + offset;
      std::string arch(name, strnlen(name, kPropertiesGcnArchNameBytes));
      if (arch.rfind("gfx", 0) == 0)
        return arch;
    }
  }
  return "";
}

/// The properties of `device`, and its grid limits in `limits`.
DeviceProperties queryProperties(const HipApi &hip, hipDevice_t device,
                                 HipDevice::Limits &limits) {
  DeviceProperties p;
  auto attribute = [&](hipDeviceAttribute_t which) -> uint64_t {
    int value = 0;
    if (hip.hipDeviceGetAttribute(&value, which, device) != hipSuccess ||
        value < 0)
      return 0;
    return static_cast<uint64_t>(value);
  };
  char name[256] = {};
  if (hip.hipDeviceGetName(name, sizeof(name) - 1, device) == hipSuccess)
    p.name = name;
  p.vendor = "AMD";
  // ROCm encodes major * 10^7 + minor * 10^5 + patch.
  int version = 0;
  if (hip.hipDriverGetVersion(&version) == hipSuccess && version > 0)
    p.driverVersion = "HIP " + std::to_string(version / 10000000) + "." +
                      std::to_string(version / 100000 % 100);
  size_t total = 0;
  if (hip.hipDeviceTotalMem(&total, device) == hipSuccess)
    p.memoryBytes = total;
  p.chip = architectureName(hip, device);
  p.maxWorkgroupSize = attribute(hipDeviceAttributeMaxThreadsPerBlock);
  p.maxWorkgroupDims[0] = attribute(hipDeviceAttributeMaxBlockDimX);
  p.maxWorkgroupDims[1] = attribute(hipDeviceAttributeMaxBlockDimY);
  p.maxWorkgroupDims[2] = attribute(hipDeviceAttributeMaxBlockDimZ);
  limits.maxGrid[0] = attribute(hipDeviceAttributeMaxGridDimX);
  limits.maxGrid[1] = attribute(hipDeviceAttributeMaxGridDimY);
  limits.maxGrid[2] = attribute(hipDeviceAttributeMaxGridDimZ);
  p.localMemoryBytes = attribute(hipDeviceAttributeMaxSharedMemoryPerBlock);
  p.computeUnits =
      static_cast<uint32_t>(attribute(hipDeviceAttributeMultiprocessorCount));
  // The wavefront: 64 on CDNA (gfx9), 32 on RDNA (gfx10+, as HIP runs it).
  if (uint64_t wave = attribute(hipDeviceAttributeWarpSize))
    p.subgroupSizes.push_back(static_cast<uint32_t>(wave));
  // Every GPU ROCm supports has fp64 and fp16 arithmetic.
  p.fp64 = true;
  p.fp16 = true;
  return p;
}

} // namespace

Status adjoint::rt::hip::probeDevices(
    std::vector<std::unique_ptr<Device>> &devices) {
  const HipApi *api = nullptr;
  if (Status status = loadHip(&api); !status.ok())
    return status;
  const HipApi &hip = *api;
  int count = 0;
  if (Status status =
          check(hip, hip.hipGetDeviceCount(&count), "hipGetDeviceCount");
      !status.ok())
    return Status::error(StatusCode::Unavailable, status.message());
  // hip:N is HIP's ordinal N, the number torch and DLPack use.
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    HipDevice::Limits limits;
    DeviceProperties properties = queryProperties(hip, ordinal, limits);
    devices.push_back(std::make_unique<HipDevice>(
        hip, ordinal, ordinal, std::move(properties), limits));
  }
  if (devices.empty())
    return Status::error(StatusCode::Unavailable,
                         "no HIP GPU (the runtime found none)");
  return Status::success();
}
