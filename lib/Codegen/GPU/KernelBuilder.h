//===- KernelBuilder.h - Helpers for hand-built GPU kernels -----*- C++ -*-===//
//
// What the GPU kernel passes (-adj-gpu-reductions, -adj-gpu-matmul,
// -adj-gpu-conv) share: a gpu.launch with static sizes and workgroup
// buffers, index arithmetic in arith (kernels must not depend on
// lower-affine running later), a linalg payload applied to scalars, and the
// combiners of reductions with their identities.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_KERNELBUILDER_H
#define ADJOINT_LIB_CODEGEN_GPU_KERNELBUILDER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <functional>

namespace adjoint::gpu {

/// The discardable attribute by which a kernel's scf.for carries LLVM loop
/// metadata (-adj-gpu-loop-annotations passes it on to LLVM).
inline constexpr llvm::StringLiteral kLoopAnnotationAttrName =
    "llvm.loop_annotation";

/// Static grid and workgroup sizes of a launch, x first.
struct LaunchShape {
  std::array<int64_t, 3> grid{1, 1, 1};
  std::array<int64_t, 3> block{1, 1, 1};
};

/// A gpu.launch of `shape` at `b`'s insertion point with one workgroup
/// buffer per entry of `workgroupBuffers` (element types and shapes; their
/// memory space is set here). Leaves `b` inside the body, before its
/// gpu.terminator.
mlir::gpu::LaunchOp createLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                 const LaunchShape &shape,
                                 llvm::ArrayRef<mlir::MemRefType>
                                     workgroupBuffers = {});

/// `memref<shape x element, #gpu.address_space<workgroup>>`.
mlir::MemRefType workgroupBuffer(llvm::ArrayRef<int64_t> shape,
                                 mlir::Type element);

mlir::Value indexConstant(mlir::OpBuilder &b, mlir::Location loc,
                          int64_t value);

/// The results of `map` at `dims`, computed with arith ops on index.
llvm::SmallVector<mlir::Value> applyMap(mlir::OpBuilder &b,
                                        mlir::Location loc,
                                        mlir::AffineMap map,
                                        mlir::ValueRange dims);

/// Row-major coordinates of `linear` in a box of static `sizes`.
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b,
                                           mlir::Location loc,
                                           mlir::Value linear,
                                           llvm::ArrayRef<int64_t> sizes);

/// `lhs < rhs` on index values.
mlir::Value lessThan(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lhs,
                     mlir::Value rhs);

/// `memref[indices]`, or zero of its element type where `inBounds` is false
/// (no access is made then).
mlir::Value guardedLoad(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value inBounds, mlir::Value memref,
                        mlir::ValueRange indices);

/// Emits `then` under `scf.if cond` (no results).
void emitIf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value cond,
            const std::function<void(mlir::OpBuilder &)> &then);

/// Clones the payload of `op` with its block arguments replaced by `args`
/// and `linalg.index d` by `loopIndices[d]`; returns the yielded values.
llvm::SmallVector<mlir::Value> applyPayload(mlir::OpBuilder &b,
                                            mlir::linalg::LinalgOp op,
                                            mlir::ValueRange args,
                                            mlir::ValueRange loopIndices);

/// The discardable attribute by which -adj-gpu-fold-fills tells the
/// kernel builders that outputs of an op start from a constant, not from
/// memory (the fill that wrote the constant is gone): an array with one
/// entry per output, the constant or a unit attribute (read from memory).
inline constexpr llvm::StringLiteral kInitConstantsAttrName =
    "adj.gpu.init_constants";

/// The constant output `init` of `op` starts from, if any.
std::optional<mlir::TypedAttr> initConstant(mlir::linalg::LinalgOp op,
                                            mlir::OpOperand &init);

/// The value of operand `operand` of `op` at the loop point `loopIndices`
/// (an output's starting constant where it has one: initConstant).
mlir::Value loadOperand(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::linalg::LinalgOp op, mlir::OpOperand &operand,
                        mlir::ValueRange loopIndices);
/// Output `init` of `op` at its element `at` (already mapped): memory, or
/// its starting constant.
mlir::Value loadInit(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::linalg::LinalgOp op, mlir::OpOperand &init,
                     mlir::ValueRange at);

/// `true` when every operand of `op` is a memref of static shape and every
/// loop has a static trip count.
bool hasStaticMemrefOperands(mlir::linalg::LinalgOp op);

/// `gpu.barrier`.
void barrier(mlir::OpBuilder &b, mlir::Location loc);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_KERNELBUILDER_H
