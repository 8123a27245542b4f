//===- CudaDevice.cpp - NVIDIA GPUs through the CUDA driver API -----------===//

#include "CUDA/CudaDevice.h"
#include "CUDA/CufftLibrary.h"
#include "CUDA/CusolverSolver.h"
#include "CUDA/CudaImage.h"

#include <algorithm>
#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {
/// Host transfers from or to pageable memory up to this size go directly
/// (the driver stages them itself); larger ones through the bounce buffers.
constexpr size_t kMinBounceCopy = size_t(1) << 20;
/// The size of each of the two bounce buffers.
constexpr size_t kBounceBytes = size_t(4) << 20;
/// Free pinned staging blocks kept for reuse.
constexpr size_t kMaxCachedPinnedBytes = size_t(64) << 20;
/// The error log of a module load (PTX JIT messages).
constexpr size_t kLogBytes = 4096;

CUdeviceptr address(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

/// A loaded kernel: the function and the dynamic shared memory it has been
/// allowed so far.
struct Kernel {
  CUfunction function;
  uint32_t sharedLimit;
};
} // namespace

/// Makes the device's primary context current on this thread for its life.
class CudaDevice::Current {
public:
  explicit Current(const CudaDevice &device) : device_(device) {
    CUresult result = device.cu_.cuCtxPushCurrent_v2(device.context_);
    if (result != CUDA_SUCCESS)
      status_ = device.check(result, "cuCtxPushCurrent_v2",
                             " for " + device.id());
  }
  ~Current() {
    CUcontext popped = nullptr;
    if (status_.ok())
      (void)device_.cu_.cuCtxPopCurrent_v2(&popped);
  }
  const Status &status() const { return status_; }

private:
  const CudaDevice &device_;
  Status status_;
};

#define ADJ_CUDA_CURRENT(result)                                               \
  Current current(*this);                                                      \
  if (!current.status().ok())                                                  \
    return result;

CudaDevice::CudaDevice(const CudaApi &api, CUdevice device, int index,
                       DeviceProperties properties, Limits limits)
    : GpuDevice(DeviceKind::CUDA, index, std::move(properties)), cu_(api),
      device_(device), limits_(limits),
      pinned_(gpu::PinnedPool::Backend{[this](size_t bytes, void **ptr) {
                                    return allocatePinned(bytes, ptr);
                                  },
                                  [this](void *ptr) { freePinned(ptr); }},
              kMaxCachedPinnedBytes) {}

Status CudaDevice::allocatePinned(size_t bytes, void **ptr) {
  ADJ_CUDA_CURRENT(current.status());
  return check(cu_.cuMemHostAlloc(ptr, bytes, CU_MEMHOSTALLOC_PORTABLE),
               "cuMemHostAlloc",
               " (" + std::to_string(bytes) + " pinned bytes)");
}

void CudaDevice::freePinned(void *ptr) {
  ADJ_CUDA_CURRENT();
  (void)cu_.cuMemFreeHost(ptr);
}

// Devices are never destroyed (the registry keeps them for the process).
CudaDevice::~CudaDevice() = default;

std::unique_ptr<gpu::LinearAlgebraLibrary> CudaDevice::makeFftLibrary() {
  const CufftApi *api = nullptr;
  if (!loadCufft(&api).ok())
    return nullptr;
  return std::make_unique<CufftLibrary>(*this, *api);
}

std::unique_ptr<gpu::DenseSolver> CudaDevice::makeDenseSolver() {
  const CusolverApi *api = nullptr;
  if (!loadCusolver(&api).ok())
    return nullptr;
  return std::make_unique<CusolverSolver>(*this, *api);
}

Status CudaDevice::initialize() {
  if (Status status = check(cu_.cuDevicePrimaryCtxRetain(&context_, device_),
                            "cuDevicePrimaryCtxRetain", " for " + id());
      !status.ok())
    return status;
  ADJ_CUDA_CURRENT(current.status());
  return check(cu_.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING),
               "cuStreamCreate", " for " + id());
}

Status CudaDevice::withContext(const std::function<Status()> &work) {
  return withQueue([&] {
    ADJ_CUDA_CURRENT(current.status());
    return work();
  });
}

uintptr_t CudaDevice::nativeStream() {
  uintptr_t handle = 0;
  Status status = withQueue([&] {
    handle = reinterpret_cast<uintptr_t>(stream_);
    return Status::success();
  });
  return status.ok() ? handle : 0;
}

Status CudaDevice::timeOnStream(const std::function<Status()> &enqueue,
                                double *milliseconds) {
  return withContext([&] {
    CUevent events[2] = {nullptr, nullptr};
    Status status;
    for (CUevent &event : events)
      if (status.ok())
        status = check(cu_.cuEventCreate(&event, CU_EVENT_DEFAULT),
                       "cuEventCreate");
    if (status.ok())
      status = check(cu_.cuEventRecord(events[0], stream_), "cuEventRecord");
    if (status.ok())
      status = enqueue();
    if (status.ok())
      status = check(cu_.cuEventRecord(events[1], stream_), "cuEventRecord");
    if (status.ok())
      status = check(cu_.cuEventSynchronize(events[1]), "cuEventSynchronize");
    float elapsed = 0;
    if (status.ok())
      status = check(cu_.cuEventElapsedTime(&elapsed, events[0], events[1]),
                     "cuEventElapsedTime");
    for (CUevent event : events)
      if (event)
        (void)cu_.cuEventDestroy_v2(event);
    if (status.ok())
      *milliseconds = elapsed;
    return status;
  });
}

Status CudaDevice::enqueueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a,
                               void *b, void *c, void **fallbackArgs) {
  GemmRoute route;
  if (Status status = gemmRouteFromEnvironment(&route); !status.ok())
    return status;
  return withContext([&] {
    if (!gemms_) {
      const CublasLtApi *lt = nullptr;
      Status why = loadCublasLt(&lt);
      CublasLtGemm::Device lend;
      lend.stream = stream_;
      lend.allocate = [this](size_t bytes, void **ptr) {
        return allocate(bytes, ptr);
      };
      lend.deallocate = [this](void *ptr) { deallocate(ptr); };
      lend.time = [this](const std::function<Status()> &work, double *ms) {
        return timeOnStream(work, ms);
      };
      gemms_ = std::make_unique<CublasLtGemm>(why.ok() ? lt : nullptr, why,
                                              std::move(lend), route);
    }
    gemms_->setRoute(route);
    return gemms_->run(gemm, a, b, c,
                       [&] { return launchFallback(gemm, fallbackArgs); });
  });
}

Status CudaDevice::rawAllocate(size_t bytes, void **ptr) {
  ADJ_CUDA_CURRENT(current.status());
  CUdeviceptr block = 0;
  if (Status status = check(cu_.cuMemAlloc_v2(&block, bytes), "cuMemAlloc_v2",
                            " (" + std::to_string(bytes) + " bytes on " +
                                id() + ")");
      !status.ok())
    return status;
  *ptr = reinterpret_cast<void *>(block);
  return Status::success();
}

void CudaDevice::rawRelease(void *ptr) {
  ADJ_CUDA_CURRENT();
  (void)cu_.cuMemFree_v2(address(ptr));
}

bool CudaDevice::isPinned(const void *host) const {
  unsigned flags = 0;
  return cu_.cuMemHostGetFlags(&flags, const_cast<void *>(host)) ==
         CUDA_SUCCESS;
}

bool CudaDevice::haveBounceBuffers() {
  if (bounceTried_)
    return bounce_[1].done != nullptr;
  bounceTried_ = true;
  for (Bounce &bounce : bounce_) {
    bool ok = allocatePinned(kBounceBytes, &bounce.host).ok() &&
              cu_.cuEventCreate(&bounce.done, CU_EVENT_DEFAULT) ==
                  CUDA_SUCCESS;
    if (!ok) {
      // Without both buffers, copies go directly: give back what we got.
      for (Bounce &b : bounce_) {
        if (b.host)
          freePinned(b.host);
        if (b.done)
          (void)cu_.cuEventDestroy_v2(b.done);
        b = Bounce();
      }
      return false;
    }
  }
  return true;
}

Status CudaDevice::waitFor(Bounce &bounce) {
  if (!bounce.pending)
    return Status::success();
  bounce.pending = false;
  return check(cu_.cuEventSynchronize(bounce.done), "cuEventSynchronize");
}

Status CudaDevice::bounceToDevice(CUdeviceptr dst, const char *src,
                                  size_t bytes) {
  // Double buffering: the host fills one buffer while the copy engine
  // reads the other.
  Status status;
  for (size_t done = 0, chunk = 0; done < bytes && status.ok(); ++chunk) {
    Bounce &bounce = bounce_[chunk % 2];
    size_t n = std::min(kBounceBytes, bytes - done);
    status = waitFor(bounce);
    if (!status.ok())
      break;
    std::memcpy(bounce.host, src + done, n);
    status = check(cu_.cuMemcpyHtoDAsync_v2(dst + done, bounce.host, n,
                                            stream_),
                   "cuMemcpyHtoDAsync_v2");
    if (status.ok())
      status = check(cu_.cuEventRecord(bounce.done, stream_), "cuEventRecord");
    bounce.pending = status.ok();
    done += n;
  }
  // The source may be reused when this returns: wait for the last chunks.
  Status finished = finish();
  bounce_[0].pending = bounce_[1].pending = false;
  return status.ok() ? finished : status;
}

Status CudaDevice::bounceToHost(char *dst, CUdeviceptr src, size_t bytes) {
  size_t chunks = (bytes + kBounceBytes - 1) / kBounceBytes;
  auto chunkBytes = [&](size_t chunk) {
    return std::min(kBounceBytes, bytes - chunk * kBounceBytes);
  };
  auto enqueue = [&](size_t chunk) {
    Bounce &bounce = bounce_[chunk % 2];
    Status status = check(
        cu_.cuMemcpyDtoHAsync_v2(bounce.host, src + chunk * kBounceBytes,
                                 chunkBytes(chunk), stream_),
        "cuMemcpyDtoHAsync_v2");
    if (status.ok())
      status = check(cu_.cuEventRecord(bounce.done, stream_), "cuEventRecord");
    bounce.pending = status.ok();
    return status;
  };
  // The copy engine fills the next buffer while the host empties this one.
  Status status = enqueue(0);
  for (size_t chunk = 0; chunk < chunks && status.ok(); ++chunk) {
    if (chunk + 1 < chunks)
      status = enqueue(chunk + 1);
    if (status.ok())
      status = waitFor(bounce_[chunk % 2]);
    if (status.ok())
      std::memcpy(dst + chunk * kBounceBytes, bounce_[chunk % 2].host,
                  chunkBytes(chunk));
  }
  if (!status.ok()) {
    (void)finish();
    bounce_[0].pending = bounce_[1].pending = false;
  }
  return status;
}

Status CudaDevice::enqueueCopy(void *dst, const void *src, size_t bytes,
                               gpu::CopyKind kind, bool blocking) {
  ADJ_CUDA_CURRENT(current.status());
  Status status;
  switch (kind) {
  case gpu::CopyKind::DeviceToDevice:
    status = check(cu_.cuMemcpyDtoDAsync_v2(address(dst), address(src), bytes,
                                            stream_),
                   "cuMemcpyDtoDAsync_v2");
    break;
  case gpu::CopyKind::HostToDevice:
    if (blocking && bytes >= kMinBounceCopy && !isPinned(src) &&
        haveBounceBuffers())
      return bounceToDevice(address(dst), static_cast<const char *>(src),
                            bytes);
    status = check(cu_.cuMemcpyHtoDAsync_v2(address(dst), src, bytes, stream_),
                   "cuMemcpyHtoDAsync_v2");
    break;
  case gpu::CopyKind::DeviceToHost:
    if (blocking && bytes >= kMinBounceCopy && !isPinned(dst) &&
        haveBounceBuffers())
      return bounceToHost(static_cast<char *>(dst), address(src), bytes);
    status = check(cu_.cuMemcpyDtoHAsync_v2(dst, address(src), bytes, stream_),
                   "cuMemcpyDtoHAsync_v2");
    break;
  }
  if (!status.ok() || !blocking)
    return status;
  return finish();
}

Status CudaDevice::enqueueFill(void *dst, uint8_t value, size_t bytes) {
  ADJ_CUDA_CURRENT(current.status());
  return check(cu_.cuMemsetD8Async(address(dst), value, bytes, stream_),
               "cuMemsetD8Async");
}

Status CudaDevice::finish() {
  ADJ_CUDA_CURRENT(current.status());
  return check(cu_.cuStreamSynchronize(stream_), "cuStreamSynchronize",
               " on " + id());
}

Status CudaDevice::loadModule(const adj_rt_gpu_module &module,
                              void **handle) {
  std::string name = module.name ? module.name : "<unnamed>";
  if (Status status = checkCudaImage(module.data, module.size, name);
      !status.ok())
    return status;
  ADJ_CUDA_CURRENT(current.status());
  // The error log says why PTX did not JIT (a GPU older than its target).
  std::string log(kLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log.data(), reinterpret_cast<void *>(kLogBytes)};
  CUmodule result = nullptr;
  CUresult err =
      cu_.cuModuleLoadDataEx(&result, module.data, 2, options, values);
  log.resize(strnlen(log.data(), kLogBytes));
  if (Status status = check(err, "cuModuleLoadDataEx",
                            " for module " + name + " on " + id() +
                                (log.empty() ? "" : ":\n" + log));
      !status.ok())
    return status;
  *handle = result;
  return Status::success();
}

Status CudaDevice::loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                              void **handle) {
  ADJ_CUDA_CURRENT(current.status());
  std::string what = std::string(" for kernel ") + kernel.name;
  CUfunction function = nullptr;
  if (Status status = check(
          cu_.cuModuleGetFunction(&function, static_cast<CUmodule>(module),
                                  kernel.name),
          "cuModuleGetFunction", what);
      !status.ok())
    return status;
  // cuLaunchKernel reads as many argument values as the kernel takes, of
  // its sizes: a descriptor that disagrees would make it read past them.
  if (cu_.cuFuncGetParamInfo) {
    auto mismatch = [&](const std::string &why) {
      return Status::error(StatusCode::InvalidArgument,
                           "kernel " + std::string(kernel.name) + " on " +
                               id() + ": " + why);
    };
    for (uint32_t i = 0; i < kernel.numArgs; ++i) {
      size_t offset = 0, size = 0;
      if (cu_.cuFuncGetParamInfo(function, i, &offset, &size) != CUDA_SUCCESS)
        return mismatch("takes " + std::to_string(i) + " arguments, its "
                        "descriptor says " + std::to_string(kernel.numArgs));
      size_t expected = kernel.argSizes[i] ? kernel.argSizes[i] : 8;
      if (size != expected)
        return mismatch("argument #" + std::to_string(i) + " has " +
                        std::to_string(size) + " bytes, its descriptor says " +
                        std::to_string(expected));
    }
    size_t offset = 0, size = 0;
    if (cu_.cuFuncGetParamInfo(function, kernel.numArgs, &offset, &size) ==
        CUDA_SUCCESS)
      return mismatch("takes more than the " +
                      std::to_string(kernel.numArgs) +
                      " arguments of its descriptor");
  }
  *handle = new Kernel{function, kDefaultSharedBytes};
  return Status::success();
}

Status CudaDevice::enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                                 const uint64_t grid[3],
                                 const uint64_t block[3], uint32_t sharedBytes,
                                 void **args) {
  auto *k = static_cast<Kernel *>(handle);
  std::string what = std::string(" for kernel ") + kernel.name;
  for (int d = 0; d < 3; ++d)
    if (grid[d] > limits_.maxGrid[d])
      return Status::error(StatusCode::InvalidArgument,
                           "grid dimension " + std::to_string(d) + " of " +
                               std::to_string(grid[d]) + " blocks exceeds " +
                               id() + "'s limit " +
                               std::to_string(limits_.maxGrid[d]) + what);
  ADJ_CUDA_CURRENT(current.status());
  // Past 48 KiB, dynamic shared memory must be allowed per function.
  if (sharedBytes > k->sharedLimit) {
    CUresult allowed = cu_.cuFuncSetAttribute(
        k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        static_cast<int>(sharedBytes));
    if (Status status = check(allowed, "cuFuncSetAttribute", what);
        !status.ok())
      return status;
    k->sharedLimit = sharedBytes;
  }
  return check(cu_.cuLaunchKernel(
                   k->function, static_cast<unsigned>(grid[0]),
                   static_cast<unsigned>(grid[1]),
                   static_cast<unsigned>(grid[2]),
                   static_cast<unsigned>(block[0]),
                   static_cast<unsigned>(block[1]),
                   static_cast<unsigned>(block[2]), sharedBytes, stream_,
                   kernel.numArgs ? args : nullptr, nullptr),
               "cuLaunchKernel", what);
}

void CudaDevice::releaseKernel(void *handle) {
  delete static_cast<Kernel *>(handle);
}

void CudaDevice::releaseModule(void *handle) {
  ADJ_CUDA_CURRENT();
  (void)cu_.cuModuleUnload(static_cast<CUmodule>(handle));
}

namespace {

/// The properties of `device`, and its grid limits in `limits`.
DeviceProperties queryProperties(const CudaApi &cu, CUdevice device,
                                 CudaDevice::Limits &limits) {
  DeviceProperties p;
  auto attribute = [&](CUdevice_attribute which) -> uint64_t {
    int value = 0;
    if (cu.cuDeviceGetAttribute(&value, which, device) != CUDA_SUCCESS ||
        value < 0)
      return 0;
    return static_cast<uint64_t>(value);
  };
  char name[256] = {};
  if (cu.cuDeviceGetName(name, sizeof(name) - 1, device) == CUDA_SUCCESS)
    p.name = name;
  p.vendor = "NVIDIA";
  int version = 0;
  if (cu.cuDriverGetVersion(&version) == CUDA_SUCCESS)
    p.driverVersion = "CUDA " + std::to_string(version / 1000) + "." +
                      std::to_string(version % 1000 / 10);
  size_t total = 0;
  if (cu.cuDeviceTotalMem_v2(&total, device) == CUDA_SUCCESS)
    p.memoryBytes = total;
  uint64_t major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  uint64_t minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  p.chip = "sm_" + std::to_string(major) + std::to_string(minor);
  p.maxWorkgroupSize = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  p.maxWorkgroupDims[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  p.maxWorkgroupDims[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  p.maxWorkgroupDims[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  limits.maxGrid[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  limits.maxGrid[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  limits.maxGrid[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  // The opt-in maximum (launches past 48 KiB set it per function).
  p.localMemoryBytes = std::max(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  p.computeUnits = static_cast<uint32_t>(
      attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  if (uint64_t warp = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE))
    p.subgroupSizes.push_back(static_cast<uint32_t>(warp));
  // Every CUDA GPU has fp64; fp16 arithmetic came with sm_53.
  p.fp64 = true;
  p.fp16 = major * 10 + minor >= 53;
  return p;
}

} // namespace

Status adjoint::rt::cuda::probeDevices(
    std::vector<std::unique_ptr<Device>> &devices) {
  const CudaApi *api = nullptr;
  if (Status status = loadCuda(&api); !status.ok())
    return status;
  const CudaApi &cu = *api;
  int count = 0;
  if (Status status = check(cu, cu.cuDeviceGetCount(&count),
                            "cuDeviceGetCount");
      !status.ok())
    return Status::error(StatusCode::Unavailable, status.message());
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    // cuda:N must be CUDA's ordinal N, the number torch and DLPack use:
    // no device is skipped.
    CUdevice device = 0;
    if (Status status = check(cu, cu.cuDeviceGet(&device, ordinal),
                              "cuDeviceGet",
                              " for ordinal " + std::to_string(ordinal));
        !status.ok()) {
      devices.clear();
      return Status::error(StatusCode::Unavailable, status.message());
    }
    CudaDevice::Limits limits;
    DeviceProperties properties = queryProperties(cu, device, limits);
    devices.push_back(std::make_unique<CudaDevice>(
        cu, device, ordinal, std::move(properties), limits));
  }
  if (devices.empty())
    return Status::error(StatusCode::Unavailable,
                         "no CUDA GPU (the driver found none)");
  return Status::success();
}
