//===- ShapeRules.h - Result-type inference shared by op families -*- C++ -*-===//
//
// The shape rules that whole op families share. AdjOps.td names the rule
// and its parameters on each family's ODS class, and the generated
// `inferReturnTypes` of every op in the family calls it (Adj_InferOp's
// `inference`); TensorOps.cpp defines them. Each rule infers !adj.any when
// an operand is untyped and is also the ops' verifier: a failure is a
// diagnostic at `loc` that names the op and the types involved.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_DIALECT_ADJ_IR_SHAPERULES_H
#define ADJOINT_LIB_DIALECT_ADJ_IR_SHAPERULES_H

#include "mlir/IR/Location.h"
#include "mlir/IR/TypeRange.h"

#include <optional>

namespace adjoint::adj::shape_rules {

using Loc = std::optional<mlir::Location>;
using Results = llvm::SmallVectorImpl<mlir::Type>;

/// The element types an op takes.
enum class Domain {
  Numeric, ///< integers, floats and complex numbers, but not i1
  Inexact, ///< floats and complex numbers
  Float,   ///< floats
  Ordered, ///< anything but complex numbers (i1 included)
  Words,   ///< i32 and i64, read as bit patterns
};

/// What a unary elementwise op takes and gives.
struct UnaryRule {
  bool floatOnly; ///< refuses integers
  bool complex;   ///< admits complex elements
  bool modulus;   ///< a complex operand gives the parts' real type
};

/// The requests of automatic differentiation.
enum class ADRequest { Grad, ValueAndGrad, Vjp, Jvp };

/// f(lhs, rhs) elementwise: one element type from `domain`, the NumPy
/// broadcast of the shapes.
mlir::LogicalResult inferBinary(mlir::MLIRContext *ctx, Loc loc,
                                llvm::StringRef opName, mlir::TypeRange types,
                                Domain domain, Results &results);

/// f(x) elementwise: the operand's type (or its parts' for a modulus).
mlir::LogicalResult inferUnary(mlir::MLIRContext *ctx, Loc loc,
                               llvm::StringRef opName, mlir::Type type,
                               UnaryRule rule, Results &results);

/// adj.real and adj.imag: the parts' type of a complex tensor.
mlir::LogicalResult inferPart(mlir::MLIRContext *ctx, Loc loc,
                              llvm::StringRef opName, mlir::Type type,
                              Results &results);

/// A reduction over distinct in-range `axes`, dropped or kept as size 1.
mlir::LogicalResult inferReduce(mlir::MLIRContext *ctx, Loc loc,
                                llvm::StringRef opName, mlir::Type type,
                                llvm::ArrayRef<int64_t> axes, bool keepdims,
                                Domain domain, Results &results);

/// 2-D pooling of an NCHW float tensor.
mlir::LogicalResult inferPool(mlir::MLIRContext *ctx, Loc loc,
                              llvm::StringRef opName, mlir::Type type,
                              llvm::ArrayRef<int64_t> kernel,
                              llvm::ArrayRef<int64_t> stride,
                              llvm::ArrayRef<int64_t> padding,
                              Results &results);

/// The function type an AD request of `fn` returns.
mlir::LogicalResult
inferADRequest(mlir::MLIRContext *ctx, Loc loc, llvm::StringRef opName,
               ADRequest kind, mlir::Type fn,
               std::optional<llvm::ArrayRef<int64_t>> wrt, bool customSens,
               Results &results);

} // namespace adjoint::adj::shape_rules

#endif // ADJOINT_LIB_DIALECT_ADJ_IR_SHAPERULES_H
