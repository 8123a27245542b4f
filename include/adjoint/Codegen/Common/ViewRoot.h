//===- ViewRoot.h - The buffer a chain of views was taken of ----*- C++ -*-===//
//
// Shared by passes that reason about which buffer an access touches (CPU
// convolution matching and load hoisting, GPU fill folding and scatters).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_COMMON_VIEWROOT_H
#define ADJOINT_CODEGEN_COMMON_VIEWROOT_H

#include "mlir/Interfaces/ViewLikeInterface.h"

namespace adjoint {

/// The buffer `v` views: the source of its chain of view ops (subview,
/// cast, reshape, transpose); `v` itself when it is no view.
inline mlir::Value viewRoot(mlir::Value v) {
  while (auto view = v.getDefiningOp<mlir::ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

} // namespace adjoint

#endif // ADJOINT_CODEGEN_COMMON_VIEWROOT_H
