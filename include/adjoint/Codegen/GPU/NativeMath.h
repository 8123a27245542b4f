//===- NativeMath.h - Vendor math calls LLVM selects natively ---*- C++ -*-===//
//
// The GPU conversions turn most math ops into calls of the vendor's math
// library (libdevice's __nv_sqrtf, the ROCm device libraries'
// __ocml_sqrt_f32). Where that library is not linked, the calls of
// functions every GPU back end selects to instructions become LLVM
// intrinsics instead; each vendor's pass maps its names to the base names
// here.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_GPU_NATIVEMATH_H
#define ADJOINT_CODEGEN_GPU_NATIVEMATH_H

#include "mlir/IR/Builders.h"

namespace adjoint::gpu {

/// The LLVM-dialect replacement of the C math function `base` ("sqrt",
/// "fabs", "floor", "ceil", "trunc", "round", "rint", "nearbyint",
/// "rsqrt", "copysign", "fmod", "fmin", "fmax", "fma"; "abs" on integers)
/// applied to `args`, whose element type the caller has matched with the
/// vendor's name; null for any other function.
mlir::Value buildNativeMath(mlir::OpBuilder &b, mlir::Location loc,
                            llvm::StringRef base, mlir::ValueRange args);

/// Replaces every call in `module` of a function named `prefix`... for
/// which `nativeOf(builder, loc, callee, args)` gives a value of the
/// call's type by that value, then erases the declarations of `prefix`
/// functions nothing calls any more.
void replaceNativeCalls(
    mlir::Operation *module, llvm::StringRef prefix,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   llvm::StringRef, mlir::ValueRange)>
        nativeOf);

} // namespace adjoint::gpu

#endif // ADJOINT_CODEGEN_GPU_NATIVEMATH_H
