//===- Compiled.h - ir-run --compile: run a function natively ---*- C++ -*-===//
//
// Bridges the interpreter's values, which ir-run parses and prints, and the
// compile API's flat list of runtime tensors.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TOOLS_IR_RUN_COMPILED_H
#define ADJOINT_TOOLS_IR_RUN_COMPILED_H

#include "adjoint/API/Compile.h"
#include "adjoint/Interpreter/Value.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace adjoint::irrun {

/// Compiles `function` of `module` for `target` and runs it on `args`
/// (tuples flattened into their tensor leaves); returns the results nested
/// as the function's result types say. With `stats`, prints where the code
/// came from to stderr. Throws adjoint::Error.
std::vector<interp::Value> runCompiled(mlir::ModuleOp module,
                                       const std::string &function,
                                       const std::vector<interp::Value> &args,
                                       const Target &target,
                                       const CompileOptions &options,
                                       bool stats);

} // namespace adjoint::irrun

#endif // ADJOINT_TOOLS_IR_RUN_COMPILED_H
