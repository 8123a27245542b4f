//===- HoistInvariantLoads.cpp - loads every trip repeats, before the loop ===//
//
// After convert-linalg-to-parallel-loops a gather is a nest whose innermost
// body loads the index of the row it reads. LLVM's LICM cannot move that
// load out of the inner loop: the loop stores into another buffer, and
// without type-based alias information LLVM must assume the store may
// change the index. The reload then also keeps the loop vectorizer away
// (the address of every element depends on a load it cannot prove
// invariant). At the MLIR level the buffers' origins are still visible: two
// allocations never alias, and the arguments of a public function are the
// caller's memory, which compiled code never writes (adj-readonly-arguments).
// That is all this pass needs to know.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/ViewRoot.h"
#include "adjoint/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace adjoint::cpu {
#define GEN_PASS_DEF_HOISTINVARIANTLOADS
#include "adjoint/Codegen/CPU/Passes.h.inc"
} // namespace adjoint::cpu

using namespace mlir;

namespace {

bool isAllocation(Value base) {
  return base.getDefiningOp<memref::AllocOp>() ||
         base.getDefiningOp<memref::AllocaOp>();
}

/// An argument of a public function: the caller's memory, never written.
bool isCallerMemory(Value base) {
  auto arg = dyn_cast<BlockArgument>(base);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && func.isPublic() && arg.getOwner() == &func.front();
}

/// An argument of the function's entry block (memory from before the call).
bool isFunctionArgument(Value base) {
  auto arg = dyn_cast<BlockArgument>(base);
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp());
}

/// Whether a write to `written` may change what a load of `loaded` reads.
bool mayAlias(Value loaded, Value written) {
  Value a = adjoint::viewRoot(loaded), b = adjoint::viewRoot(written);
  if (isCallerMemory(a))
    return false;
  if (a == b)
    return true;
  // A fresh allocation is distinct from every other allocation and from
  // all memory that existed before the function was called.
  if (isAllocation(a))
    return !(isAllocation(b) || isFunctionArgument(b));
  if (isAllocation(b))
    return !isFunctionArgument(a);
  return true;
}

/// The memrefs that ops inside `loop` write (or free); false when one of
/// them has effects it does not attribute to a value (a call, say).
bool collectWrites(Operation *loop, SmallVectorImpl<Value> &written) {
  WalkResult result = loop->walk([&](Operation *op) {
    if (op == loop || op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance(); // the nested ops are visited themselves
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &e : instances) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect()))
        continue;
      Value value = e.getValue();
      if (!value)
        return WalkResult::interrupt();
      // An allocation made inside the loop is fresh memory each trip.
      if (Operation *def = value.getDefiningOp();
          def && isAllocation(value) && loop->isProperAncestor(def))
        continue;
      written.push_back(value);
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Whether every trip range of `loop` is non-empty with constant bounds, so
/// that a load before it happens only if the loop would have made it.
bool runsAtLeastOnce(Operation *loop) {
  auto nonEmpty = [](ValueRange lbs, ValueRange ubs) {
    for (auto [lb, ub] : llvm::zip_equal(lbs, ubs)) {
      std::optional<int64_t> l = getConstantIntValue(lb);
      std::optional<int64_t> u = getConstantIntValue(ub);
      if (!l || !u || *l >= *u)
        return false;
    }
    return true;
  };
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return nonEmpty(forOp.getLowerBound(), forOp.getUpperBound());
  auto parallel = cast<scf::ParallelOp>(loop);
  return nonEmpty(parallel.getLowerBound(), parallel.getUpperBound());
}

/// Moves the loads directly in `loop`'s body whose memref and indices come
/// from outside it and that nothing in it may overwrite to before it.
void hoistFrom(Operation *loop) {
  if (!runsAtLeastOnce(loop))
    return;
  SmallVector<Value> written;
  if (!collectWrites(loop, written))
    return;
  Region &body = loop->getRegion(0);
  SmallVector<memref::LoadOp> loads;
  for (Operation &op : body.front())
    if (auto load = dyn_cast<memref::LoadOp>(op))
      loads.push_back(load);
  for (memref::LoadOp load : loads) {
    bool invariant = llvm::all_of(load->getOperands(), [&](Value v) {
      return !body.isAncestor(v.getParentRegion());
    });
    if (!invariant)
      continue;
    if (llvm::any_of(written, [&](Value w) {
          return mayAlias(load.getMemRef(), w);
        }))
      continue;
    load->moveBefore(loop);
  }
}

struct HoistInvariantLoads
    : adjoint::cpu::impl::HoistInvariantLoadsBase<HoistInvariantLoads> {
  void runOnOperation() override {
    // Post-order: inner loops first, so that a load hoisted out of one can
    // leave the enclosing loop too when its indices allow.
    getOperation().walk([](Operation *op) {
      if (isa<scf::ForOp, scf::ParallelOp>(op))
        hoistFrom(op);
    });
  }
};

} // namespace
