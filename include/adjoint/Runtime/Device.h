//===- Device.h - Where buffers live and code runs --------------*- C++ -*-===//
//
// A Device owns memory and a queue of work: the host CPU, and GPUs behind
// drivers that are loaded with dlopen (CUDA, Level Zero and OpenCL today;
// HIP later), which report "unavailable" (never fail to link or abort) when
// the driver or the hardware is missing. Copies name both sides explicitly
// so that the same calls work for host and device memory. The registry of
// the devices present is DeviceRegistry.h; the shared GPU implementation
// (caching pool, in-order queue, module cache) is lib/Runtime/GPU.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_DEVICE_H
#define ADJOINT_RUNTIME_DEVICE_H

#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace adjoint::rt {

enum class DeviceKind { CPU, CUDA, HIP, LevelZero, OpenCL };

/// "cpu", "cuda", "hip", "level_zero", "opencl".
const char *deviceKindName(DeviceKind kind);

/// What code generation and users need to know about a device: the
/// workgroup limits and subgroup sizes pick tile and reduction shapes.
struct DeviceProperties {
  std::string name;
  std::string vendor;
  /// The driver's version string (empty for the CPU).
  std::string driverVersion;
  /// The architecture native code is compiled for ("sm_90" on CUDA; empty
  /// where the driver takes portable SPIR-V).
  std::string chip;
  /// Global memory in bytes (0 when the driver does not say).
  uint64_t memoryBytes = 0;
  /// Work items per workgroup (threads per block), in all and per dimension.
  uint64_t maxWorkgroupSize = 1;
  uint64_t maxWorkgroupDims[3] = {1, 1, 1};
  /// Workgroup-local (shared) memory per workgroup in bytes.
  uint64_t localMemoryBytes = 0;
  /// Compute units (cores, SMs, EUs) as the driver counts them.
  uint32_t computeUnits = 0;
  /// The subgroup (warp, wavefront) sizes kernels may use, ascending.
  std::vector<uint32_t> subgroupSizes;
  bool fp64 = false;
  bool fp16 = false;
};

/// What a device ran, counted since it was made (GPU devices; the CPU
/// counts nothing): the figures a profile divides by the number of steps.
struct DeviceCounters {
  /// Kernels run: launched one by one, or as nodes of launched graphs.
  uint64_t kernels = 0;
  /// GEMMs a vendor library (cuBLASLt, rocBLAS) computed.
  uint64_t libraryCalls = 0;
  uint64_t copies = 0;
  uint64_t fills = 0;
  /// Compiled calls that ran on the device, and those of them whose work
  /// ran as one graph launch.
  uint64_t calls = 0;
  uint64_t graphCalls = 0;
  /// Graphs captured from a call's work (each instantiated, or updated in
  /// place: graphUpdates of them).
  uint64_t graphCaptures = 0;
  uint64_t graphUpdates = 0;
  /// Recording calls that had to queue their work before their end
  /// (another thread or a nested call used the device, a GEMM's routes
  /// were measured, ...): each ran the rest plainly.
  uint64_t graphInterrupts = 0;
  /// Why calls ran without a graph, one line per compiled function.
  std::vector<std::string> graphFallbacks;
};

/// GPU time of one kernel (by name) while the device was profiling.
struct KernelTime {
  std::string name;
  uint64_t calls = 0;
  /// Summed over the calls; negative where the driver cannot time them.
  double milliseconds = 0;
};

class Device {
public:
  virtual ~Device();

  /// A human-readable name ("cpu (x86-64, 16 threads)", "NVIDIA H100", ...).
  virtual std::string name() const = 0;
  virtual DeviceKind kind() const = 0;
  /// The device's number among those of its kind (0 for the CPU).
  virtual int index() const { return 0; }
  /// The stable identifier: "cpu", "opencl:0", "level_zero:1".
  std::string id() const;
  virtual const DeviceProperties &properties() const = 0;
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
  /// Sets `bytes` of device memory to `value` (queued like a copy).
  virtual Status fill(void *dst, uint8_t value, size_t bytes) = 0;
  /// Waits for all work queued on the device.
  virtual Status synchronize() = 0;

  /// The counters of the device's caching pool (bytes are block bytes).
  virtual PoolStats memoryStats() const = 0;
  /// Gives the pool's cached (free) blocks back to the driver or system.
  virtual void emptyCache() = 0;
  /// Caps the bytes the pool holds (in use plus cached); 0: no limit. An
  /// allocation past it empties the cache, then fails with OutOfMemory.
  virtual void setMemoryLimit(size_t bytes) = 0;

  /// The driver's handle of the device's queue (a CUstream on CUDA, a
  /// hipStream_t on HIP), made ready if need be, for ordering work with
  /// other frameworks (DLPack's stream protocol); 0 where the driver has no
  /// such handle (the CPU, OpenCL, Level Zero) or the device is unusable.
  virtual uintptr_t nativeStream() { return 0; }

  /// What the device ran (zeros on the CPU).
  virtual DeviceCounters counters() const { return {}; }
  /// Profiling mode: each kernel timed on the device as it runs (slow: it
  /// waits for each), graphs off. Switching it on clears the times.
  virtual void setProfiling(bool on) {}
  /// The kernels timed while profiling, the most expensive first.
  virtual std::vector<KernelTime> kernelTimes() const { return {}; }
};

/// The host CPU: memory from a MemoryPool, synchronous copies.
class CpuDevice final : public Device {
public:
  /// Allocates from `pool` (the global pool by default).
  explicit CpuDevice(MemoryPool *pool = nullptr);

  std::string name() const override;
  DeviceKind kind() const override { return DeviceKind::CPU; }
  Status status() const override { return Status::success(); }
  const DeviceProperties &properties() const override;
  Status allocate(size_t bytes, void **ptr) override;
  void deallocate(void *ptr) override;
  Status copyHostToDevice(void *dst, const void *src, size_t bytes) override;
  Status copyDeviceToHost(void *dst, const void *src, size_t bytes) override;
  Status copyDeviceToDevice(void *dst, const void *src,
                            size_t bytes) override;
  Status fill(void *dst, uint8_t value, size_t bytes) override;
  Status synchronize() override { return Status::success(); }
  PoolStats memoryStats() const override { return pool_->stats(); }
  void emptyCache() override { pool_->trim(); }
  void setMemoryLimit(size_t bytes) override { pool_->setByteLimit(bytes); }

private:
  MemoryPool *pool_;
};

/// The process-wide CPU device (on the global pool).
Device &cpuDevice();

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_DEVICE_H
