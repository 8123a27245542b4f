//===- CheckedSize.h - Overflow-checked counts and sizes --------*- C++ -*-===//
//
// Shapes come from users (types in .mlir text, window attributes, command
// lines, .npy headers), so the product of their dimensions may not fit in
// 64 bits. Every layer (the dialect's type checks, the shape rules, the
// interpreter, the runtime and the lowering) computes element counts and
// byte sizes with these helpers, which say "does not fit" instead of
// wrapping. A tensor is representable when both its element count and its
// byte size fit in int64_t: that is what compiled code indexes with.
//
// Header-only and free of LLVM, because the runtime (which ahead-of-time
// compiled programs link alone) uses it too.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SUPPORT_CHECKEDSIZE_H
#define ADJOINT_SUPPORT_CHECKEDSIZE_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

namespace adjoint {

/// The product of `dims` (1 for none), or std::nullopt when a dimension is
/// negative or the product does not fit in int64_t. A zero dimension makes
/// the product 0 whatever the other dimensions are.
template <typename Range>
std::optional<int64_t> checkedNumElements(const Range &dims) {
  int64_t count = 1;
  bool overflow = false;
  for (int64_t d : dims) {
    if (d < 0)
      return std::nullopt;
    if (d == 0)
      return 0;
    // Keep scanning after an overflow: a later zero still makes it 0.
    overflow = overflow || __builtin_mul_overflow(count, d, &count);
  }
  if (overflow)
    return std::nullopt;
  return count;
}

/// `count` elements of `elementBytes` each, in bytes; std::nullopt when
/// either is negative or the product does not fit in int64_t.
inline std::optional<int64_t> checkedByteSize(int64_t count,
                                              int64_t elementBytes) {
  int64_t bytes;
  if (count < 0 || elementBytes < 0 ||
      __builtin_mul_overflow(count, elementBytes, &bytes))
    return std::nullopt;
  return bytes;
}

/// The byte size of a tensor of shape `dims`, or std::nullopt when its
/// element count or its byte size does not fit in int64_t.
template <typename Range>
std::optional<int64_t> checkedTensorBytes(const Range &dims,
                                          int64_t elementBytes) {
  std::optional<int64_t> count = checkedNumElements(dims);
  if (!count)
    return std::nullopt;
  return checkedByteSize(*count, elementBytes);
}

/// The trips of `for (i = lb; i < ub; i += step)`, computed without
/// overflow (ub - lb need not fit in int64_t: lb may be INT64_MIN); 0 when
/// ub <= lb, std::nullopt when step <= 0. Every count of int64_t bounds fits
/// in uint64_t.
inline std::optional<uint64_t> checkedTripCount(int64_t lb, int64_t ub,
                                                int64_t step) {
  if (step <= 0)
    return std::nullopt;
  if (ub <= lb)
    return 0;
  uint64_t span = static_cast<uint64_t>(ub) - static_cast<uint64_t>(lb);
  uint64_t ustep = static_cast<uint64_t>(step);
  return span / ustep + (span % ustep != 0);
}

/// `value` converted to the integer type `Int` as adj.cast converts a float
/// to an integer everywhere (interpreter, constant folding, compiled code,
/// the runtime): truncation toward zero, saturating at the type's bounds,
/// NaN -> 0. Defined for every input, unlike static_cast.
template <typename Int> Int saturatingFloatToInt(double value) {
  static_assert(std::is_integral_v<Int> && std::is_signed_v<Int>);
  if (std::isnan(value))
    return 0;
  // The bounds are -2^(n-1) and 2^(n-1): powers of two, exact in double.
  double lo = static_cast<double>(std::numeric_limits<Int>::min());
  if (value < lo)
    return std::numeric_limits<Int>::min();
  if (value >= -lo)
    return std::numeric_limits<Int>::max();
  return static_cast<Int>(value);
}

} // namespace adjoint

#endif // ADJOINT_SUPPORT_CHECKEDSIZE_H
