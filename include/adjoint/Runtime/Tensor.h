//===- Tensor.h - Dense host tensors of the runtime -------------*- C++ -*-===//
//
// The values compiled code takes and returns: a dtype, a shape and row-major
// data that is either owned (a pool block, shared by copies of the Tensor)
// or borrowed from the caller, who then keeps it alive and unchanged while
// the Tensor is in use. Elements are stored exactly as the reference
// interpreter stores them: i1 is one byte (0 or 1), f16 and bf16 are their
// 16-bit patterns.
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
  /// 0). values.size() must equal the element count (else adjoint::Error).
  static Tensor fromDoubles(DType dtype, std::vector<int64_t> shape,
                            const std::vector<double> &values);
  /// Takes `data` kept alive by `owner` (for the runtime's own results).
  static Tensor adopt(DType dtype, std::vector<int64_t> shape, void *data,
                      std::shared_ptr<void> owner);

  bool valid() const { return valid_; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const { return numElements(shape_); }
  size_t byteSize() const { return size_t(numel()) * dtypeSize(dtype_); }

  void *data() const { return data_; }
  template <typename T> T *data() const { return static_cast<T *>(data_); }
  /// Whether the data is borrowed caller memory.
  bool isBorrowed() const { return owner_ == nullptr; }

  /// Element `index` (row-major) converted to double.
  double at(int64_t index) const;
  std::vector<double> toDoubles() const;
  /// A deep copy into a pool block.
  Tensor clone() const;

  /// "tensor<2x3xf32>".
  std::string typeString() const;

private:
  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_;
  void *data_ = nullptr;
  std::shared_ptr<void> owner_;
  bool valid_ = false;
};

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_TENSOR_H
