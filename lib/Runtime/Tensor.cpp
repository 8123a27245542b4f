//===- Tensor.cpp - Dense host tensors of the runtime ---------------------===//

#include "adjoint/Runtime/Tensor.h"
#include "adjoint/Runtime/Device.h"
#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Support/CheckedSize.h"
#include "adjoint/Support/Error.h"

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>

using namespace adjoint;
using namespace adjoint::rt;

int64_t adjoint::rt::numElements(const std::vector<int64_t> &shape) {
  // Tensors and signatures check their shapes when they are made; a shape
  // that does not fit has no elements anyone could read.
  return checkedNumElements(shape).value_or(0);
}

std::string adjoint::rt::tensorTypeString(DType dtype,
                                          const std::vector<int64_t> &shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + dtypeName(dtype) + ">";
}

uint16_t adjoint::rt::floatToHalf(float value) {
  uint32_t x = std::bit_cast<uint32_t>(value);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) // inf, nan
    return static_cast<uint16_t>(sign |
                                 (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (abs >= 0x477ff000u) // rounds to >= 65520: infinity
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (abs < 0x38800000u) {
    // Below the smallest normal half (2^-14): count units of 2^-24,
    // rounding to nearest even (the default rounding mode).
    float scaled = std::bit_cast<float>(abs) * 16777216.0f;
    return static_cast<uint16_t>(sign |
                                 static_cast<uint32_t>(std::nearbyint(scaled)));
  }
  uint32_t exponent = (abs >> 23) - 127 + 15;
  uint32_t mantissa = abs & 0x7fffffu;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

float adjoint::rt::halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) |
                              (mantissa << 13));
}

uint16_t adjoint::rt::floatToBFloat16(float value) {
  uint32_t x = std::bit_cast<uint32_t>(value);
  if ((x & 0x7fffffffu) > 0x7f800000u) // nan: keep it quiet
    return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

float adjoint::rt::bfloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(uint32_t(bits) << 16);
}

namespace {
std::shared_ptr<void> poolBlock(MemoryPool &pool, size_t bytes,
                                const std::string &what) {
  void *block = pool.allocate(bytes);
  if (!block)
    throw Error("out of memory: cannot allocate " + std::to_string(bytes) +
                " bytes for " + what);
  return std::shared_ptr<void>(block, [&pool](void *p) { pool.deallocate(p); });
}

/// Every Tensor goes through this, so numel() and byteSize() never wrap.
void checkShape(DType dtype, const std::vector<int64_t> &shape) {
  for (int64_t d : shape)
    if (d < 0)
      throw Error("a tensor dimension is negative");
  if (!checkedTensorBytes(shape, static_cast<int64_t>(dtypeSize(dtype))))
    throw Error(tensorTypeString(dtype, shape) +
                " is too large: its element count or byte size does not fit "
                "in 64 bits");
}
} // namespace

Tensor Tensor::allocate(DType dtype, std::vector<int64_t> shape,
                        MemoryPool *pool) {
  checkShape(dtype, shape);
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.owner_ = poolBlock(pool ? *pool : MemoryPool::global(), t.byteSize(),
                       t.typeString());
  t.data_ = t.owner_.get();
  t.valid_ = true;
  return t;
}

Tensor Tensor::zeros(DType dtype, std::vector<int64_t> shape) {
  Tensor t = allocate(dtype, std::move(shape));
  std::memset(t.data_, 0, t.byteSize());
  return t;
}

Tensor Tensor::borrow(DType dtype, std::vector<int64_t> shape, void *data) {
  checkShape(dtype, shape);
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.data_ = data;
  t.valid_ = true;
  return t;
}

Tensor Tensor::copyOf(DType dtype, std::vector<int64_t> shape,
                      const void *data) {
  Tensor t = allocate(dtype, std::move(shape));
  if (t.byteSize())
    std::memcpy(t.data_, data, t.byteSize());
  return t;
}

Tensor Tensor::adopt(DType dtype, std::vector<int64_t> shape, void *data,
                     std::shared_ptr<void> owner, Device *device) {
  checkShape(dtype, shape);
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.data_ = data;
  t.owner_ = std::move(owner);
  if (device && device->kind() != DeviceKind::CPU)
    t.device_ = device;
  t.valid_ = true;
  return t;
}

Tensor Tensor::allocateOn(Device &device, DType dtype,
                          std::vector<int64_t> shape) {
  if (device.kind() == DeviceKind::CPU)
    return allocate(dtype, std::move(shape));
  checkShape(dtype, shape);
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  void *block = nullptr;
  if (Status status = device.allocate(t.byteSize(), &block); !status.ok())
    throw Error(status.toString() + " (for " + t.typeString() + " on " +
                device.id() + ")");
  Device *owner = &device;
  t.owner_ =
      std::shared_ptr<void>(block, [owner](void *p) { owner->deallocate(p); });
  t.data_ = block;
  t.device_ = &device;
  t.valid_ = true;
  return t;
}

Device &Tensor::device() const { return device_ ? *device_ : cpuDevice(); }

void Tensor::throwNotOnHost(const char *what) const {
  throw Error("Tensor::" + std::string(what) + ": " + typeString() +
              " is on " + device_->id() +
              "; copy it to the host first (toHost())");
}

Tensor Tensor::to(Device &target) const {
  bool targetHost = target.kind() == DeviceKind::CPU;
  if ((targetHost && !device_) || device_ == &target)
    return *this;
  if (device_ && !targetHost)
    return toHost().to(target); // between two devices: through the host
  Tensor result = allocateOn(target, dtype_, shape_);
  Status status = device_
                      ? device_->copyDeviceToHost(result.data_, data_,
                                                  byteSize())
                      : target.copyHostToDevice(result.data_, data_,
                                                byteSize());
  if (!status.ok())
    throw Error(status.toString() + " (copying " + typeString() + " from " +
                device().id() + " to " + target.id() + ")");
  return result;
}

Tensor Tensor::toHost() const { return to(cpuDevice()); }

Tensor Tensor::fromDoubles(DType dtype, std::vector<int64_t> shape,
                           const std::vector<double> &values) {
  Tensor t = allocate(dtype, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.numel())
    throw Error("Tensor::fromDoubles: " + std::to_string(values.size()) +
                " values for " + t.typeString());
  for (size_t i = 0; i < values.size(); ++i) {
    double v = values[i];
    switch (dtype) {
    case DType::F64:
      t.data<double>()[i] = v;
      break;
    case DType::F32:
      t.data<float>()[i] = static_cast<float>(v);
      break;
    case DType::F16:
      t.data<uint16_t>()[i] = floatToHalf(static_cast<float>(v));
      break;
    case DType::BF16:
      t.data<uint16_t>()[i] = floatToBFloat16(static_cast<float>(v));
      break;
    case DType::I64:
      t.data<int64_t>()[i] = saturatingFloatToInt<int64_t>(v);
      break;
    case DType::I32:
      t.data<int32_t>()[i] = saturatingFloatToInt<int32_t>(v);
      break;
    case DType::I1:
      t.data<uint8_t>()[i] = v != 0.0;
      break;
    case DType::C64:
      t.data<std::complex<float>>()[i] = static_cast<float>(v);
      break;
    case DType::C128:
      t.data<std::complex<double>>()[i] = v;
      break;
    }
  }
  return t;
}

double Tensor::at(int64_t index) const {
  if (device_)
    throwNotOnHost("at()");
  switch (dtype_) {
  case DType::F64:
    return data<double>()[index];
  case DType::F32:
    return data<float>()[index];
  case DType::F16:
    return halfToFloat(data<uint16_t>()[index]);
  case DType::BF16:
    return bfloat16ToFloat(data<uint16_t>()[index]);
  case DType::I64:
    return static_cast<double>(data<int64_t>()[index]);
  case DType::I32:
    return data<int32_t>()[index];
  case DType::I1:
    return data<uint8_t>()[index] != 0;
  case DType::C64:
  case DType::C128:
    break;
  }
  throw Error("Tensor::at: a " + typeString() +
              " element is not one double; read data<std::complex<T>>()");
}

std::vector<double> Tensor::toDoubles() const {
  if (device_)
    throwNotOnHost("toDoubles()");
  std::vector<double> values(static_cast<size_t>(numel()));
  for (int64_t i = 0; i < numel(); ++i)
    values[i] = at(i);
  return values;
}

Tensor Tensor::clone() const {
  if (!device_)
    return copyOf(dtype_, shape_, data_);
  Tensor copy = allocateOn(*device_, dtype_, shape_);
  if (Status status = device_->copyDeviceToDevice(copy.data_, data_,
                                                  byteSize());
      !status.ok())
    throw Error(status.toString() + " (cloning " + typeString() + " on " +
                device_->id() + ")");
  return copy;
}

std::string Tensor::typeString() const {
  return tensorTypeString(dtype_, shape_);
}
