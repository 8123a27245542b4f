//===- Unroll.cpp - Unroll counted loops that carry functions -------------===//
//
// The grad transform differentiates a loop by carrying the backpropagator
// of the iterations so far, a chain of closures. Unrolled, each link
// becomes a known closure that the inliner beta-reduces, so a loop with a
// constant trip count (an LSTM over a fixed number of steps) ends up as the
// straight-line backward pass a person would write. Loops that carry only
// tensors stay loops.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/Transforms/CountedLoops.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/IR/IRMapping.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_UNROLL
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {

/// Whether `type` is or holds a function value.
bool holdsFunction(Type type) {
  if (isa<FnType>(type))
    return true;
  if (auto tuple = dyn_cast<adjoint::adj::TupleType>(type))
    return llvm::any_of(tuple.getTypes(), holdsFunction);
  return false;
}

/// Whether `loop` carries tensors and one function, its backpropagator
/// chain, and is neither nested in a loop nor contains one that carries a
/// function: the shape -adj-reverse-loops turns into a reverse loop (a
/// nested loop's chain is called in the outer loop's backpropagator, out of
/// its reach).
bool carriesOnlyChain(ForOp loop) {
  if (loop->getParentOfType<ForOp>() || loop->getParentOfType<WhileOp>())
    return false;
  bool nested = false;
  loop.getBody().walk([&](Operation *op) {
    if (isa<ForOp, WhileOp>(op) &&
        llvm::any_of(op->getResultTypes(), holdsFunction))
      nested = true;
  });
  if (nested)
    return false;
  unsigned functions = 0;
  for (Type type : loop.getResultTypes()) {
    if (isa<FnType>(type))
      ++functions;
    else if (!isa<TensorType>(type))
      return false;
  }
  return functions == 1;
}

struct Unroll : adjoint::adj::impl::UnrollBase<Unroll> {
  using UnrollBase::UnrollBase;

  void runOnOperation() override {
    // Unrolling an outer loop copies its inner loops: repeat until none is
    // left to unroll (bounded by the nesting depth in practice).
    for (unsigned round = 0; round < 16; ++round) {
      SmallVector<ForOp> loops;
      getOperation().walk([&](ForOp loop) {
        if (llvm::any_of(loop.getResultTypes(), holdsFunction))
          loops.push_back(loop);
      });
      bool changed = false;
      for (ForOp loop : loops)
        changed |= unroll(loop);
      if (!changed)
        return;
    }
  }

  bool unroll(ForOp loop) {
    auto lb = constantInt(loop.getLowerBound());
    auto ub = constantInt(loop.getUpperBound());
    auto step = constantInt(loop.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return false;
    uint64_t trips = *adjoint::checkedTripCount(*lb, *ub, *step);
    uint64_t ustep = static_cast<uint64_t>(*step);
    if (trips > maxTrips || (trips > maxChainTrips && carriesOnlyChain(loop)))
      return false;
    OpBuilder b(loop);
    Block &body = loop.getBody().front();
    SmallVector<Value> carried(loop.getInits());
    for (uint64_t i = 0; i < trips; ++i) {
      IRMapping map;
      // lb + i * step < ub fits in int64_t, but i * step alone may not:
      // compute it modulo 2^64, where the sum comes out exact.
      auto value = static_cast<int64_t>(static_cast<uint64_t>(*lb) + i * ustep);
      map.map(body.getArgument(0), constantI64(b, loop.getLoc(), value));
      map.map(body.getArguments().drop_front(), carried);
      for (Operation &op : body.without_terminator())
        b.clone(op, map);
      carried.clear();
      for (Value v : body.getTerminator()->getOperands())
        carried.push_back(map.lookupOrDefault(v));
    }
    loop.replaceAllUsesWith(carried);
    loop.erase();
    return true;
  }
};

} // namespace
