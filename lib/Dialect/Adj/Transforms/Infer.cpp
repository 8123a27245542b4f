//===- Infer.cpp - Type inference and monomorphization --------------------===//
//
// Abstract interpretation from the functions whose parameters are typed.
// Function values are tracked as the set of ops that made them, so that a
// call resolves to bodies: a top-level function gets one body per argument
// signature (the original op hosts the first, clones `@f_1`, ... the others)
// and a closure called at a second signature is cloned in place. Recursion
// is solved by Kleene iteration: a call of a body being interpreted returns
// the previous round's answer (unknown at first), and rounds repeat until no
// body's result changes. The IR is rewritten as the interpretation goes, and
// once more at the end when every function value's signature is known.
//
//===----------------------------------------------------------------------===//

#include "InferImpl.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace adjoint::adj {
#define GEN_PASS_DEF_INFER
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;
using namespace adjoint::adj::infer;

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Function values that are made but not called in this round: a body from
/// an earlier round runs again (its free variables may know more now), and
/// one never called gets its declared signature when that is typed.
void Inferrer::processUncalledProducers() {
  for (size_t i = 0; i < seenProducers.size() && !hadError; ++i) {
    Operation *op = seenProducers[i];
    if (auto ref = dyn_cast<FuncRefOp>(op)) {
      StringAttr origin = refOrigins.lookup(op);
      FuncOp tmpl =
          funcTemplates.lookup(origin ? origin : ref.getCalleeAttr().getAttr());
      if (Body *body = refTargets.lookup(op)) {
        if (body->round != round)
          (void)runBody(*body, cast<FuncOp>(body->op).getBody(),
                        tmpl.getArgumentTypes(), tmpl.getResultTypes());
      } else if (tmpl && !llvm::any_of(tmpl.getArgumentTypes(), containsAny)) {
        (void)applyFuncRef(ref, fromTypes(tmpl.getArgumentTypes()), nullptr,
                           op);
      }
    } else if (auto lambda = dyn_cast<LambdaOp>(op)) {
      FnType declared = lambdaDeclared(lambda);
      auto it = lambdaBodies.find(op);
      if (it != lambdaBodies.end()) {
        if (it->second->round != round)
          (void)runBody(*it->second, lambda.getBody(), declared.getInputs(),
                        declared.getResults());
      } else if (!llvm::any_of(declared.getInputs(), containsAny)) {
        (void)applyLambda(lambda, fromTypes(declared.getInputs()), nullptr,
                          op);
      }
    }
  }
}

LogicalResult Inferrer::run() {
  SmallVector<FuncOp> entries;
  for (auto func : module.getOps<FuncOp>()) {
    funcTemplates[func.getSymName()] = func.clone();
    if (!llvm::any_of(func.getArgumentTypes(), containsAny))
      entries.push_back(func);
  }
  for (round = 1; round <= kMaxRounds; ++round) {
    changed = false;
    ++epoch;
    seenProducers.clear();
    for (FuncOp entry : entries) {
      Body *body = getFunctionBody(
          entry.getSymName(), fromTypes(entry.getArgumentTypes()), entry);
      if (!body || hadError)
        break;
      FuncOp tmpl = funcTemplates.lookup(entry.getSymName());
      (void)runBody(*body, entry.getBody(), tmpl.getArgumentTypes(),
                    tmpl.getResultTypes());
    }
    if (!hadError)
      processUncalledProducers();
    if (hadError || !changed)
      break;
  }
  if (!hadError && round > kMaxRounds) {
    module.emitError() << "type inference did not reach a fixed point after "
                       << kMaxRounds << " rounds";
    fail();
  }
  if (!hadError)
    finalize();
  // Templates go first: lambda templates still use values of the bodies.
  llvm::SmallPtrSet<Operation *, 8> erased;
  for (auto &entry : lambdaTemplates)
    if (erased.insert(entry.second).second)
      entry.second->erase();
  for (auto &entry : funcTemplates)
    entry.second->erase();
  for (FuncOp func : deadFunctions)
    symbols.erase(func);
  return failure(hadError);
}

void Inferrer::finalize() {
  // The bodies of the last round are the program; earlier clones that it no
  // longer reaches are dropped.
  llvm::SmallPtrSet<Operation *, 16> reached;
  for (auto &entry : functionBodies)
    if (entry.second->round == round)
      reached.insert(entry.second->op);
  // In module order, so that the first diagnostic is the earliest function.
  SmallVector<Body *> bodies;
  for (auto &entry : functionBodies)
    if (entry.second->round == round)
      bodies.push_back(entry.second.get());
  DenseMap<Operation *, unsigned> position;
  for (auto [i, func] : llvm::enumerate(module.getOps<FuncOp>()))
    position[func] = i;
  llvm::sort(bodies, [&](Body *a, Body *b) {
    return position.lookup(a->op) < position.lookup(b->op);
  });
  for (Body *bodyPtr : bodies) {
    Body &body = *bodyPtr;
    auto func = cast<FuncOp>(body.op);
    func.walk([&](Operation *op) {
      if (auto lambda = dyn_cast<LambdaOp>(op);
          lambda && !lambdaBodies.count(op) &&
          containsAny(lambdaDeclared(lambda))) {
        op->emitError("cannot infer the type of this closure: it is never "
                      "called");
        fail();
      }
      if (auto ref = dyn_cast<FuncRefOp>(op); ref && !refTargets.count(op) &&
                                              values.count(ref.getResult()) &&
                                              containsAny(ref.getType())) {
        op->emitError() << "cannot infer the type of " << ref.getCalleeAttr()
                        << ": the function value is never called";
        fail();
      }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (auto it = values.find(arg); it != values.end())
              arg.setType(concrete(it->second, op));
      for (Value result : op->getResults())
        if (auto it = values.find(result); it != values.end())
          result.setType(concrete(it->second, op));
    });
    if (!body.results || hasUnknown(*body.results)) {
      func.emitError() << "cannot infer the result types of @"
                       << func.getSymName()
                       << ": a recursion without a base case?";
      fail();
      break;
    }
    func.setFunctionTypeAttr(TypeAttr::get(
        FunctionType::get(ctx, concrete(body.args, func, 0),
                          concrete(*body.results, func, 0))));
  }
  // Requests that are made but not called take their function's type.
  module.walk([&](Operation *op) {
    if (!isa<GradOp, ValueAndGradOp, VjpOp, JvpOp>(op) ||
        requestTypes.count(op) || containsAny(op->getOperand(0).getType()))
      return;
    SmallVector<Type> inferred;
    if (succeeded(cast<InferTypeOpInterface>(op).inferReturnTypes(
            ctx, op->getLoc(), op->getOperands(), op->getAttrDictionary(),
            op->getPropertiesStorage(), op->getRegions(), inferred)))
      op->getResult(0).setType(inferred.front());
  });
  if (hadError)
    return;
  for (Operation *op : reached)
    insertJoinConversions(op);
  // Whatever is still untyped was never determined.
  for (Operation *op : reached) {
    op->walk([&](Operation *inner) {
      for (OpResult result : inner->getResults())
        if (containsAny(result.getType()) && !hadError) {
          inner->emitError() << "cannot infer the type of result #"
                             << result.getResultNumber()
                             << " (a recursion without a base case?)";
          fail();
        }
    });
  }
  // Unreached clones, and untyped functions that nothing typed reaches.
  SmallVector<FuncOp> dead;
  for (auto func : module.getOps<FuncOp>())
    if (!reached.contains(func) &&
        (!funcTemplates.count(func.getSymName()) ||
         llvm::any_of(func.getArgumentTypes(), containsAny)))
      dead.push_back(func);
  llvm::SmallPtrSet<Operation *, 8> deadSet;
  for (FuncOp func : dead)
    deadSet.insert(func);
  for (FuncOp func : dead) {
    auto uses = SymbolTable::getSymbolUses(func, module);
    bool onlyDead = uses && llvm::all_of(*uses, [&](const auto &use) {
                      return deadSet.contains(
                          use.getUser()->template getParentOfType<FuncOp>());
                    });
    if (!onlyDead)
      deadSet.erase(func);
  }
  for (FuncOp func : dead)
    if (deadSet.contains(func))
      deadFunctions.push_back(func);
}

namespace {

/// Whether no type in `module` contains !adj.any: no value, block argument
/// or function signature. Types are uniqued, so each is checked once.
bool isFullyTyped(ModuleOp module) {
  llvm::DenseMap<Type, bool> untyped;
  auto isUntyped = [&](Type type) {
    auto [it, inserted] = untyped.try_emplace(type, false);
    if (inserted)
      it->second = containsAny(type);
    return it->second;
  };
  WalkResult walk = module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (isUntyped(type))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isUntyped(arg.getType()))
            return WalkResult::interrupt();
    if (auto func = dyn_cast<FuncOp>(op);
        func && isUntyped(func.getFunctionType()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

struct Infer : adjoint::adj::impl::InferBase<Infer> {
  void runOnOperation() override {
    // A typed program is left as it is (test/Dialect/Adj/infer-typed.mlir),
    // and every gradient -adj-grad writes is typed: one walk shows it,
    // where abstract interpretation of a long gradient was the slowest
    // pass of -adj-optimize.
    if (isFullyTyped(getOperation())) {
      markAllAnalysesPreserved();
      return;
    }
    Inferrer inferrer(getOperation());
    if (failed(inferrer.run()))
      signalPassFailure();
  }
};
} // namespace
