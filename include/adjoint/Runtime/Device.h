//===- Device.h - Where buffers live and code runs --------------*- C++ -*-===//
//
// A Device owns memory and a queue of work: the host CPU here, and later the
// CUDA, HIP and Level Zero backends, which load their drivers with dlopen
// and report "unavailable" (never fail to link or abort) when the driver or
// the hardware is missing. Copies name both sides explicitly so that the
// same calls work for host and device memory.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_DEVICE_H
#define ADJOINT_RUNTIME_DEVICE_H

#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <string>

namespace adjoint::rt {

class MemoryPool;

enum class DeviceKind { CPU, CUDA, HIP, LevelZero };

/// "cpu", "cuda", "hip", "level_zero".
const char *deviceKindName(DeviceKind kind);

class Device {
public:
  virtual ~Device();

  /// A human-readable name ("cpu (x86-64, 16 threads)", "NVIDIA H100", ...).
  virtual std::string name() const = 0;
  virtual DeviceKind kind() const = 0;
  /// Ok when the device can be used; otherwise Unavailable with the reason
  /// (no driver, no device, ...). Other calls fail with this status then.
  virtual Status status() const = 0;
  bool isAvailable() const { return status().ok(); }

  /// Allocates `bytes` of device memory into `*ptr`.
  virtual Status allocate(size_t bytes, void **ptr) = 0;
  /// Releases memory from allocate() (nullptr is ignored).
  virtual void deallocate(void *ptr) = 0;
  /// Copies host memory to device memory, device to host, and device to
  /// device. They may be asynchronous: synchronize() before reading results
  /// on the host.
  virtual Status copyHostToDevice(void *dst, const void *src,
                                  size_t bytes) = 0;
  virtual Status copyDeviceToHost(void *dst, const void *src,
                                  size_t bytes) = 0;
  virtual Status copyDeviceToDevice(void *dst, const void *src,
                                    size_t bytes) = 0;
  /// Waits for all work queued on the device.
  virtual Status synchronize() = 0;
};

/// The host CPU: memory from a MemoryPool, synchronous copies.
class CpuDevice final : public Device {
public:
  /// Allocates from `pool` (the global pool by default).
  explicit CpuDevice(MemoryPool *pool = nullptr);

  std::string name() const override;
  DeviceKind kind() const override { return DeviceKind::CPU; }
  Status status() const override { return Status::success(); }
  Status allocate(size_t bytes, void **ptr) override;
  void deallocate(void *ptr) override;
  Status copyHostToDevice(void *dst, const void *src, size_t bytes) override;
  Status copyDeviceToHost(void *dst, const void *src, size_t bytes) override;
  Status copyDeviceToDevice(void *dst, const void *src,
                            size_t bytes) override;
  Status synchronize() override { return Status::success(); }

private:
  MemoryPool *pool_;
};

/// The process-wide CPU device (on the global pool).
Device &cpuDevice();

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_DEVICE_H
