//===- HostPlan.cpp - What the host-side patterns know of the module ------===//
//
// Computed once before the conversion: which calls are direct, which
// functions each !adj.fn type can hold (closed world: the adj.closure ops
// and the adj.func_ref ops used as values), which functions can make
// runtime objects, which functions can recurse, and which tensor types go in
// and out of boxes.
//
//===----------------------------------------------------------------------===//

#include "Structure.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

void addTensorLeaves(TypeRange types, llvm::SetVector<Type> &set) {
  SmallVector<Type> leaves;
  for (Type type : types)
    flattenLeaves(type, leaves);
  for (Type leaf : leaves)
    if (isa<RankedTensorType>(leaf))
      set.insert(leaf);
}

bool hasEnvLeaf(Type type) {
  SmallVector<Type> leaves;
  flattenLeaves(type, leaves);
  return llvm::any_of(leaves, llvm::IsaPred<adj::EnvType>);
}

/// The number of captured values `callee` takes in front of the arguments
/// of a value of type `fnType`.
size_t numCaptures(FunctionType callee, adj::FnType fnType) {
  return callee.getNumInputs() - fnType.getInputs().size();
}

/// Whether `op` makes a runtime object.
bool allocates(Operation *op) {
  if (auto closure = dyn_cast<adj::ClosureOp>(op))
    return !closure.getCaptures().empty();
  return isa<adj::EnvSetOp, adj::EnvAddOp>(op) ||
         (isa<adj::GradAddOp>(op) && hasEnvLeaf(op->getResultTypes()[0]));
}

} // namespace

/// The makers of every function type, the direct calls, and the tensor
/// types that go in and out of the runtime.
static void collect(ModuleOp module, HostPlan &plan) {
  for (auto func : module.getOps<adj::FuncOp>())
    plan.signatures[func.getSymNameAttr()] = func.getFunctionType();
  auto addMaker = [&](Type fnType, FlatSymbolRefAttr callee) {
    plan.tags.try_emplace(callee.getAttr(),
                          static_cast<int64_t>(plan.tags.size()));
    auto &list = plan.makers[fnType];
    if (!llvm::is_contained(list, callee))
      list.push_back(callee);
  };
  module.walk([&](Operation *op) {
    if (auto ref = dyn_cast<adj::FuncRefOp>(op)) {
      bool asValue = false;
      for (OpOperand &use : ref->getUses()) {
        auto call = dyn_cast<adj::CallOp>(use.getOwner());
        if (call && use.getOperandNumber() == 0)
          plan.directCallee[call] = ref.getCalleeAttr();
        else
          asValue = true;
      }
      if (asValue) {
        plan.valueRefs.insert(ref);
        addMaker(ref.getType(), ref.getCalleeAttr());
      }
    } else if (auto closure = dyn_cast<adj::ClosureOp>(op)) {
      addMaker(closure.getType(), closure.getCalleeAttr());
      addTensorLeaves(closure.getCaptures().getTypes(), plan.putTypes);
    } else if (auto set = dyn_cast<adj::EnvSetOp>(op)) {
      addTensorLeaves(set.getValue().getType(), plan.putTypes);
    } else if (auto get = dyn_cast<adj::EnvGetOp>(op)) {
      addTensorLeaves(get.getType(), plan.getTypes);
      plan.usesRuntime = true;
    }
    plan.usesRuntime |= allocates(op);
  });
  // Unboxing the captures of every function a call can reach.
  for (auto &[type, makers] : plan.makers)
    for (FlatSymbolRefAttr callee : makers) {
      FunctionType signature = plan.signatures.lookup(callee.getAttr());
      size_t captures = numCaptures(signature, cast<adj::FnType>(type));
      addTensorLeaves(signature.getInputs().take_front(captures),
                      plan.getTypes);
    }
}

/// The functions that make runtime objects, directly or through a call: a
/// fixed point over the call graph, where a call of a function value may
/// reach every function made at its type.
static void findAllocating(ModuleOp module, HostPlan &plan) {
  auto reachesAllocation = [&](Operation *op) {
    if (allocates(op))
      return true;
    auto call = dyn_cast<adj::CallOp>(op);
    if (!call)
      return false;
    if (FlatSymbolRefAttr callee = plan.directCallee.lookup(call))
      return plan.allocating.contains(callee.getAttr());
    return llvm::any_of(plan.makers.lookup(call.getCallee().getType()),
                        [&](FlatSymbolRefAttr target) {
                          return plan.allocating.contains(target.getAttr());
                        });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto func : module.getOps<adj::FuncOp>()) {
      if (plan.allocating.contains(func.getSymNameAttr()))
        continue;
      WalkResult found = func.walk([&](Operation *op) {
        return reachesAllocation(op) ? WalkResult::interrupt()
                                     : WalkResult::advance();
      });
      if (found.wasInterrupted()) {
        plan.allocating.insert(func.getSymNameAttr());
        changed = true;
      }
    }
  }
}

/// The functions on a cycle of the call graph, where a call of a function
/// value may reach every function made at its type. Compiled code has no
/// other way to an unbounded call depth, so only these need the guard.
static void findRecursive(ModuleOp module, HostPlan &plan) {
  llvm::DenseMap<StringAttr, llvm::SetVector<StringAttr>> callees;
  for (auto func : module.getOps<adj::FuncOp>()) {
    auto &out = callees[func.getSymNameAttr()];
    func.walk([&](adj::CallOp call) {
      if (FlatSymbolRefAttr callee = plan.directCallee.lookup(call)) {
        out.insert(callee.getAttr());
        return;
      }
      for (FlatSymbolRefAttr target :
           plan.makers.lookup(call.getCallee().getType()))
        out.insert(target.getAttr());
    });
  }
  for (auto func : module.getOps<adj::FuncOp>()) {
    StringAttr self = func.getSymNameAttr();
    llvm::SmallVector<StringAttr> work(callees[self].begin(),
                                       callees[self].end());
    llvm::DenseSet<StringAttr> seen;
    while (!work.empty()) {
      StringAttr next = work.pop_back_val();
      if (next == self) {
        plan.recursive.insert(self);
        break;
      }
      if (!seen.insert(next).second)
        continue;
      auto it = callees.find(next);
      if (it != callees.end())
        work.append(it->second.begin(), it->second.end());
    }
  }
}

LogicalResult lowering::buildHostPlan(ModuleOp module, HostPlan &plan) {
  collect(module, plan);
  findAllocating(module, plan);
  findRecursive(module, plan);
  bool failed = false;
  module.walk([&](adj::CallOp call) {
    if (plan.directCallee.count(call))
      return;
    Type type = call.getCallee().getType();
    if (plan.makers.count(type))
      return;
    call.emitError() << "no adj.closure or adj.func_ref in the module makes "
                        "a function value of type "
                     << type << ", so -adj-to-linalg cannot lower this call";
    failed = true;
  });
  return failure(failed);
}
