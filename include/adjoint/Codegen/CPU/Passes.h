//===- Passes.h - CPU-only code generation passes ---------------*- C++ -*-===//
//
// Declarations and registration of the passes only the CPU target runs (see
// Passes.td); their flags start with -adj-cpu-.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_CPU_PASSES_H
#define ADJOINT_CODEGEN_CPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace adjoint::cpu {

#define GEN_PASS_DECL
#include "adjoint/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/CPU/Passes.h.inc"

} // namespace adjoint::cpu

#endif // ADJOINT_CODEGEN_CPU_PASSES_H
