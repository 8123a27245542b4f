//===- RemoveDeadValues.cpp - Remove unused ops, parameters and results ---===//
//
// Every adj op is pure, so an op whose results are unused can go, regions
// and all. Beyond single ops, a value can be dead because nothing reads it
// across a boundary: a parameter of a private function that its body never
// reads, a result that no call uses, a result of adj.if, or a loop-carried
// value that only feeds itself. The pass removes those too, iterating
// because each removal can make more values dead.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/BitVector.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_REMOVEDEADVALUES
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {

/// Erases unused side-effect-free ops under `root`; true if any went.
/// Visiting blocks backwards, after nested regions, reaches users before
/// the values they use, so one sweep erases whole dead chains.
bool eraseDeadOps(Operation *root) {
  bool changed = false;
  root->walk<WalkOrder::PostOrder, mlir::ReverseIterator>([&](Operation *op) {
    if (op != root && isOpTriviallyDead(op)) {
      op->erase();
      changed = true;
    }
  });
  return changed;
}

/// `values` without the entries whose bit is set in `drop`.
SmallVector<Value> keep(ValueRange values, const llvm::BitVector &drop,
                        unsigned offset = 0) {
  SmallVector<Value> kept;
  for (auto [i, value] : llvm::enumerate(values))
    if (i < offset || !drop.test(i - offset))
      kept.push_back(value);
  return kept;
}

SmallVector<Type> keepTypes(TypeRange types, const llvm::BitVector &drop) {
  SmallVector<Type> kept;
  for (auto [i, type] : llvm::enumerate(types))
    if (!drop.test(i))
      kept.push_back(type);
  return kept;
}

/// Drops the operands of the yield ending `region` whose bit is set.
void dropYieldOperands(Region &region, const llvm::BitVector &drop) {
  auto yield = cast<YieldOp>(region.front().getTerminator());
  yield->setOperands(keep(yield.getOperands(), drop));
}

/// Replaces the live results of `from` by those of `to`, in order.
void replaceLiveResults(Operation *from, Operation *to,
                        const llvm::BitVector &drop) {
  unsigned next = 0;
  for (OpResult result : from->getResults())
    if (!drop.test(result.getResultNumber()))
      result.replaceAllUsesWith(to->getResult(next++));
  from->erase();
}

/// Removes the unused results of an adj.if.
bool removeDeadIfResults(IfOp op) {
  llvm::BitVector drop(op.getNumResults());
  for (OpResult result : op.getResults())
    if (result.use_empty())
      drop.set(result.getResultNumber());
  if (drop.none())
    return false;
  OpBuilder builder(op);
  auto live = IfOp::create(builder, op.getLoc(),
                           keepTypes(op.getResultTypes(), drop),
                           op.getCondition());
  live.getThenRegion().takeBody(op.getThenRegion());
  live.getElseRegion().takeBody(op.getElseRegion());
  dropYieldOperands(live.getThenRegion(), drop);
  dropYieldOperands(live.getElseRegion(), drop);
  replaceLiveResults(op, live, drop);
  return true;
}

/// True when block argument `arg` is read by nothing but operand `index`
/// of the yield ending its block: the carried value only feeds itself.
bool onlyFeedsItself(BlockArgument arg, unsigned index) {
  Operation *yield = arg.getOwner()->getTerminator();
  return llvm::all_of(arg.getUses(), [&](OpOperand &use) {
    return use.getOwner() == yield && use.getOperandNumber() == index;
  });
}

/// Removes carried values `drop` from `region`'s block (arguments from
/// `offset` on) and, when `yields`, from its yield.
void dropCarried(Region &region, const llvm::BitVector &drop,
                 unsigned offset, bool yields) {
  Block &block = region.front();
  if (yields)
    dropYieldOperands(region, drop);
  llvm::BitVector args(block.getNumArguments());
  for (unsigned i : drop.set_bits())
    args.set(i + offset);
  block.eraseArguments(args);
}

/// Removes the carried values of an adj.for that nothing reads.
bool removeDeadForCarried(ForOp op) {
  Block &body = op.getBody().front();
  llvm::BitVector drop(op.getNumResults());
  for (OpResult result : op.getResults()) {
    unsigned i = result.getResultNumber();
    if (result.use_empty() && onlyFeedsItself(body.getArgument(i + 1), i))
      drop.set(i);
  }
  if (drop.none())
    return false;
  OpBuilder builder(op);
  auto live = ForOp::create(builder, op.getLoc(),
                            keepTypes(op.getResultTypes(), drop),
                            op.getLowerBound(), op.getUpperBound(),
                            op.getStep(), keep(op.getInits(), drop));
  live.getBody().takeBody(op.getBody());
  dropCarried(live.getBody(), drop, /*offset=*/1, /*yields=*/true);
  replaceLiveResults(op, live, drop);
  return true;
}

/// Removes the carried values of an adj.while that nothing reads (neither
/// the condition nor the rest of the body).
bool removeDeadWhileCarried(WhileOp op) {
  Block &cond = op.getCond().front();
  Block &body = op.getBody().front();
  llvm::BitVector drop(op.getNumResults());
  for (OpResult result : op.getResults()) {
    unsigned i = result.getResultNumber();
    if (result.use_empty() && cond.getArgument(i).use_empty() &&
        onlyFeedsItself(body.getArgument(i), i))
      drop.set(i);
  }
  if (drop.none())
    return false;
  OpBuilder builder(op);
  auto live = WhileOp::create(builder, op.getLoc(),
                              keepTypes(op.getResultTypes(), drop),
                              keep(op.getInits(), drop));
  live.getCond().takeBody(op.getCond());
  live.getBody().takeBody(op.getBody());
  dropCarried(live.getCond(), drop, 0, /*yields=*/false);
  dropCarried(live.getBody(), drop, 0, /*yields=*/true);
  replaceLiveResults(op, live, drop);
  return true;
}

/// Removes the unused parameters and results of a private function whose
/// every use is the callee of direct calls; erases it when it has no use.
bool trimFunction(FuncOp func, ModuleOp module) {
  if (!func.isPrivate() || func.getBody().empty())
    return false;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  if (!uses)
    return false;
  if (uses->empty()) {
    func.erase();
    return true;
  }
  SmallVector<FuncRefOp> refs;
  SmallVector<CallOp> calls;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto ref = dyn_cast<FuncRefOp>(use.getUser());
    if (!ref)
      return false;
    for (OpOperand &refUse : ref.getResult().getUses()) {
      auto call = dyn_cast<CallOp>(refUse.getOwner());
      if (!call || refUse.getOperandNumber() != 0)
        return false;
      calls.push_back(call);
    }
    refs.push_back(ref);
  }
  llvm::BitVector deadArgs(func.getNumArguments());
  for (BlockArgument arg : func.getBody().front().getArguments())
    if (arg.use_empty())
      deadArgs.set(arg.getArgNumber());
  llvm::BitVector deadResults(func.getNumResults(), true);
  for (CallOp call : calls)
    for (OpResult result : call.getResults())
      if (!result.use_empty())
        deadResults.reset(result.getResultNumber());
  if (deadArgs.none() && deadResults.none())
    return false;

  for (Block &block : func.getBody())
    if (auto ret = dyn_cast<ReturnOp>(block.getTerminator()))
      ret->setOperands(keep(ret.getOperands(), deadResults));
  if (failed(func.eraseArguments(deadArgs)) ||
      failed(func.eraseResults(deadResults)))
    return false;
  auto type = FnType::get(func.getContext(), func.getFunctionType());
  for (FuncRefOp ref : refs)
    ref.getResult().setType(type);
  for (CallOp call : calls) {
    OpBuilder builder(call);
    // Operand 0 is the callee; the arguments follow.
    auto trimmed = CallOp::create(builder, call.getLoc(), type.getResults(),
                                  call.getCallee(),
                                  keep(call.getArgs(), deadArgs));
    replaceLiveResults(call, trimmed, deadResults);
  }
  return true;
}

struct RemoveDeadValues
    : adjoint::adj::impl::RemoveDeadValuesBase<RemoveDeadValues> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool changed = true;
    while (changed) {
      changed = eraseDeadOps(module);
      SmallVector<Operation *> loops;
      module.walk([&](Operation *op) {
        if (isa<IfOp, ForOp, WhileOp>(op))
          loops.push_back(op);
      });
      // Rebuilding moves the regions, not the ops in them, so the
      // remaining pointers stay valid.
      for (Operation *op : loops) {
        if (auto ifOp = dyn_cast<IfOp>(op))
          changed |= removeDeadIfResults(ifOp);
        else if (auto forOp = dyn_cast<ForOp>(op))
          changed |= removeDeadForCarried(forOp);
        else
          changed |= removeDeadWhileCarried(cast<WhileOp>(op));
      }
      for (FuncOp func :
           llvm::make_early_inc_range(module.getOps<FuncOp>()))
        changed |= trimFunction(func, module);
    }
  }
};

} // namespace
