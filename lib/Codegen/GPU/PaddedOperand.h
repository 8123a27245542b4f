//===- PaddedOperand.h - A padded buffer read from its source --*- C++ -*-===//
//
// After bufferization, tensor.pad (a convolution's padded input, the zeros
// between the rows of a strided convolution's gradient) is a fresh buffer
// filled with one constant and a copy of the unpadded source into a window
// of it: two kernels on a GPU, and a padded copy in memory, for a buffer
// that one kernel then reads. A kernel that knows the window reads the
// source instead (the constant outside the window) and the fill, the copy
// and the buffer go away.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_PADDEDOPERAND_H
#define ADJOINT_LIB_CODEGEN_GPU_PADDEDOPERAND_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace adjoint::gpu {

/// `buffer[i] = i in window ? source[i - offsets] : constant`, the window
/// being `sizes` (the source's shape) from `offsets`.
struct PaddedOperand {
  mlir::Value buffer, source;
  mlir::TypedAttr constant;
  llvm::SmallVector<int64_t> offsets, sizes;
  /// The fill and the copy (with its window view) that wrote `buffer`.
  mlir::Operation *fill = nullptr, *copy = nullptr;
};

/// How `buffer`, an operand of `reader`, was padded, when `reader` may read
/// the source instead: the buffer is a static memref.alloc that only a fill
/// (linalg.fill or an input-less linalg.map of a constant), one copy into a
/// static, unit-stride window view of it, `reader` (directly or through
/// static views of all its dims that only `reader` uses: a pooling's
/// windows) and deallocations use; the fill comes
/// before the copy and the copy before `reader` in one block, with nothing
/// in between that writes memory (the source keeps its values). A
/// deallocation of the source in between is moved after `reader`.
std::optional<PaddedOperand> findPaddedOperand(mlir::Operation *reader,
                                               mlir::Value buffer);

/// The buffer `operand` reads: the source of a memref.subview, else
/// `operand` itself (what findPaddedOperand takes for a reader's operand).
mlir::Value viewedBuffer(mlir::Value operand);

/// `operand`'s element at `indices`: read from the source of the padding in
/// `padded` of the buffer `operand` is or views (the padding constant
/// outside the window: a select, so the load stays unconditional and in
/// bounds), else a plain load.
mlir::Value loadThroughPadding(mlir::OpBuilder &b, mlir::Location loc,
                               llvm::ArrayRef<PaddedOperand> padded,
                               mlir::Value operand, mlir::ValueRange indices);

/// Erases the fill, the copy, its view, the buffer and its deallocations
/// (and views of it nothing uses) when nothing else reads the buffer any
/// more (its reader was rewritten to read the source); returns whether it
/// did.
bool erasePaddingIfUnread(const PaddedOperand &padded);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_PADDEDOPERAND_H
