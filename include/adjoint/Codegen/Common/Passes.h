//===- Passes.h - Passes every target uses ----------------------*- C++ -*-===//
//
// Declarations and registration of the target-neutral code generation
// passes (see Passes.td): adj -> linalg on tensors, fusion, entry arguments.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_COMMON_PASSES_H
#define ADJOINT_CODEGEN_COMMON_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace adjoint {

#define GEN_PASS_DECL
#include "adjoint/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/Common/Passes.h.inc"

} // namespace adjoint

#endif // ADJOINT_CODEGEN_COMMON_PASSES_H
