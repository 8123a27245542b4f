//===- AdjTraits.h - What the ops of an adj op family are -------*- C++ -*-===//
//
// Traits that say what an op is, so that every layer that treats a family
// alike (lowering, FLOP counting, batching, the interpreter) asks the trait
// instead of keeping its own list of the family's ops. AdjOps.td attaches
// them; docs/architecture.md ("Adding a primitive") says what each layer
// still writes per op.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_ADJTRAITS_H
#define ADJOINT_DIALECT_ADJ_IR_ADJTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace adjoint::adj::trait {

/// An op with one tensor result computed element by element over the NumPy
/// broadcast of its tensor operands: result[i] = f(operand[i]...), with
/// each operand read at `i` right-aligned and size-1 dimensions repeated.
/// Upstream's `Elementwise` trait requires operands of the result's shape,
/// which is why this dialect (like TOSA) has its own.
template <typename ConcreteType>
class BroadcastingElementwise
    : public mlir::OpTrait::TraitBase<ConcreteType, BroadcastingElementwise> {};

/// An op that combines the elements of its one tensor operand over the
/// dimensions in its `axes` attribute, dropping them or, with `keepdims`,
/// keeping them as size-1 dimensions.
template <typename ConcreteType>
class Reduction : public mlir::OpTrait::TraitBase<ConcreteType, Reduction> {};

/// An op that factors or solves with the matrices in the last two
/// dimensions of its tensor operands, one problem per index of the leading
/// (batch) dimensions, which its operands and its tensor results share.
/// Its results may be several (lu's, qr's, eigh's, eig's, svd's).
template <typename ConcreteType>
class MatrixDecomposition
    : public mlir::OpTrait::TraitBase<ConcreteType, MatrixDecomposition> {};

} // namespace adjoint::adj::trait

#endif // ADJOINT_DIALECT_ADJ_IR_ADJTRAITS_H
