//===- InterpreterImpl.h - Frames and state of the interpreter --*- C++ -*-===//
//
// The interpreter's private state, shared by Interpreter.cpp (calls, blocks,
// control flow, the evaluation thread) and Structure.cpp (closures, tuples,
// environments and dispatch to the primitive families). Internal to
// lib/Interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_INTERPRETER_INTERPRETERIMPL_H
#define ADJOINT_LIB_INTERPRETER_INTERPRETERIMPL_H

#include "adjoint/Interpreter/Interpreter.h"
#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Compiler.h"

#include <functional>

namespace adjoint::interp::detail {

/// What the interpreter precomputes for one callable (adj.func or
/// adj.lambda): a slot per value its body evaluates or captures, so that a
/// frame is a flat vector, and for a lambda its free variables.
struct CallableInfo {
  mlir::Block *body = nullptr;
  llvm::DenseMap<mlir::Value, unsigned> slots;
  /// Values defined outside the lambda and used inside it (also by nested
  /// lambdas), in order of first use. Slots 0..n-1 hold them.
  std::vector<mlir::Value> freeVars;
};

/// The values of one activation of a callable.
struct Frame {
  const CallableInfo *info;
  std::vector<Value> values;

  explicit Frame(const CallableInfo *info)
      : info(info), values(info->slots.size()) {}
  Value &operator[](mlir::Value v) {
    auto it = info->slots.find(v);
    if (it == info->slots.end())
      missing();
    return values[it->second];
  }
  [[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void missing() {
    throw Error("internal error: a value is not available in its frame "
                "(does the module verify?)");
  }
};

/// Decrements the call depth when a call ends, also by an exception.
struct DepthGuard {
  unsigned &depth;
  explicit DepthGuard(unsigned &depth) : depth(depth) { ++depth; }
  ~DepthGuard() { --depth; }
};

/// Why `value` cannot have type `type`, or "" when it can.
std::string typeMismatch(const Value &value, mlir::Type type);

} // namespace adjoint::interp::detail

/// The state of one Interpreter: the module's functions, per-callable
/// caches and the bookkeeping of the current evaluation.
struct adjoint::interp::Interpreter::Impl {
  using CallableInfo = detail::CallableInfo;
  using Frame = detail::Frame;
  using Value = interp::Value;
  using Operation = mlir::Operation;
  using Block = mlir::Block;
  template <typename T> using ArrayRef = llvm::ArrayRef<T>;

  mlir::ModuleOp module;
  Options options;
  llvm::StringMap<adj::FuncOp> funcs;
  llvm::DenseMap<Operation *, std::unique_ptr<CallableInfo>> callables;
  /// adj.constant values, made once: tensors are immutable and shared.
  llvm::DenseMap<Operation *, Tensor> constants;
  unsigned depth = 0;
  /// Lowest safe stack address of the evaluation thread.
  const char *stackLimit = nullptr;

  Impl(mlir::ModuleOp module, Options options)
      : module(module), options(options) {
    for (Operation &op : module.getBody()->getOperations())
      if (auto func = mlir::dyn_cast<adj::FuncOp>(op))
        funcs[func.getSymName()] = func;
  }

  const CallableInfo &infoFor(Operation *callable);
  std::vector<Value> runOnEvalThread(std::function<std::vector<Value>()> fn);

  std::vector<Value> callFunction(const FunctionValue &fn,
                                  ArrayRef<Value> args, Operation *site);
  void evalBlock(Block &block, Frame &frame, std::vector<Value> &results);
  void evalOp(Operation *op, Frame &frame);
  void evalCall(adj::CallOp op, Frame &frame);
  void evalIf(adj::IfOp op, Frame &frame);
  void evalFor(adj::ForOp op, Frame &frame);
  void evalWhile(adj::WhileOp op, Frame &frame);
  void evalOther(Operation *op, Frame &frame);
  Value evalStructural(Operation *op, Frame &frame);
  Tensor evalPrimitive(Operation *op, Frame &frame);
  /// The tensor operands of primitive `op`.
  std::vector<Tensor> tensorOperands(Operation *op, Frame &frame);
  /// Evaluates `op` when it is a primitive with several results (the
  /// decompositions); false for other ops.
  bool evalMultiResult(Operation *op, Frame &frame);
};

#endif // ADJOINT_LIB_INTERPRETER_INTERPRETERIMPL_H
