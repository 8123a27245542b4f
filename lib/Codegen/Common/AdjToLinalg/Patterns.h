//===- Patterns.h - adj -> linalg patterns, by op family --------*- C++ -*-===//
//
// The populate functions of the AdjToLinalg conversion and the helpers that
// several op families share. Private to lib/Codegen/Common/AdjToLinalg.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CONVERSION_ADJTOLINALG_PATTERNS_H
#define ADJOINT_LIB_CONVERSION_ADJTOLINALG_PATTERNS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace adjoint::lowering {

/// Builds the scalar body of an elementwise op from the scalar operands.
using ScalarBuilder = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// Computes `resultType` elementwise from `inputs`, which broadcast to it
/// with NumPy rules: a `linalg.generic` whose input maps drop missing
/// leading dimensions and read index 0 of size-1 dimensions.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType resultType,
                             mlir::ValueRange inputs, ScalarBuilder body);

/// A scalar constant of `type` (float, integer or complex: value + 0i) with
/// value `value`.
mlir::Value scalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);

/// adj.add, adj.mul and adj.div of two scalars of one element type (float,
/// integer or complex), as the elementwise ops compute them.
mlir::Value addScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       mlir::Value y);
mlir::Value mulScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       mlir::Value y);
mlir::Value divScalars(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       mlir::Value y);

/// A tensor of `type` filled with `value` (`linalg.fill` on `tensor.empty`).
mlir::Value filledTensor(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::Value value);

/// Reshapes a static tensor to `type` with collapse/expand_shape.
mlir::Value reshapeTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                      mlir::RankedTensorType type);

/// The type in which contractions and windows of `element` accumulate, as
/// the interpreter does: f32 for f16 and bf16, `element` otherwise.
mlir::Type accumulatorType(mlir::Type element);

/// Converts `v`, computed in the accumulator type of `type`, to `type`
/// (an elementwise arith.truncf when they differ).
mlir::Value truncateTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       mlir::RankedTensorType type);

/// An f64 scalar rounded once (to nearest even) to the float type `type`,
/// as the interpreter rounds.
mlir::Value roundFromF64(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                         mlir::Type type);

/// Unary, binary, comparison, select, cast and the tensor sensitivities.
void populateElementwisePatterns(mlir::RewritePatternSet &patterns);
/// Matrix products.
void populateContractionPatterns(mlir::RewritePatternSet &patterns);
/// Sum, max and mean over axes.
void populateReductionsPatterns(mlir::RewritePatternSet &patterns);
/// 2-D convolution and pooling.
void populateConvolutionPatterns(mlir::RewritePatternSet &patterns);
/// Transpose, reshape, broadcast_to, slice, concat, pad, gather and
/// scatter_add.
void populateMovementPatterns(mlir::RewritePatternSet &patterns);
/// Constant, fill, zeros_like and iota.
void populateCreationPatterns(mlir::RewritePatternSet &patterns);
/// stop_gradient and optimization_barrier (Derivatives.cpp).
void populateDerivativesPatterns(mlir::RewritePatternSet &patterns);
/// cholesky, triangular_solve, lu, qr, eigh and svd as calls of the
/// runtime's LAPACK kernels, or with `gpu` of declarations that
/// -adj-gpu-linear-algebra replaces with kernels.
void populateLinearAlgebraPatterns(mlir::RewritePatternSet &patterns,
                                   bool gpu);
/// bitwise_and/or/xor, shift_left, shift_right_logical, bitcast,
/// threefry2x32.
void populateBitsPatterns(mlir::RewritePatternSet &patterns);
/// Every family above: the tensor primitives. The pass lowers exactly the
/// adj ops these patterns have as roots (and the host-side structure).
void populatePrimitivePatterns(mlir::RewritePatternSet &patterns, bool gpu);

} // namespace adjoint::lowering

#endif // ADJOINT_LIB_CONVERSION_ADJTOLINALG_PATTERNS_H
