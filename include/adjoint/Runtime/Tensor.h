//===- Tensor.h - Dense host tensors of the runtime -------------*- C++ -*-===//
//
// The values compiled code takes and returns: a dtype, a shape and row-major
// data that is either owned (a pool block, shared by copies of the Tensor)
// or borrowed from the caller, who then keeps it alive and unchanged while
// the Tensor is in use. Elements are stored exactly as the reference
// interpreter stores them: i1 is one byte (0 or 1), f16 and bf16 are their
// 16-bit patterns.
//
// A tensor has a placement: host memory (the default) or the memory of a
// GPU Device, where it owns a block of that device's caching pool. Element
// access (at, toDoubles, data<T>) is for host tensors only; a device tensor
// is copied with to()/toHost() first.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_TENSOR_H
#define ADJOINT_RUNTIME_TENSOR_H

#include "adjoint/Runtime/DType.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace adjoint::rt {

class Device;
class MemoryPool;

/// The number of elements of `shape` (1 for rank 0). Tensors and
/// signatures reject shapes whose size does not fit in int64_t when they
/// are made; for such a shape this says 0.
int64_t numElements(const std::vector<int64_t> &shape);
/// "tensor<2x3xf32>".
std::string tensorTypeString(DType dtype, const std::vector<int64_t> &shape);

/// IEEE half and bfloat16 conversions (round to nearest even).
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);
uint16_t floatToBFloat16(float value);
float bfloat16ToFloat(uint16_t bits);

class Tensor {
public:
  /// An empty tensor (no dtype meaning, no data); valid() is false.
  Tensor() = default;

  /// Uninitialized storage from `pool` (the global pool by default). Throws
  /// adjoint::Error when the pool cannot allocate.
  static Tensor allocate(DType dtype, std::vector<int64_t> shape,
                         MemoryPool *pool = nullptr);
  /// Zero-filled storage from the global pool.
  static Tensor zeros(DType dtype, std::vector<int64_t> shape);
  /// Borrows `data` (row-major, dtypeSize(dtype) bytes per element): no
  /// copy; the caller keeps it alive and unchanged while the Tensor lives.
  static Tensor borrow(DType dtype, std::vector<int64_t> shape, void *data);
  /// A pool copy of `data`.
  static Tensor copyOf(DType dtype, std::vector<int64_t> shape,
                       const void *data);
  /// Values converted to `dtype` (rounded as a cast would; i1 is value !=
  /// 0; complex elements get a zero imaginary part). values.size() must equal the element count (else adjoint::Error).
  static Tensor fromDoubles(DType dtype, std::vector<int64_t> shape,
                            const std::vector<double> &values);
  /// Takes `data` kept alive by `owner` (for the runtime's own results),
  /// on `device` (null: the host).
  static Tensor adopt(DType dtype, std::vector<int64_t> shape, void *data,
                      std::shared_ptr<void> owner, Device *device = nullptr);
  /// Uninitialized storage on `device` (from its caching pool; the host
  /// pool for the CPU). Throws adjoint::Error when it cannot allocate.
  static Tensor allocateOn(Device &device, DType dtype,
                           std::vector<int64_t> shape);

  bool valid() const { return valid_; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return numElements(shape_); }
  size_t byteSize() const { return size_t(numel()) * dtypeSize(dtype_); }

  /// The address of the data: host memory, or device memory on a device.
  void *data() const { return data_; }
  /// Typed host data; throws adjoint::Error on a device tensor.
  template <typename T> T *data() const {
    if (device_)
      throwNotOnHost("data<T>()");
    return static_cast<T *>(data_);
  }
  /// Whether the data is borrowed caller memory.
  bool isBorrowed() const { return owner_ == nullptr; }
  /// Whether the memory must not be written: a producer lent it read-only
  /// (DLPack's read-only flag). Compiled code writes only donated inputs,
  /// and invoke() copies a read-only one first, so such a tensor is a valid
  /// input; copies of it are writable.
  bool isReadOnly() const { return readOnly_; }
  /// This tensor (the same memory) marked read-only.
  Tensor asReadOnly() const {
    Tensor t = *this;
    t.readOnly_ = true;
    return t;
  }

  /// Element `index` (row-major) converted to double.
  double at(int64_t index) const;
  std::vector<double> toDoubles() const;
  /// A deep copy into a pool block (of the same device).
  Tensor clone() const;

  /// The device the data lives on (cpuDevice() for host tensors).
  Device &device() const;
  bool isOnHost() const { return device_ == nullptr; }
  /// This tensor on `device`: itself when it is already there, else a copy
  /// (host to device, device to host, or through the host between two
  /// devices). Throws adjoint::Error when a copy fails.
  Tensor to(Device &device) const;
  /// to(cpuDevice()); waits for the work that computes the data.
  Tensor toHost() const;

  /// "tensor<2x3xf32>".
  std::string typeString() const;

private:
  [[noreturn]] void throwNotOnHost(const char *what) const;

  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_;
  void *data_ = nullptr;
  std::shared_ptr<void> owner_;
  /// Null on the host; GPU devices live as long as the process.
  Device *device_ = nullptr;
  bool valid_ = false;
  bool readOnly_ = false;
};

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_TENSOR_H
