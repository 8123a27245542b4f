//===- Promotion.h - The element type lattice and type joins ----*- C++ -*-===//
//
// One promotion lattice for every layer that mixes element types (the C++
// builder, the Python front end through it, and -adj-infer), after JAX's:
//
//   i1 < i32 < i64 < {bf16, f16} < f32 < f64        (bf16 v f16 = f32)
//   f32 < complex<f32> < complex<f64>,  f64 < complex<f64>
//
// Booleans join anything, integers join floats to the float, and two types
// of one kind join to the wider one. The ops themselves stay strict (one
// element type per op): whoever promotes inserts the adj.cast.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_PROMOTION_H
#define ADJOINT_DIALECT_ADJ_IR_PROMOTION_H

#include "mlir/IR/Types.h"

namespace adjoint::adj {

/// The least element type that both `a` and `b` convert to in the lattice
/// above; a null Type when either is not an integer, float or complex type.
mlir::Type promoteElementTypes(mlir::Type a, mlir::Type b);

/// The join of two adj types, the type that both convert to: tensors join
/// their element types (promoteElementTypes) and broadcast their shapes,
/// tuples join element by element, other types only join themselves. A
/// null Type on a conflict (a tensor and a tuple, shapes that do not
/// broadcast, different function types).
mlir::Type joinTypes(mlir::Type a, mlir::Type b);

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_IR_PROMOTION_H
