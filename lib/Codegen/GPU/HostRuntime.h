//===- HostRuntime.h - Host code that calls the GPU runtime -----*- C++ -*-===//
//
// Helpers of the host-side GPU passes (-adj-gpu-host-memory,
// -adj-gpu-launch-to-runtime): declarations of the adj_rt_gpu_* functions
// of include/adjoint/Runtime/GpuABI.h and conversions between memref
// descriptors and the device addresses they hold.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_HOSTRUNTIME_H
#define ADJOINT_LIB_CODEGEN_GPU_HOSTRUNTIME_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace adjoint::gpu {

/// The declaration of runtime function `name` in `module`, added (private)
/// on first use. Fails with an error when `name` exists with another type.
mlir::FailureOr<mlir::func::FuncOp>
getRuntimeFunction(mlir::ModuleOp module, llvm::StringRef name,
                   mlir::FunctionType type);

/// Bytes per element as Adjoint's buffers store it (i1 is one byte, a
/// complex number two parts).
int64_t elementBytes(mlir::Type elementType);

mlir::Value i64Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// The address of element 0 of `memref` (aligned pointer plus the static
/// offset of its layout when `withOffset`) as an !llvm.ptr.
mlir::Value bufferAddress(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value memref, bool withOffset);

/// A memref of the statically shaped, identity-layout `type` whose
/// allocated and aligned pointers are `pointer`: a descriptor in the LLVM
/// dialect cast to the memref type (the cast folds away when the host code
/// becomes LLVM code).
mlir::Value memrefAt(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value pointer, mlir::MemRefType type);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_HOSTRUNTIME_H
