//===- Interpreter.h - The reference interpreter of adj IR ------*- C++ -*-===//
//
// Evaluates adj programs at any stage before lowering: closures,
// higher-order functions, recursion, control flow, tuples, environments and
// every tensor primitive in every element type. It is the oracle against
// which every transformation and backend is tested, so it favours plain,
// obviously correct code (Eigen for matrix products) over speed.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_INTERPRETER_INTERPRETER_H
#define ADJOINT_INTERPRETER_INTERPRETER_H

#include "adjoint/Interpreter/Value.h"
#include "adjoint/Support/Error.h"

#include "mlir/IR/BuiltinOps.h"

namespace adjoint::interp {

struct Options {
  /// Calls nested deeper than this stop with an adjoint::Error instead of
  /// overflowing the stack.
  unsigned maxCallDepth = 10000;
};

/// Runs the functions of one module. The module must verify and outlive the
/// interpreter. AD requests (adj.grad, ...) must have been expanded by
/// -adj-grad first; evaluating one is an error.
///
/// Each call evaluates on a thread of its own whose stack is sized from
/// Options::maxCallDepth, so deep recursion ends in an adjoint::Error rather
/// than a stack overflow. One Interpreter runs one call at a time.
class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module, Options options = {});
  ~Interpreter();

  /// Calls the adj.func named `name`. Throws adjoint::Error on a run-time
  /// error (wrong argument count or types, index out of range, depth limit)
  /// with the location of the failing op.
  std::vector<Value> call(llvm::StringRef name, llvm::ArrayRef<Value> args);

  /// Calls a function value (a closure or a function reference).
  std::vector<Value> call(const Value &function, llvm::ArrayRef<Value> args);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace adjoint::interp

#endif // ADJOINT_INTERPRETER_INTERPRETER_H
