//===- Passes.h - GPU codegen passes shared by all vendors ------*- C++ -*-===//
//
// Declarations and registration of the passes in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_GPU_PASSES_H
#define ADJOINT_CODEGEN_GPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Pass/Pass.h"

namespace adjoint {

#define GEN_PASS_DECL
#include "adjoint/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/GPU/Passes.h.inc"

} // namespace adjoint

#endif // ADJOINT_CODEGEN_GPU_PASSES_H
