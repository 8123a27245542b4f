//===- Passes.h - Intel (SPIR-V) codegen ------------------------*- C++ -*-===//
//
// Declarations and registration of the Intel vendor passes (see Passes.td):
// the SPIR-V target (OpenCL kernel flavour) of the GPU kernels.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_INTEL_PASSES_H
#define ADJOINT_CODEGEN_INTEL_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace adjoint {

#define GEN_PASS_DECL
#include "adjoint/Codegen/Intel/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/Intel/Passes.h.inc"

} // namespace adjoint

#endif // ADJOINT_CODEGEN_INTEL_PASSES_H
