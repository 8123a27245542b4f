//===- DeviceScratch.h - Device memory for the length of a call -*- C++ -*-===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_DEVICESCRATCH_H
#define ADJOINT_LIB_RUNTIME_GPU_DEVICESCRATCH_H

#include "adjoint/Runtime/Device.h"

#include <algorithm>

namespace adjoint::rt::gpu {

/// A block of a device's pool that goes back when this goes out of scope:
/// work queued on it meanwhile needs no wait, because the pool hands the
/// block out again only to work queued after it on the device's one queue.
class DeviceScratch {
public:
  explicit DeviceScratch(Device &device) : device_(device) {}
  ~DeviceScratch() {
    if (ptr_)
      device_.deallocate(ptr_);
  }
  DeviceScratch(const DeviceScratch &) = delete;
  DeviceScratch &operator=(const DeviceScratch &) = delete;

  /// `bytes` (at least one) of device memory; once.
  Status allocate(uint64_t bytes) {
    return device_.allocate(std::max<uint64_t>(bytes, 1), &ptr_);
  }
  template <typename T> T *as() const { return static_cast<T *>(ptr_); }

private:
  Device &device_;
  void *ptr_ = nullptr;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_DEVICESCRATCH_H
