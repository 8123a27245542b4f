//===- AdjDialect.h - The adj dialect and its types -------------*- C++ -*-===//
//
// Declares the adj dialect, its types (!adj.fn, !adj.tuple, !adj.env,
// !adj.any) and the type relations every pass needs: compatibility with the
// untyped placeholder, and the type of a value's sensitivity.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_ADJDIALECT_H
#define ADJOINT_DIALECT_ADJ_IR_ADJDIALECT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/TypeRange.h"

#include "adjoint/Dialect/Adj/IR/AdjDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "adjoint/Dialect/Adj/IR/AdjTypes.h.inc"

namespace adjoint::adj {

/// Two types are compatible when they are equal, when either is !adj.any,
/// or when they are built from compatible parts (tensor shapes where one side
/// has a dynamic dimension, tuples and function types element by element).
bool areCompatible(mlir::Type lhs, mlir::Type rhs);
bool areCompatible(mlir::TypeRange lhs, mlir::TypeRange rhs);

/// The type of the sensitivity of a value of type `type`: the tensor type
/// itself, a tuple of sensitivities, !adj.env for a function or an env, and
/// !adj.any for !adj.any.
mlir::Type getSensitivityType(mlir::Type type);

/// Whether `type` or any type nested in it is !adj.any.
bool containsAny(mlir::Type type);

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_IR_ADJDIALECT_H
