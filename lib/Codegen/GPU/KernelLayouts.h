//===- KernelLayouts.h - Only static layouts reach kernels ------*- C++ -*-===//
//
// The work of -adj-gpu-kernel-layouts: kernels take a memref as one
// pointer and its layout from its type, so a buffer whose offset or strides
// are only known at run time must not become a kernel argument as it is.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_KERNELLAYOUTS_H
#define ADJOINT_LIB_CODEGEN_GPU_KERNELLAYOUTS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace adjoint::gpu {

/// Whether `type`'s offset and strides are all static.
bool hasStaticLayout(mlir::MemRefType type);

/// Makes every buffer `launch` captures have a static layout: a view with a
/// dynamic offset or strides (a row picked by an index read from a tensor)
/// is made again inside the kernel from its source, and folds into the
/// kernel's loads and stores; any other buffer of dynamic layout (an scf.if
/// result whose branches differ in layout) becomes a flat memref<?xT> of its
/// base pointer, with its offset and strides as index values that its loads
/// and stores in the kernel use. Fails with an error when the kernel does
/// more with such a buffer than load and store.
mlir::LogicalResult legalizeKernelLayouts(mlir::gpu::LaunchOp launch);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_KERNELLAYOUTS_H
