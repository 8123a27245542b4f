//===- InitAll.h - Register everything Adjoint provides ---------*- C++ -*-===//
//
// One place that registers the adj dialect and passes together with the
// upstream dialects, extensions, passes and LLVM IR translations, for the
// tools and for the library API alike.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_INITALL_H
#define ADJOINT_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace adjoint {

/// Adds the adj dialect, every upstream dialect and their extensions and
/// LLVM IR translations to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers the adj passes and every upstream pass with the global pass
/// registry (for command-line parsing in ir-opt).
void registerAllPasses();

} // namespace adjoint

#endif // ADJOINT_INITALL_H
