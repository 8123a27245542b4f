//===- GpuDevice.cpp - What every GPU driver shares -----------------------===//

#include "GPU/GpuDevice.h"
#include "GPU/CallGraphs.h"
#include "GPU/Gemm.h"
#include "GPU/SpirvCheck.h"

#include <cstdlib>
#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {
/// Uploads up to this size are staged and queued; larger ones wait, so that
/// staging never doubles the memory of a large tensor.
constexpr size_t kMaxStagedCopy = size_t(1) << 20;
/// Staged bytes past this make the device wait for its queue and free them.
constexpr size_t kMaxStagingBytes = size_t(64) << 20;

std::string dims(const uint64_t d[3]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" +
         std::to_string(d[2]);
}
} // namespace

GpuDevice::GpuDevice(DeviceKind kind, int index, DeviceProperties properties)
    : kind_(kind), index_(index), properties_(std::move(properties)),
      pool_(CachingAllocator::Backend{
          [this](size_t bytes, void **ptr) {
            if (Status status = ready(); !status.ok())
              return status;
            return rawAllocate(bytes, ptr);
          },
          [this](void *ptr) { rawRelease(ptr); },
          [this] { return synchronize().ok(); }}),
      calls_(std::make_unique<CallGraphs>()) {}

// Devices are never destroyed (the registry keeps them for the process).
GpuDevice::~GpuDevice() = default;

Status GpuDevice::ready() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!initialized_) {
    initialized_ = true;
    initStatus_ = initialize();
  }
  return initStatus_;
}

Status GpuDevice::status() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return initStatus_;
}

Status GpuDevice::allocate(size_t bytes, void **ptr) {
  return pool_.allocate(bytes, ptr);
}

void GpuDevice::deallocate(void *ptr) {
  if (ptr)
    pool_.deallocate(ptr);
}

template <typename Fn>
Status GpuDevice::onQueue(size_t bytes, const char *why, bool always,
                          Fn work) {
  if (!bytes)
    return Status::success();
  if (Status status = ready(); !status.ok())
    return status;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (Status status = settleRecording(why, always); !status.ok())
    return status;
  return work();
}

Status GpuDevice::copyHostToDevice(void *dst, const void *src, size_t bytes) {
  return onQueue(bytes, nullptr, false, [&] {
    if (bytes > kMaxStagedCopy) {
      settleRecording("uploads more than 1 MiB of host memory", true);
      ++sink_->copies;
      return enqueueCopy(dst, src, bytes, CopyKind::HostToDevice,
                         /*blocking=*/true);
    }
    void *copy = nullptr;
    if (Status status = allocateStaging(bytes, &copy); !status.ok())
      return status;
    std::memcpy(copy, src, bytes);
    if (StepLog *log = recordingHere()) {
      // The log owns the staging until the copy is queued (issueAll).
      log->copy(dst, copy, bytes, CopyKind::HostToDevice, /*staged=*/true);
      stagingBytes_ += bytes;
      return stagingBytes_ > kMaxStagingBytes ? synchronize()
                                              : Status::success();
    }
    if (Status status = issueCopy(dst, copy, bytes, CopyKind::HostToDevice);
        !status.ok()) {
      // The copy may have been queued before the driver failed.
      (void)finish();
      releaseStaging(copy);
      return status;
    }
    staging_.push_back(copy);
    stagingBytes_ += bytes;
    return stagingBytes_ > kMaxStagingBytes ? synchronize()
                                            : Status::success();
  });
}

Status GpuDevice::copyDeviceToHost(void *dst, const void *src, size_t bytes) {
  return onQueue(bytes, "reads device memory on the host", true, [&] {
    ++sink_->copies;
    return enqueueCopy(dst, src, bytes, CopyKind::DeviceToHost,
                       /*blocking=*/true);
  });
}

Status GpuDevice::copyDeviceToDevice(void *dst, const void *src,
                                     size_t bytes) {
  return onQueue(bytes, nullptr, false, [&] {
    if (StepLog *log = recordingHere()) {
      log->copy(dst, src, bytes, CopyKind::DeviceToDevice);
      return Status::success();
    }
    return issueCopy(dst, src, bytes, CopyKind::DeviceToDevice);
  });
}

Status GpuDevice::fill(void *dst, uint8_t value, size_t bytes) {
  return onQueue(bytes, nullptr, false, [&] {
    if (StepLog *log = recordingHere()) {
      log->fill(dst, value, bytes);
      return Status::success();
    }
    return issueFill(dst, value, bytes);
  });
}

Status GpuDevice::synchronize() {
  // Transient: a full staging area or an allocation that empties the pool.
  return onQueue(1, "waits for the device", false, [&] {
    Status status = finish();
    if (status.ok())
      releaseAllStaging();
    return status;
  });
}

Status GpuDevice::withQueue(const std::function<Status()> &work) {
  return onQueue(1, "calls a vendor library outside GEMMs", true, work);
}

Status GpuDevice::allocateStaging(size_t bytes, void **ptr) {
  if (PinnedPool *pool = stagingPool(); pool && pool->allocate(bytes, ptr).ok())
    return Status::success();
  *ptr = std::malloc(bytes);
  if (*ptr)
    return Status::success();
  return Status::error(StatusCode::OutOfMemory,
                       "no host memory to stage " + std::to_string(bytes) +
                           " bytes for " + id());
}

void GpuDevice::releaseStaging(void *ptr) {
  PinnedPool *pool = stagingPool();
  if (!pool || !pool->release(ptr))
    std::free(ptr);
}

void GpuDevice::releaseAllStaging() {
  for (void *block : staging_)
    releaseStaging(block);
  staging_.clear();
  stagingBytes_ = 0;
}

void GpuDevice::emptyCache() { pool_.emptyCache(); }

Status GpuDevice::launch(const adj_rt_gpu_kernel &kernel,
                         const uint64_t grid[3], const uint64_t block[3],
                         uint32_t sharedBytes, void **args) {
  const char *kernelName = kernel.name ? kernel.name : "<unnamed>";
  auto invalid = [&](const std::string &what) {
    return Status::error(StatusCode::InvalidArgument,
                         "launch of kernel " + std::string(kernelName) +
                             " on " + id() + ": " + what);
  };
  if (!kernel.module || !kernel.name)
    return invalid("the kernel descriptor has no module or no name");
  if (kernel.numArgs && (!args || !kernel.argSizes))
    return invalid("no argument values for " +
                   std::to_string(kernel.numArgs) + " arguments");
  uint64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    if (block[d] == 0)
      return invalid("block " + dims(block) + " is empty");
    if (block[d] > properties_.maxWorkgroupDims[d])
      return invalid("block " + dims(block) +
                     " exceeds the device's per-dimension limit " +
                     dims(properties_.maxWorkgroupDims));
    threads *= block[d];
    if (grid[d] && block[d] > UINT64_MAX / grid[d])
      return invalid("grid " + dims(grid) + " times block " + dims(block) +
                     " overflows 64 bits");
  }
  if (threads > properties_.maxWorkgroupSize)
    return invalid("block " + dims(block) + " has " + std::to_string(threads) +
                   " work items, more than the maximum workgroup size " +
                   std::to_string(properties_.maxWorkgroupSize));
  if (sharedBytes > properties_.localMemoryBytes)
    return invalid(std::to_string(sharedBytes) +
                   " bytes of workgroup memory, more than the device's " +
                   std::to_string(properties_.localMemoryBytes));
  for (uint32_t i = 0; i < kernel.numArgs; ++i)
    if (!args[i])
      return invalid("argument #" + std::to_string(i) + " has no value");
  if (Status status = ready(); !status.ok())
    return status;

  std::lock_guard<std::recursive_mutex> lock(mutex_);
  void *handle = nullptr;
  auto cachedKernel = kernels_.find(&kernel);
  if (cachedKernel != kernels_.end()) {
    handle = cachedKernel->second;
  } else {
    const adj_rt_gpu_module &module = *kernel.module;
    std::string moduleName = module.name ? module.name : "<unnamed>";
    void *moduleHandle = nullptr;
    auto cachedModule = modules_.find(&module);
    if (cachedModule != modules_.end()) {
      moduleHandle = cachedModule->second;
    } else {
      if (!acceptsFormat(module.format))
        return invalid("module " + moduleName + " has format " +
                       std::to_string(module.format) + ", which " + id() +
                       " does not load");
      if (module.format == ADJ_RT_GPU_SPIRV)
        if (Status status = checkSpirv(module.data, module.size, moduleName);
            !status.ok())
          return status;
      if (Status status = loadModule(module, &moduleHandle); !status.ok())
        return status;
      modules_[&module] = moduleHandle;
    }
    if (Status status = loadKernel(moduleHandle, kernel, &handle);
        !status.ok())
      return status;
    kernels_[&kernel] = handle;
  }
  if (!grid[0] || !grid[1] || !grid[2])
    return Status::success(); // nothing to run
  if (StepLog *log = recordingHere()) {
    log->launch(kernel, handle, grid, block, sharedBytes, args);
    return Status::success();
  }
  if (Status status = settleRecording(nullptr, false); !status.ok())
    return status;
  return issueLaunch(handle, kernel, grid, block, sharedBytes, args);
}

Status GpuDevice::gemm(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b,
                       void *c, void **fallbackArgs) {
  if (Status status = checkGemm(gemm); !status.ok())
    return status;
  if (isEmptyGemm(gemm))
    return Status::success();
  if (!a || !b || !c)
    return Status::error(StatusCode::InvalidArgument,
                         "adj_rt_gpu_gemm on " + id() +
                             ": a null device address for A, B or C");
  {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    if (StepLog *log = recordingHere()) {
      bool argsGiven = fallbackArgs != nullptr;
      for (uint32_t i = 0; argsGiven && i < gemm.fallback->numArgs; ++i)
        argsGiven = fallbackArgs[i] != nullptr;
      int route = argsGiven ? settledGemmRoute(gemm, a, b, c) : -1;
      if (route >= 0) {
        log->gemm(gemm, route, a, b, c, fallbackArgs);
        return Status::success();
      }
      // Queued now: the routes are measured (which waits for the device),
      // or the fallback's arguments are missing, which only the kernel
      // route reads.
      if (Status status = settleRecording(
              argsGiven ? "measures a GEMM's routes"
                        : "a GEMM without its kernel's arguments",
              false);
          !status.ok())
        return status;
    }
    if (Status status = settleRecording(nullptr, false); !status.ok())
      return status;
  }
  return issueGemm(gemm, a, b, c, fallbackArgs);
}

void GpuDevice::forgetLoadedCode() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!initialized_ || !initStatus_.ok())
    return;
  if (modules_.empty() && kernels_.empty() && constants_.empty())
    return;
  // Queued launches may still use the kernels and read the constants. A
  // failure here is the device's (it reports it on the next blocking call
  // too); releasing then is still right, nothing can run them any more.
  (void)settleRecording("unloads code", false);
  (void)finish();
  dropGraphs();
  for (auto &[descriptor, handle] : kernels_)
    releaseKernel(handle);
  for (auto &[descriptor, handle] : modules_)
    releaseModule(handle);
  for (auto &[host, constant] : constants_)
    rawRelease(constant.device);
  kernels_.clear();
  modules_.clear();
  constants_.clear();
}

Status GpuDevice::constant(const void *host, uint64_t bytes, void **device) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  auto it = constants_.find(host);
  if (it != constants_.end()) {
    if (it->second.bytes != bytes)
      return Status::error(StatusCode::Internal,
                           "constant at " + std::to_string(
                               reinterpret_cast<uintptr_t>(host)) +
                               " was uploaded with " +
                               std::to_string(it->second.bytes) +
                               " bytes and is now asked for with " +
                               std::to_string(bytes));
    *device = it->second.device;
    return Status::success();
  }
  if (Status status = ready(); !status.ok())
    return status;
  if (Status status = settleRecording("uploads a constant", false);
      !status.ok())
    return status;
  // Constants live as long as their code (forgetLoadedCode), outside the
  // pool, so that they never show in its statistics as memory a call
  // leaked.
  void *block = nullptr;
  Status status = rawAllocate(CachingAllocator::roundSize(bytes), &block);
  if (!status.ok()) {
    pool_.emptyCache();
    status = rawAllocate(CachingAllocator::roundSize(bytes), &block);
  }
  if (!status.ok())
    return status;
  // The host data is a global of the loaded object: no staging needed.
  if (bytes)
    if (status = enqueueCopy(block, host, bytes, CopyKind::HostToDevice,
                             /*blocking=*/false);
        !status.ok()) {
      (void)finish();
      rawRelease(block);
      return status;
    }
  constants_[host] = {block, bytes};
  *device = block;
  return Status::success();
}

size_t GpuDevice::loadedModules() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return modules_.size();
}

size_t GpuDevice::loadedKernels() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return kernels_.size();
}
