//===- Type.h - Types of the C++ builder API --------------------*- C++ -*-===//
//
// A small description of adj types (tensors, scalars, function values and
// tuples) that does not depend on an MLIRContext, so that signatures can be
// written before any module exists and compared by value.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_API_TYPE_H
#define ADJOINT_API_TYPE_H

#include "adjoint/Runtime/DType.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class Type;
} // namespace mlir

namespace adjoint::api {

/// The promotion lattice of mixed element types (after JAX's; see
/// docs/architecture.md, "Type promotion"):
///
///   I1 < I32 < I64 < {BF16, F16} < F32 < F64        (BF16 v F16 = F32)
///
/// The least dtype both `a` and `b` convert to.
DType promoteTypes(DType a, DType b);

/// An adj type: a ranked tensor with a static shape (rank 0 is a scalar), a
/// function value `!adj.fn<(inputs) -> (results)>`, or a tuple.
class Type {
public:
  enum class Kind { Tensor, Fn, Tuple };

  /// An f32 scalar.
  Type();

  /// A tensor of `dtype` with a static `shape`; throws adjoint::Error for a
  /// negative dimension.
  static Type tensor(DType dtype, std::vector<int64_t> shape);
  /// A rank-0 tensor.
  static Type scalar(DType dtype) { return tensor(dtype, {}); }
  /// The type of a function value.
  static Type fn(std::vector<Type> inputs, std::vector<Type> results);
  /// A tuple type.
  static Type tuple(std::vector<Type> elements);

  Kind kind() const { return kind_; }
  bool isTensor() const { return kind_ == Kind::Tensor; }
  bool isFn() const { return kind_ == Kind::Fn; }
  bool isTuple() const { return kind_ == Kind::Tuple; }

  /// Tensor accessors; they throw adjoint::Error on other kinds.
  DType dtype() const;
  const std::vector<int64_t> &shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  int64_t numel() const;

  /// Function accessors; they throw adjoint::Error on other kinds.
  const std::vector<Type> &inputs() const;
  const std::vector<Type> &results() const;

  /// Tuple elements; throws adjoint::Error on other kinds.
  const std::vector<Type> &elements() const;

  /// The same tensor type with another element type or shape.
  Type withDType(DType dtype) const;
  Type withShape(std::vector<int64_t> shape) const;

  /// The MLIR type in `ctx` ("tensor<2x3xf32>", "!adj.fn<...>", ...).
  mlir::Type toMLIR(mlir::MLIRContext *ctx) const;
  /// The builder type of an MLIR type; throws adjoint::Error for types the
  /// builder does not describe (dynamic shapes, !adj.any, !adj.env).
  static Type fromMLIR(mlir::Type type);

  /// The MLIR spelling, e.g. "tensor<2x3xf32>".
  std::string str() const;

  bool operator==(const Type &other) const;
  bool operator!=(const Type &other) const { return !(*this == other); }

private:
  Kind kind_ = Kind::Tensor;
  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_;
  /// Inputs then results for a function; elements for a tuple.
  std::vector<Type> children_;
  std::vector<Type> results_;
};

/// The type that both `a` and `b` convert to (adj::joinTypes): tensors
/// promote their dtypes and broadcast their shapes, tuples join element by
/// element, function types only join themselves. std::nullopt on a
/// conflict: a tensor and a tuple, shapes that do not broadcast, ...
std::optional<Type> joinTypes(const Type &a, const Type &b);

/// Formats a shape as "[2, 3]".
std::string formatShape(const std::vector<int64_t> &shape);

} // namespace adjoint::api

#endif // ADJOINT_API_TYPE_H
