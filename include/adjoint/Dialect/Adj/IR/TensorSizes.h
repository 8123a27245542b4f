//===- TensorSizes.h - adj tensor types have sizes that fit -----*- C++ -*-===//
//
// A type such as tensor<4294967296x4294967296xf32> parses (each dimension
// fits in int64_t) but its element count does not, and every layer below
// (interpreter, constant folding, the lowering's byte sizes, compiled
// strides) would compute it wrapped around. The RepresentableTensors trait,
// which every adj op has, rejects such a type where it appears: in an op's
// results, in the arguments of its blocks, and in a function's signature.
// Verified adj IR therefore only holds static shapes whose element count
// and byte size fit in int64_t (adjoint/Support/CheckedSize.h).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_TENSORSIZES_H
#define ADJOINT_DIALECT_ADJ_IR_TENSORSIZES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace adjoint::adj {

/// The byte size of `type` with its dynamic dimensions left out (storage
/// bytes: an i1 takes one byte), or std::nullopt when the element count or
/// the byte size of its static part does not fit in int64_t.
std::optional<int64_t> staticTensorBytes(mlir::RankedTensorType type);

/// The first ranked tensor type in `type` (tuples and function types
/// opened) whose staticTensorBytes() does not fit; null if there is none.
mlir::RankedTensorType findOversizedTensor(mlir::Type type);

/// Checks the result types of `op`, the argument types of the blocks of its
/// regions and, for a function, its signature: a diagnostic at `op` names
/// the first type that is too large.
mlir::LogicalResult verifyTensorSizes(mlir::Operation *op);

/// The op trait that runs verifyTensorSizes() (see the file comment).
template <typename ConcreteType>
class RepresentableTensors
    : public mlir::OpTrait::TraitBase<ConcreteType, RepresentableTensors> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyTensorSizes(op);
  }
};

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_IR_TENSORSIZES_H
