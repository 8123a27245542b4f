//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// The named pipelines of Adjoint, in one place, for ir-opt (as flags) and
// for the library API alike.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PIPELINES_PIPELINES_H
#define ADJOINT_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace adjoint {

/// `-adj-optimize`: type inference, then rounds of unrolling, specialization,
/// inlining and simplification until the program is first order where it
/// can be, then closure conversion of what remains (recursion).
void buildOptimizePipeline(mlir::OpPassManager &pm);

/// Registers the named pipelines with the global pass registry.
void registerPipelines();

} // namespace adjoint

#endif // ADJOINT_PIPELINES_PIPELINES_H
