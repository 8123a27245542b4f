//===- Shapes.h - Shape rules shared by verifiers and interpreter -*- C++ -*-===//
//
// The shape rules of the tensor primitives, written once: the op verifiers
// apply them to static types (where mlir::ShapedType::kDynamic is "unknown")
// and the interpreter applies them to run-time shapes.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_SHAPES_H
#define ADJOINT_DIALECT_ADJ_IR_SHAPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace adjoint::adj {

using Shape = llvm::SmallVector<int64_t, 4>;

/// Formats a shape as "[2, 3]" ("?" for a dynamic dimension).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// NumPy broadcasting of two shapes; std::nullopt when they do not broadcast.
std::optional<Shape> broadcastShapes(llvm::ArrayRef<int64_t> lhs,
                                     llvm::ArrayRef<int64_t> rhs);

/// Whether `from` broadcasts to exactly `to` (NumPy's broadcast_to).
bool broadcastsTo(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to);

/// Output size of a window of `kernel` elements (dilated by `dilation`)
/// sliding with `stride` over `size + padLow + padHigh` elements, or
/// std::nullopt when the window does not fit once.
std::optional<int64_t> windowOutputSize(int64_t size, int64_t kernel,
                                        int64_t stride, int64_t dilation,
                                        int64_t padLow, int64_t padHigh);

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_IR_SHAPES_H
