//===- Device.cpp - The host CPU device -----------------------------------===//

#include "adjoint/Runtime/Device.h"
#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/ThreadPool.h"

#include <cstring>

using namespace adjoint::rt;

const char *adjoint::rt::deviceKindName(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::CPU:
    return "cpu";
  case DeviceKind::CUDA:
    return "cuda";
  case DeviceKind::HIP:
    return "hip";
  case DeviceKind::LevelZero:
    return "level_zero";
  case DeviceKind::OpenCL:
    return "opencl";
  }
  return "unknown";
}

Device::~Device() = default;

std::string Device::id() const {
  if (kind() == DeviceKind::CPU)
    return "cpu";
  return std::string(deviceKindName(kind())) + ":" + std::to_string(index());
}

CpuDevice::CpuDevice(MemoryPool *pool)
    : pool_(pool ? pool : &MemoryPool::global()) {}

const DeviceProperties &CpuDevice::properties() const {
  // Made on first use: the thread pool starts its workers when first asked.
  static const DeviceProperties properties = [] {
    DeviceProperties p;
    p.name = "cpu";
    p.vendor = "host";
    // One work item per thread of the pool; host code has no subgroups.
    p.maxWorkgroupSize = ThreadPool::global().numThreads();
    p.maxWorkgroupDims[0] = p.maxWorkgroupSize;
    p.computeUnits = ThreadPool::global().numThreads();
    p.subgroupSizes = {1};
    p.fp64 = p.fp16 = true;
    return p;
  }();
  return properties;
}

std::string CpuDevice::name() const {
  return "cpu (" + std::to_string(ThreadPool::global().numThreads()) +
         " threads)";
}

Status CpuDevice::allocate(size_t bytes, void **ptr) {
  *ptr = pool_->allocate(bytes);
  if (!*ptr)
    return Status::error(StatusCode::OutOfMemory,
                         "cannot allocate " + std::to_string(bytes) +
                             " bytes on the cpu");
  return Status::success();
}

void CpuDevice::deallocate(void *ptr) { pool_->deallocate(ptr); }

Status CpuDevice::copyHostToDevice(void *dst, const void *src, size_t bytes) {
  if (bytes)
    std::memcpy(dst, src, bytes);
  return Status::success();
}

Status CpuDevice::copyDeviceToHost(void *dst, const void *src, size_t bytes) {
  if (bytes)
    std::memcpy(dst, src, bytes);
  return Status::success();
}

Status CpuDevice::copyDeviceToDevice(void *dst, const void *src,
                                     size_t bytes) {
  if (bytes)
    std::memmove(dst, src, bytes);
  return Status::success();
}

Status CpuDevice::fill(void *dst, uint8_t value, size_t bytes) {
  if (bytes)
    std::memset(dst, value, bytes);
  return Status::success();
}

Device &adjoint::rt::cpuDevice() {
  static CpuDevice *device = new CpuDevice();
  return *device;
}
