//===- Specialize.cpp - Specialize functions on function arguments --------===//
//
// `call(func_ref @f, g, x)` where `g` is a known function value becomes
// `call(func_ref @f_g, x)`: a copy of @f with the parameter replaced by `g`
// itself, so that the calls of `g` inside @f become known calls that the
// inliner can reduce. A known value is a `func_ref`, or a closure whose
// free variables are then passed to the copy as extra parameters (and the
// closure rebuilt inside it).
//
// The inliner already handles non-recursive callees; this is what makes
// recursive higher-order functions (a recursive `map(f, ...)`) first order.
// A copy is keyed by (function, parameter, function value): the recursive
// call inside a copy passes the same value again and reuses the copy, so
// specialization terminates.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_SPECIALIZE
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {

/// The values a closure reads from outside its body, in first-use order.
SmallVector<Value> freeValuesOf(LambdaOp lambda) {
  SetVector<Value> result;
  lambda.walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (!lambda.getBody().isAncestor(v.getParentRegion()))
        result.insert(v);
  });
  return result.takeVector();
}

struct Specialize : adjoint::adj::impl::SpecializeBase<Specialize> {
  /// (function, parameter index, origin of the function value) -> copy.
  DenseMap<std::tuple<Operation *, unsigned, Operation *>, FuncOp> copies;
  /// A closure rebuilt inside a copy -> the closure it was copied from.
  DenseMap<Operation *, Operation *> origin;
  /// Copies made so far; bounds the pass on pathological programs.
  unsigned numCopies = 0;
  static constexpr unsigned kMaxCopies = 256;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    bool changed = true;
    while (changed && numCopies < kMaxCopies) {
      changed = false;
      SmallVector<CallOp> calls;
      module.walk([&](CallOp call) { calls.push_back(call); });
      for (CallOp call : calls)
        changed |= trySpecialize(call, symbols);
    }
  }

  /// The op a function value stands for, when it is known: the func_ref's
  /// target or the (original) closure.
  Operation *knownFunction(Value v, SymbolTable &symbols) {
    Operation *def = v.getDefiningOp();
    if (auto ref = dyn_cast_or_null<FuncRefOp>(def))
      return symbols.lookup<FuncOp>(ref.getCallee());
    if (auto lambda = dyn_cast_or_null<LambdaOp>(def))
      return origin.lookup(lambda) ? origin.lookup(lambda) : lambda;
    return nullptr;
  }

  bool trySpecialize(CallOp call, SymbolTable &symbols) {
    auto ref = call.getCallee().getDefiningOp<FuncRefOp>();
    if (!ref)
      return false;
    auto callee = symbols.lookup<FuncOp>(ref.getCallee());
    if (!callee || callee.getBody().empty())
      return false;
    for (auto [i, arg] : llvm::enumerate(call.getArgs())) {
      if (!isa<FnType>(arg.getType()))
        continue;
      Operation *known = knownFunction(arg, symbols);
      if (!known)
        continue;
      specializeArg(call, callee, i, arg, known, symbols);
      return true;
    }
    return false;
  }

  /// Replaces `call` by a call of the copy of `callee` specialized on its
  /// argument `index`.
  void specializeArg(CallOp call, FuncOp callee, unsigned index, Value fn,
                     Operation *known, SymbolTable &symbols) {
    auto lambda = fn.getDefiningOp<LambdaOp>();
    SmallVector<Value> captured = lambda ? freeValuesOf(lambda)
                                         : SmallVector<Value>();
    auto key = std::make_tuple(callee.getOperation(), index, known);
    FuncOp copy = copies.lookup(key);
    if (!copy) {
      copy = makeCopy(callee, index, fn, captured, symbols);
      copies[key] = copy;
      ++numCopies;
    }
    // New arguments: the others, then the closure's free variables.
    SmallVector<Value> args;
    for (auto [i, a] : llvm::enumerate(call.getArgs()))
      if (i != index)
        args.push_back(a);
    llvm::append_range(args, captured);
    OpBuilder b(call);
    auto newRef = FuncRefOp::create(
        b, call.getLoc(), FnType::get(b.getContext(), copy.getFunctionType()),
        copy.getSymName());
    auto newCall = CallOp::create(b, call.getLoc(), call.getResultTypes(),
                                  newRef, args);
    call.replaceAllUsesWith(newCall.getResults());
    call.erase();
  }

  FuncOp makeCopy(FuncOp callee, unsigned index, Value fn,
                  ArrayRef<Value> captured, SymbolTable &symbols) {
    Location loc = callee.getLoc();
    SmallVector<Type> inputs;
    for (auto [i, t] : llvm::enumerate(callee.getArgumentTypes()))
      if (i != index)
        inputs.push_back(t);
    for (Value v : captured)
      inputs.push_back(v.getType());
    OpBuilder b(callee->getContext());
    b.setInsertionPointAfter(callee);
    auto copy = FuncOp::create(
        b, loc, (callee.getSymName() + "_spec").str(),
        b.getFunctionType(inputs, callee.getResultTypes()));
    copy.setPrivate();
    symbols.insert(copy);
    Block *entry = copy.addEntryBlock();
    OpBuilder body = OpBuilder::atBlockEnd(entry);

    // The function value, rebuilt inside the copy from its new parameters.
    IRMapping map;
    Block &old = callee.getBody().front();
    unsigned next = 0;
    for (auto [i, arg] : llvm::enumerate(old.getArguments()))
      if (i != index)
        map.map(arg, entry->getArgument(next++));
    IRMapping captureMap;
    for (Value v : captured)
      captureMap.map(v, entry->getArgument(next++));
    Operation *rebuilt = body.clone(*fn.getDefiningOp(), captureMap);
    if (auto lambda = fn.getDefiningOp<LambdaOp>())
      origin[rebuilt] = origin.lookup(lambda) ? origin.lookup(lambda)
                                              : lambda.getOperation();
    map.map(old.getArgument(index), rebuilt->getResult(0));
    for (Operation &op : old)
      body.clone(op, map);
    return copy;
  }
};

} // namespace
