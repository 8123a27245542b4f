//===- Shapes.cpp - Shape rules of the tensor primitives ------------------===//
//
// Dynamic dimensions (kDynamic) are "unknown": rules accept them wherever
// some run-time size would be valid, and propagate them to the result.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/Shapes.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace adjoint::adj;

static constexpr int64_t kDyn = mlir::ShapedType::kDynamic;

std::string adjoint::adj::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (d == kDyn)
      os << '?';
    else
      os << d;
  });
  os << ']';
  return out;
}

std::optional<Shape>
adjoint::adj::broadcastShapes(llvm::ArrayRef<int64_t> lhs,
                              llvm::ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  Shape result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the trailing dimension, as NumPy does.
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a == 1) {
      result[i] = b;
    } else if (b == 1) {
      result[i] = a;
    } else if (a == kDyn) {
      result[i] = b;
    } else if (b == kDyn || a == b) {
      result[i] = a;
    } else {
      return std::nullopt;
    }
  }
  return result;
}

bool adjoint::adj::broadcastsTo(llvm::ArrayRef<int64_t> from,
                                llvm::ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    int64_t f = from[i], t = to[lead + i];
    if (f != 1 && f != kDyn && t != kDyn && f != t)
      return false;
  }
  return true;
}

std::optional<int64_t> adjoint::adj::windowOutputSize(int64_t size,
                                                      int64_t kernel,
                                                      int64_t stride,
                                                      int64_t dilation,
                                                      int64_t padLow,
                                                      int64_t padHigh) {
  if (size == kDyn)
    return kDyn;
  if (kernel < 1)
    return std::nullopt;
  // Sizes come from user attributes: treat an overflowing window or padded
  // size as a window that does not fit rather than wrap around.
  int64_t span, padded;
  if (llvm::MulOverflow(dilation, kernel - 1, span) ||
      llvm::AddOverflow(span, int64_t(1), span) ||
      llvm::AddOverflow(size, padLow, padded) ||
      llvm::AddOverflow(padded, padHigh, padded) || padded < span)
    return std::nullopt;
  return (padded - span) / stride + 1;
}
