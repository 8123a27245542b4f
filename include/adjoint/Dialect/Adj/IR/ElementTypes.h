//===- ElementTypes.h - DType <-> MLIR element types -------------*- C++ -*-===//
//
// The one mapping between the runtime's DType and the element types of adj
// tensors, for every layer that crosses it (the builder, the interpreter,
// the compile driver).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_ELEMENTTYPES_H
#define ADJOINT_DIALECT_ADJ_IR_ELEMENTTYPES_H

#include "adjoint/Runtime/DType.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace adjoint::adj {

/// The DType of an element type; nullopt for one adj tensors cannot hold.
std::optional<DType> dtypeOf(mlir::Type element);

/// The element type of `dtype`: f64 ... i1, complex<f32> for c64 and
/// complex<f64> for c128.
mlir::Type elementTypeOf(DType dtype, mlir::MLIRContext *ctx);

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_IR_ELEMENTTYPES_H
