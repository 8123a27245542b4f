//===- DLPack.h - Tensors exchanged with other frameworks -------*- C++ -*-===//
//
// DLPack is the C ABI that numpy, PyTorch, JAX and CuPy use to hand each
// other tensors without copies. The structs below are that ABI (dlpack.h
// 1.x, written from its specification, with the unversioned 0.x managed
// tensor that older consumers still ask for). Exports describe a runtime
// tensor's memory and keep its storage alive until the consumer calls the
// deleter; imports wrap the producer's memory (host or device) as a runtime
// tensor on the Device that owns it, alive as long as the caller's owner
// (which calls the producer's deleter) is.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_DLPACK_H
#define ADJOINT_RUNTIME_DLPACK_H

#include "adjoint/Runtime/Tensor.h"

#include <cstdint>
#include <memory>

namespace adjoint::rt::dlpack {

/// DLDeviceType values of the memory kinds the runtime knows.
enum DeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  /// Pinned host memory of the CUDA driver: readable by the host.
  kDLCUDAHost = 3,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLCUDAManaged = 13,
  /// Unified shared memory of a oneAPI device: what OpenCL (Intel USM) and
  /// Level Zero device pointers are.
  kDLOneAPI = 14,
};

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code; // 0 int, 1 uint, 2 float, 4 bfloat, 6 bool
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  /// In elements; null: row-major.
  int64_t *strides;
  uint64_t byte_offset;
};
/// The 0.x managed tensor (capsule name "dltensor").
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};
/// The 1.x managed tensor (capsule name "dltensor_versioned").
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
};
/// The version this runtime writes.
inline constexpr DLPackVersion kVersion = {1, 0};
/// DLManagedTensorVersioned::flags.
inline constexpr uint64_t kFlagReadOnly = uint64_t(1) << 0;
inline constexpr uint64_t kFlagIsCopied = uint64_t(1) << 1;

/// Where `tensor` lives as DLPack names it: kDLCPU for the host, kDLCUDA
/// for cuda:N, kDLROCM for hip:N and kDLOneAPI for OpenCL and Level Zero
/// devices (with the device's index as device_id).
DLDevice deviceOf(const Tensor &tensor);
DLDataType dataTypeOf(DType dtype);

/// A managed tensor over `tensor`'s memory (no copy, row-major, byte offset
/// 0), owning a reference to its storage until the consumer calls the
/// deleter. `copied` sets kFlagIsCopied (the caller exports a copy made for
/// the consumer); a read-only tensor exports kFlagReadOnly.
DLManagedTensor *exportTensor(const Tensor &tensor);
DLManagedTensorVersioned *exportTensorVersioned(const Tensor &tensor,
                                                bool copied = false);

/// The runtime tensor over `t`'s memory, kept alive by `owner` (which calls
/// the producer's deleter when the last copy of the tensor dies): on the
/// host for kDLCPU and kDLCUDAHost/kDLROCMHost memory, on cuda:N for
/// kDLCUDA/kDLCUDAManaged, hip:N for kDLROCM, and on the OpenCL or Level
/// Zero device whose pool holds the pointer for kDLOneAPI. Shapes must be
/// row-major contiguous (strides of size-1 dimensions are ignored); the
/// byte offset is added to the data pointer and must keep the elements
/// aligned. Throws adjoint::Error with the reason (an unsupported dtype or
/// layout, a device that is unavailable or absent).
Tensor importTensor(const DLTensor &t, std::shared_ptr<void> owner,
                    bool readOnly = false);

} // namespace adjoint::rt::dlpack

#endif // ADJOINT_RUNTIME_DLPACK_H
