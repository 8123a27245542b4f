//===- Patterns.h - linalg -> runtime kernel call patterns ------*- C++ -*-===//
//
// Shared helpers of -adj-cpu-linalg-to-kernels and its pattern families
// (Contraction.cpp, Convolution.cpp). Internal to the conversion.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CONVERSION_LINALGTOKERNELS_PATTERNS_H
#define ADJOINT_LIB_CONVERSION_LINALGTOKERNELS_PATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace adjoint::kernels {

/// "f32" or "f64" for the element types that have kernels, and with
/// `complex` (the products' kernels) "c64" or "c128" for complex<f32> and
/// complex<f64>; "" otherwise.
llvm::StringRef kernelSuffix(mlir::Type elementType, bool complex = false);

/// `v` cast to the fully dynamic strided memref of its rank, the one type
/// every kernel argument of that rank has.
mlir::Value castToDynamic(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value v);

/// An i64 constant (kernel flags and sizes are i64: no ABI questions about
/// how narrow integers are extended).
mlir::Value i64Constant(mlir::OpBuilder &b, mlir::Location loc,
                        int64_t value);

/// True when `op` is immediately preceded by a linalg.fill of zero into
/// `dest`; the fill is then erased and the kernel overwrites instead of
/// accumulating.
bool takeZeroFill(mlir::RewriterBase &rewriter, mlir::Operation *op,
                  mlir::Value dest);

/// Replaces `op` by `call @name(args)`, declaring `@name` (private, with
/// llvm.emit_c_interface) in the enclosing module on first use.
void replaceWithKernelCall(mlir::RewriterBase &rewriter, mlir::Operation *op,
                           llvm::StringRef name, mlir::ValueRange args);

void populateContractionPatterns(mlir::RewritePatternSet &patterns);
void populateConvolutionPatterns(mlir::RewritePatternSet &patterns);

} // namespace adjoint::kernels

#endif // ADJOINT_LIB_CONVERSION_LINALGTOKERNELS_PATTERNS_H
