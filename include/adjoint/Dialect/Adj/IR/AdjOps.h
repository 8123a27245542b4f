//===- AdjOps.h - Operations of the adj dialect -----------------*- C++ -*-===//
//
// The generated op classes of the adj dialect.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_ADJOPS_H
#define ADJOINT_DIALECT_ADJ_IR_ADJOPS_H

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/AdjTraits.h"
#include "adjoint/Dialect/Adj/IR/TensorSizes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "adjoint/Dialect/Adj/IR/AdjEnums.h.inc"

#define GET_OP_CLASSES
#include "adjoint/Dialect/Adj/IR/AdjOps.h.inc"

#endif // ADJOINT_DIALECT_ADJ_IR_ADJOPS_H
