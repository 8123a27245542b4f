//===- DType.h - The element types of Adjoint's tensors ---------*- C++ -*-===//
//
// One enum for every layer: the builder API, the interpreter, the compiler
// and the runtime. It belongs to the runtime because ahead-of-time programs
// link only the runtime; it depends on nothing but the standard library.
// Header-only, so that layers which do not link the runtime can use it.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_DTYPE_H
#define ADJOINT_RUNTIME_DTYPE_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace adjoint {

/// The element types of adj tensors. The values are part of the ABI of
/// compiled code's signature strings only through their names.
enum class DType : uint8_t { F64, F32, F16, BF16, I64, I32, I1, C64, C128 };

/// Every DType, in declaration order.
inline constexpr std::array<DType, 9> kAllDTypes = {
    DType::F64, DType::F32, DType::F16,  DType::BF16, DType::I64,
    DType::I32, DType::I1,  DType::C64, DType::C128};

/// "f32", "i64", ...
constexpr const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return "f64";
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::I64:
    return "i64";
  case DType::I32:
    return "i32";
  case DType::I1:
    return "i1";
  case DType::C64:
    return "c64";
  case DType::C128:
    return "c128";
  }
  return "?";
}

/// Bytes per element (1 for i1, which is stored as one byte, 0 or 1).
/// Complex elements are two parts, real first (std::complex's layout).
constexpr size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::C128:
    return 16;
  case DType::C64:
  case DType::F64:
  case DType::I64:
    return 8;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I1:
    return 1;
  }
  return 1;
}

/// Whether `dtype` is a floating-point type.
constexpr bool isFloat(DType dtype) {
  return dtype == DType::F64 || dtype == DType::F32 || dtype == DType::F16 ||
         dtype == DType::BF16;
}

/// Whether `dtype` is a complex type (c64: two f32 parts, c128: two f64).
constexpr bool isComplex(DType dtype) {
  return dtype == DType::C64 || dtype == DType::C128;
}

/// The type of a complex type's parts (c64 -> f32); `dtype` itself for the
/// other types.
constexpr DType realPart(DType dtype) {
  return dtype == DType::C64    ? DType::F32
         : dtype == DType::C128 ? DType::F64
                                : dtype;
}

/// The DType named `name` ("f32"); nullopt if there is none.
constexpr std::optional<DType> parseDType(std::string_view name) {
  for (DType dtype : kAllDTypes)
    if (name == dtypeName(dtype))
      return dtype;
  return std::nullopt;
}

} // namespace adjoint

#endif // ADJOINT_RUNTIME_DTYPE_H
