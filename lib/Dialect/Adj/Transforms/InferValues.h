//===- InferValues.h - Abstract values of type inference --------*- C++ -*-===//
//
// The lattice that -adj-infer interprets programs over: a value is unknown
// (bottom, the result of a recursive call not solved yet), a tensor or env
// type, a tuple of abstract values, or a set of the function values it may
// be (the ops that produced them), so that calls resolve to bodies.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_INFERVALUES_H
#define ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_INFERVALUES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>

namespace adjoint::adj::infer {

/// Something that makes a function value.
struct Producer {
  enum class Kind {
    FuncRef, ///< an adj.func_ref op; calls resolve to a specialization
    Lambda,  ///< an adj.lambda op; its body is interpreted when called
    Request, ///< an AD request (adj.grad, ...); calls go to the function
    Opaque,  ///< a value known only by its !adj.fn type (a typed parameter)
  };
  Kind kind;
  /// The producing op (all kinds but Opaque).
  mlir::Operation *op = nullptr;
  /// The !adj.fn type of an Opaque producer.
  mlir::Type type;
};

class AbsNode;
/// An abstract value; immutable and shared.
using Abs = std::shared_ptr<const AbsNode>;

class AbsNode {
public:
  enum class Kind { Unknown, Leaf, Tuple, Fn };
  Kind kind = Kind::Unknown;
  /// Leaf: a tensor or !adj.env type.
  mlir::Type type;
  /// Tuple: the elements.
  llvm::SmallVector<Abs> elements;
  /// Fn: the possible producers, without duplicates, ordered by key.
  llvm::SmallVector<Producer> producers;
  /// A canonical spelling: equal keys mean equal abstract values.
  std::string key;
};

/// The bottom value: nothing is known yet.
Abs unknown();
/// A value of tensor or env type `type`.
Abs leaf(mlir::Type type);
/// A tuple of `elements`.
Abs tuple(llvm::ArrayRef<Abs> elements);
/// A function value made by one of `producers`.
Abs fn(llvm::ArrayRef<Producer> producers);
/// The abstract value of a value declared with `type` (!adj.any: unknown,
/// !adj.fn: an opaque function of that type).
Abs fromType(mlir::Type type);
llvm::SmallVector<Abs> fromTypes(mlir::TypeRange types);

/// Whether `value` is or contains the unknown value.
bool hasUnknown(const Abs &value);
bool hasUnknown(llvm::ArrayRef<Abs> values);

/// The abstract value of the sensitivity of `value` (see
/// getSensitivityType): functions have !adj.env sensitivities.
Abs sensitivity(const Abs &value, mlir::MLIRContext *ctx);

/// The least upper bound: unknown joins anything, function sets unite, and
/// leaves join by adj::joinTypes (promoted dtypes, broadcast shapes).
/// Returns null when `lhs` and `rhs` do not join.
Abs join(const Abs &lhs, const Abs &rhs);

/// The canonical key of a list of values, or "?" for std::nullopt.
std::string keyOfList(llvm::ArrayRef<Abs> values);
std::string keyOfResults(const std::optional<llvm::SmallVector<Abs>> &values);

/// A readable spelling for diagnostics.
std::string describe(const Abs &value);

} // namespace adjoint::adj::infer

#endif // ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_INFERVALUES_H
