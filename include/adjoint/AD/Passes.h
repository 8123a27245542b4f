//===- Passes.h - Automatic differentiation passes --------------*- C++ -*-===//

#ifndef ADJOINT_AD_PASSES_H
#define ADJOINT_AD_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace adjoint::ad {

#define GEN_PASS_DECL
#include "adjoint/AD/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/AD/Passes.h.inc"

} // namespace adjoint::ad

#endif // ADJOINT_AD_PASSES_H
