//===- F64Math.h - f64 transcendentals as arithmetic ------------*- C++ -*-===//
//
// exp, expm1, log, log1p, tanh and erf on f64 scalars or vectors, built from
// arith and math ops that every backend lowers to instructions (fma,
// roundeven, copysign, bit casts, integer shifts), so that the CPU's loop
// vectorizer turns a loop of them into vector code where a libm call would
// keep it scalar. Each function handles the special values itself (NaN,
// infinities, signed zeros, subnormals, overflow and underflow).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_COMMON_APPROXIMATEMATH_F64MATH_H
#define ADJOINT_LIB_CODEGEN_COMMON_APPROXIMATEMATH_F64MATH_H

#include "F64Emitter.h"

#include "mlir/IR/PatternMatch.h"

namespace adjoint::f64math {

/// ln2 = kLn2Hi + kLn2Lo, kLn2Hi with 32 significant bits so that k kLn2Hi
/// is exact for every integer k below 2^21 (fdlibm's split).
inline constexpr double kLn2Hi = 6.93147180369123816490e-01;
inline constexpr double kLn2Lo = 1.90821492927058770002e-10;

mlir::Value exp(F64Emitter &e, mlir::Value x);
mlir::Value expm1(F64Emitter &e, mlir::Value x);
mlir::Value log(F64Emitter &e, mlir::Value x);
mlir::Value log1p(F64Emitter &e, mlir::Value x);
mlir::Value tanh(F64Emitter &e, mlir::Value x);
mlir::Value erf(F64Emitter &e, mlir::Value x);

/// Rewrites math.sin and math.cos on f32 (scalars and vectors) into
/// arithmetic on f64 (F32Trig.cpp), within an ulp over the whole f32 range.
void populateF32TrigPatterns(mlir::RewritePatternSet &patterns);

/// Rewrites math.exp, expm1, log, log1p, tanh and erf on f64 (scalars and
/// vectors) into the functions above.
void populateF64ApproximationPatterns(mlir::RewritePatternSet &patterns);

} // namespace adjoint::f64math

#endif // ADJOINT_LIB_CODEGEN_COMMON_APPROXIMATEMATH_F64MATH_H
