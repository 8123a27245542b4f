//===- F64Emitter.h - Arithmetic on f64 scalars or vectors ------*- C++ -*-===//
//
// The f64 approximations (F64Math.h) are written once for a scalar f64 and
// for vectors of f64: the emitter makes constants of the operand's shape
// and hides the builder boilerplate, so that each function reads as the
// formula it computes.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_COMMON_APPROXIMATEMATH_F64EMITTER_H
#define ADJOINT_LIB_CODEGEN_COMMON_APPROXIMATEMATH_F64EMITTER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/ArrayRef.h"

namespace adjoint::f64math {

class F64Emitter {
public:
  /// `type` is f64 or a vector of f64; integers are i64 of the same shape.
  F64Emitter(mlir::OpBuilder &builder, mlir::Location loc, mlir::Type type);

  /// Splat constants of the float and integer shapes.
  mlir::Value f(double value);
  mlir::Value i(int64_t value);

  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value div(mlir::Value a, mlir::Value b);
  /// a * b + c rounded once.
  mlir::Value fma(mlir::Value a, mlir::Value b, mlir::Value c);
  mlir::Value abs(mlir::Value a);
  mlir::Value copySign(mlir::Value magnitude, mlir::Value sign);
  /// Nearest integer, ties to even, as a float.
  mlir::Value roundEven(mlir::Value a);
  /// The largest integer not above `a`, as a float.
  mlir::Value floor(mlir::Value a);

  mlir::Value cmp(mlir::arith::CmpFPredicate predicate, mlir::Value a,
                  mlir::Value b);
  mlir::Value cmpi(mlir::arith::CmpIPredicate predicate, mlir::Value a,
                   mlir::Value b);
  mlir::Value select(mlir::Value condition, mlir::Value a, mlir::Value b);
  /// `value` where it is NaN, `result` elsewhere.
  mlir::Value keepNaN(mlir::Value value, mlir::Value result);

  /// The bits of a float as i64 and back.
  mlir::Value bits(mlir::Value a);
  mlir::Value fromBits(mlir::Value a);
  mlir::Value toInt(mlir::Value a);
  mlir::Value toFloat(mlir::Value a);
  mlir::Value addi(mlir::Value a, mlir::Value b);
  mlir::Value subi(mlir::Value a, mlir::Value b);
  mlir::Value andi(mlir::Value a, mlir::Value b);
  mlir::Value ori(mlir::Value a, mlir::Value b);
  mlir::Value shl(mlir::Value a, int64_t amount);
  mlir::Value ashr(mlir::Value a, int64_t amount);
  /// 2^n for an i64 `n` in [-1022, 1023] (the normal exponents).
  mlir::Value pow2(mlir::Value n);

  /// c[0] * x^(k-1) + ... + c[k-1] by Horner's rule with fma.
  mlir::Value horner(mlir::Value x, llvm::ArrayRef<double> c);
  /// The same with coefficients that differ per element: c[j] is the
  /// coefficient of the same power for every element, already selected.
  mlir::Value horner(mlir::Value x, llvm::ArrayRef<mlir::Value> c);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::Type floatType;
  mlir::Type intType;
};

} // namespace adjoint::f64math

#endif // ADJOINT_LIB_CODEGEN_COMMON_APPROXIMATEMATH_F64EMITTER_H
