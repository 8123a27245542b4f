//===- Arguments.h - Command-line arguments of ir-run -----------*- C++ -*-===//
//
// Turns one `--arg` string into a run-time value of a parameter type:
// a literal ("3.5", "[[1, 2], [3, 4]]"), a .npy file ("@x.npy") or seeded
// random numbers ("rand:seed=7", "randn:seed=7,mean=0,std=1").
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TOOLS_IR_RUN_ARGUMENTS_H
#define ADJOINT_TOOLS_IR_RUN_ARGUMENTS_H

#include "adjoint/Interpreter/Value.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

namespace adjoint::irrun {

/// The value `text` denotes for a parameter of type `type`; throws
/// adjoint::Error with a message that names the problem.
interp::Value parseArgument(llvm::StringRef text, mlir::Type type);

} // namespace adjoint::irrun

#endif // ADJOINT_TOOLS_IR_RUN_ARGUMENTS_H
