//===- Rules.h - Derivative rules of the adj primitives ---------*- C++ -*-===//
//
// Every differentiable primitive has one reverse-mode rule (bprop) and one
// forward-mode rule (jvp), written as compact tables next to each other, one
// file per op family under lib/AD/Rules (tinygrad's gradient table and
// Myia's bprop_* functions are the model). Rules emit ordinary adj ops, so
// the derivative of a derivative needs nothing special.
//
// The grad transform calls a rule with the *forward* op: the clone of the
// primal op in the transformed program, whose operands and results are the
// values the rule may use (attributes are the primal op's). Ops emitted by
// a rule are inserted at the emitter's insertion point, which lies where
// those values are visible (inside the backpropagator closure for bprops).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_AD_RULES_H
#define ADJOINT_AD_RULES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>

namespace adjoint::ad {

/// Reverse mode: given the sensitivity of each result of `op` (a null Value
/// is a zero sensitivity; at least one is non-null), returns the
/// sensitivity of each operand, one entry per operand, null where it is zero
/// or the operand is not differentiable (integers, i1, indices). A
/// returned sensitivity has exactly the operand's type (broadcast operands
/// are reduced back to their shape).
using BpropRule = std::function<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &b, mlir::Operation *op,
    llvm::ArrayRef<mlir::Value> resultSens)>;

/// Forward mode: given the tangent of each operand of `op` (null = zero; at
/// least one is non-null), returns the tangent of each result, one entry
/// per result, null where it is zero. A tangent has the type of the
/// sensitivity of its value.
using JvpRule = std::function<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &b, mlir::Operation *op,
    llvm::ArrayRef<mlir::Value> operandTangents)>;

/// The rules of one op.
struct Rules {
  BpropRule bprop;
  JvpRule jvp;
  /// Optional: fails, with a diagnostic at the op, for the configurations
  /// of an op whose derivative is not defined (a rectangular lu); the
  /// transforms call it before either rule.
  std::function<mlir::LogicalResult(mlir::Operation *op)> supports;
};

/// The rules of `op`, or nullptr when the op has none. Ops whose results
/// are never differentiable (comparisons, iota, constants, random numbers,
/// integer-valued results) have rules that return all-null.
const Rules *lookupRules(mlir::Operation *op);

/// The rules of the ops named `name`, or nullptr (lookupRules by name, for
/// code that has no op at hand, such as a check that every primitive has
/// rules).
const Rules *lookupRules(mlir::OperationName name);

/// Whether values of `type` carry derivatives: float tensors, and tuples,
/// functions and environments (which may contain them). Integer and i1
/// tensors do not.
bool isDifferentiable(mlir::Type type);

} // namespace adjoint::ad

#endif // ADJOINT_AD_RULES_H
