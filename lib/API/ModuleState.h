//===- ModuleState.h - Internals shared by the builder API ------*- C++ -*-===//
//
// The state behind an api::Module (context, module op, insertion point) and
// the one checked way every builder function creates an op: operands are
// checked to belong to the module and to be in scope, result types are
// inferred or verified while diagnostics are collected, and a failure erases
// the op and throws adjoint::Error once control is back in our code.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_API_MODULESTATE_H
#define ADJOINT_LIB_API_MODULESTATE_H

#include "adjoint/API/Builder.h"
#include "adjoint/Support/DiagnosticCapture.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <string>

namespace adjoint::api::detail {

struct ModuleState {
  ModuleState();

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Inserts at the end of the block being built (a function body or a
  /// nested region), or at the end of the module body between functions.
  mlir::OpBuilder builder;

  mlir::Location loc() { return mlir::UnknownLoc::get(&context); }
  mlir::Type mlirType(const Type &type) { return type.toMLIR(&context); }
  /// Wraps an MLIR value of this module.
  Value wrap(mlir::Value value) { return Value(this, value); }
};

/// The module state of `value`; throws adjoint::Error (naming `op`) when
/// the value is empty.
ModuleState &stateOf(llvm::StringRef op, const Value &value);

/// Everything needed to create one op.
struct OpSpec {
  /// "adj.add", ...
  llvm::StringRef name;
  std::vector<Value> operands;
  std::vector<mlir::NamedAttribute> attributes;
  /// Explicit result types; when unset, the op infers them.
  std::optional<std::vector<mlir::Type>> resultTypes;
  /// How many results an op that infers them has (adj.lu has three).
  unsigned numInferredResults = 1;
  unsigned numRegions = 0;
};

/// Creates the op at the insertion point, checking operands (module, scope)
/// and inferring/verifying result types; throws adjoint::Error naming the op
/// and the operand types on failure, leaving the module unchanged.
mlir::Operation *createOp(ModuleState &state, const OpSpec &spec);

/// createOp for a single-result op, returning the result.
Value createValue(ModuleState &state, const OpSpec &spec);

/// Verifies a finished op (with its regions); on failure erases it and
/// throws adjoint::Error naming the op.
void verifyOrErase(ModuleState &state, mlir::Operation *op,
                   llvm::ArrayRef<Value> operands);

/// Checks that new ops can be created at the insertion point (inside a
/// function body); throws adjoint::Error naming `op` otherwise.
void checkInsideFunction(ModuleState &state, llvm::StringRef op);

/// An adj.lambda with parameters of types `inputs`, built by `body`; its
/// type's results are those `body` returns.
Value buildLambda(ModuleState &state, const std::vector<mlir::Type> &inputs,
                  const BodyFn &body);

/// Builds `body` into `block` (whose arguments are passed to it) and ends
/// the block with `terminator` over the returned values. Restores the
/// insertion point; on an exception the caller erases the enclosing op.
/// Returns the returned values.
std::vector<Value> buildRegion(ModuleState &state, mlir::Block *block,
                               const BodyFn &body,
                               llvm::StringRef terminator);

/// A rank-0 constant of `like`'s element type (for `x * 2.0`).
Value scalarLike(const Value &like, double value, llvm::StringRef op);
/// A constant in `state` (the shared implementation of api::constant);
/// errors name `op`, the op the constant is made for.
Value makeConstant(ModuleState &state, llvm::ArrayRef<double> data,
                   const std::vector<int64_t> &shape, DType dtype,
                   llvm::StringRef op = "adj.constant");
/// The same from integers, exact for every int64.
Value makeIntegerConstant(ModuleState &state, llvm::ArrayRef<int64_t> data,
                          const std::vector<int64_t> &shape, DType dtype,
                          llvm::StringRef op = "adj.constant");
/// `adj.constant` of `attr`'s value and type.
Value constantOp(ModuleState &state, mlir::DenseElementsAttr attr);
/// `a` and `b` with the operand of the lower dtype cast to the promoted one
/// (api::promoteTypes) when both are tensors of different dtypes.
std::pair<Value, Value> promoteOperands(Value a, Value b);
/// `v` converted to `target`, a type it joins to (api::joinTypes): cast to
/// the target dtype, broadcast to the target shape, through tuples.
Value convertTo(Value v, const Type &target);

/// "tensor<2x3xf32>, tensor<3xf32>".
std::string describeTypes(llvm::ArrayRef<Value> values);

/// The tensor type of `x`; throws adjoint::Error naming `op` otherwise.
Type tensorTypeOf(llvm::StringRef op, const Value &x);
/// `axis` + `rank` for a negative axis; out-of-range axes are left for the
/// op's verifier to report.
int64_t normalizeAxis(int64_t axis, int64_t rank);
/// Named attributes of an op being built: an i64 array and an i64.
mlir::NamedAttribute i64Array(ModuleState &s, llvm::StringRef name,
                              llvm::ArrayRef<int64_t> values);
mlir::NamedAttribute i64Attr(ModuleState &s, llvm::StringRef name, int64_t v);

} // namespace adjoint::api::detail

#endif // ADJOINT_LIB_API_MODULESTATE_H
