//===- Passes.h - Passes over the adj dialect -------------------*- C++ -*-===//
//
// Declarations and registration of the adj passes (see Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_TRANSFORMS_PASSES_H
#define ADJOINT_DIALECT_ADJ_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace adjoint::adj {

#define GEN_PASS_DECL
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"

/// -adj-fixpoint over a pipeline built in C++ (no pass registry needed).
std::unique_ptr<mlir::Pass> createFixpoint(const mlir::OpPassManager &round,
                                           unsigned maxRounds);

#define GEN_PASS_REGISTRATION
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_TRANSFORMS_PASSES_H
