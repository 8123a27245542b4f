//===- LinalgToLaunch.h - One linalg op -> one gpu.launch -------*- C++ -*-===//
//
// The kernel construction of -adj-gpu-map-to-kernels, shared with
// -adj-gpu-host-memory (which makes copy kernels for strided copies).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_LINALGTOLAUNCH_H
#define ADJOINT_LIB_CODEGEN_GPU_LINALGTOLAUNCH_H

#include "PaddedOperand.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace adjoint::gpu {

/// Replaces `op` (on buffers, static loop ranges) with a 1-D gpu.launch of
/// ceil(N / workgroupSize) workgroups, N the size of its parallel iteration
/// space: each work item below N computes one parallel point, looping
/// serially over the reduction dimensions. Returns null when the op has no
/// work (an empty space; the op is erased). Emits an error on `op` and
/// fails for ops on tensors or with dynamic loop ranges. Inputs that are
/// `padded` buffers (or views of them) are read from their sources.
mlir::FailureOr<mlir::gpu::LaunchOp>
mapLinalgOpToLaunch(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                    int64_t workgroupSize,
                    llvm::ArrayRef<PaddedOperand> padded = {});

/// Whether `type` is a statically shaped buffer whose elements are
/// contiguous in row-major order (a runtime memcpy can move it).
bool isContiguous(mlir::Type type);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_LINALGTOLAUNCH_H
