//===- Inline.cpp - Inline known calls, beta-reduce closures --------------===//
//
// A call whose callee is known is replaced by a copy of the callee's body:
//
//   call(func_ref @f, x)           => body(@f)[params := x]
//   call(lambda(a) { b }, x)       => b[a := x]
//   call(if c {.. lambda1 ..} else {.. lambda2 ..}, x)
//                                  => if c { lambda1 body } else { lambda2 body }
//
// The last form sinks a call of a closure chosen by a conditional into the
// branches (Myia's incorporate_call_through_switch). The closures' free
// variables that are defined inside the branches become extra results of
// the conditional, so that the copies of the bodies can read them; the
// branch that did not run yields zeros for them, which the copy of the
// other branch never reads.
//
// Copying a body is bounded by a size budget, and a function is never
// inlined into a function of its own call-graph cycle, so recursion stops
// the inliner rather than making it run forever. Iterates to a fixed point
// (bounded), since each inlined body can expose new known calls.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_INLINE
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {

/// Number of ops in `op`'s regions: the cost of copying its body.
size_t bodySize(Operation *op) {
  size_t n = 0;
  op->walk([&](Operation *) { ++n; });
  return n - 1;
}

/// The functions that lie on a cycle of the reference graph (a function
/// refers to another through adj.func_ref anywhere in its body).
DenseSet<Operation *> recursiveFunctions(ModuleOp module,
                                         SymbolTable &symbols) {
  DenseMap<Operation *, SetVector<Operation *>> refs;
  SmallVector<Operation *> funcs;
  for (auto func : module.getOps<FuncOp>()) {
    funcs.push_back(func);
    SetVector<Operation *> &out = refs[func];
    func.walk([&](FuncRefOp ref) {
      if (auto target = symbols.lookup<FuncOp>(ref.getCallee()))
        out.insert(target);
    });
  }
  // Tarjan's algorithm over the reference graph.
  DenseSet<Operation *> recursive;
  DenseMap<Operation *, unsigned> index, low;
  SmallVector<Operation *> stack;
  DenseSet<Operation *> onStack;
  unsigned next = 0;
  std::function<void(Operation *)> visit = [&](Operation *f) {
    index[f] = low[f] = next++;
    stack.push_back(f);
    onStack.insert(f);
    for (Operation *g : refs[f]) {
      if (!index.count(g)) {
        visit(g);
        low[f] = std::min(low[f], low[g]);
      } else if (onStack.count(g)) {
        low[f] = std::min(low[f], index[g]);
      }
    }
    if (low[f] != index[f])
      return;
    SmallVector<Operation *> scc;
    Operation *g;
    do {
      g = stack.pop_back_val();
      onStack.erase(g);
      scc.push_back(g);
    } while (g != f);
    if (scc.size() > 1 || refs[f].contains(f))
      recursive.insert(scc.begin(), scc.end());
  };
  for (Operation *f : funcs)
    if (!index.count(f))
      visit(f);
  return recursive;
}

/// Copies the single block of `body` (a function or closure) before `call`,
/// with its arguments bound to the call's arguments, and replaces the call
/// by the returned values.
void inlineBody(CallOp call, Region &body, IRMapping &map) {
  Block &block = body.front();
  map.map(block.getArguments(), call.getArgs());
  OpBuilder b(call);
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(map.lookupOrDefault(v));
  call.replaceAllUsesWith(results);
  call.erase();
}

/// The zero value of `type`, used for the free values of the branch that
/// did not run; null when the type has no static zero (functions, dynamic
/// shapes).
Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape())
      return {};
    return FillOp::create(b, loc, tensor, b.getF64FloatAttr(0.0));
  }
  if (isa<EnvType>(type))
    return EnvNewOp::create(b, loc);
  if (auto tuple = dyn_cast<adjoint::adj::TupleType>(type)) {
    SmallVector<Value> elements;
    for (Type t : tuple.getTypes()) {
      Value z = zeroOf(b, loc, t);
      if (!z)
        return {};
      elements.push_back(z);
    }
    return TupleOp::create(b, loc, elements);
  }
  return {};
}

/// The callee of a call through a conditional's result: per branch, the
/// yielded function value, and the free values of the yielded closures that
/// are defined inside the branches.
struct BranchCallees {
  IfOp ifOp;
  unsigned result;
  Value callee[2];
  SetVector<Value> exported;
};

/// Recognizes `call %if#k(...)` where each branch yields a closure made in
/// that branch or a value from outside the conditional.
std::optional<BranchCallees> matchBranchCallees(CallOp call) {
  auto result = dyn_cast<OpResult>(call.getCallee());
  if (!result)
    return std::nullopt;
  auto ifOp = dyn_cast<IfOp>(result.getOwner());
  if (!ifOp)
    return std::nullopt;
  BranchCallees m{ifOp, result.getResultNumber(), {}, {}};
  for (auto [i, region] : llvm::enumerate(ifOp->getRegions())) {
    Value yielded =
        region.front().getTerminator()->getOperand(m.result);
    m.callee[i] = yielded;
    Operation *def = yielded.getDefiningOp();
    bool inside = region.isAncestor(yielded.getParentRegion());
    if (!inside)
      continue;
    auto lambda = dyn_cast_or_null<LambdaOp>(def);
    if (!lambda && !isa_and_nonnull<FuncRefOp>(def))
      return std::nullopt;
    if (!lambda)
      continue;
    // Free values of the closure defined inside the branch must leave the
    // conditional as extra results, and need a zero in the other branch.
    lambda.walk([&](Operation *op) {
      for (Value v : op->getOperands())
        if (!lambda.getBody().isAncestor(v.getParentRegion()) &&
            region.isAncestor(v.getParentRegion()))
          m.exported.insert(v);
    });
  }
  return m;
}

/// Rewrites a matched call into a conditional at the call site that runs
/// the chosen closure's body. Returns false when a free value has no zero.
bool sinkCallIntoBranches(CallOp call, BranchCallees &m) {
  IfOp ifOp = m.ifOp;
  Location loc = ifOp.getLoc();
  // 1. The conditional exports the free values its closures read.
  SmallVector<Type> types(ifOp.getResultTypes());
  for (Value v : m.exported)
    types.push_back(v.getType());
  OpBuilder b(ifOp);
  SmallVector<SmallVector<Value>> extra(2);
  for (auto [i, region] : llvm::enumerate(ifOp->getRegions())) {
    Operation *yield = region.front().getTerminator();
    OpBuilder yb(yield);
    for (Value v : m.exported) {
      Value out = region.isAncestor(v.getParentRegion())
                      ? v
                      : zeroOf(yb, loc, v.getType());
      if (!out)
        return false;
      extra[i].push_back(out);
    }
  }
  auto wider = IfOp::create(b, loc, types, ifOp.getCondition());
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(ifOp->getRegions(), wider->getRegions()))) {
    auto &[from, to] = pair;
    to.takeBody(from);
    Operation *yield = to.front().getTerminator();
    SmallVector<Value> operands(yield->getOperands());
    llvm::append_range(operands, extra[i]);
    yield->setOperands(operands);
  }
  size_t n = ifOp.getNumResults();
  ifOp.replaceAllUsesWith(wider.getResults().take_front(n));
  ifOp.erase();

  // 2. At the call site, a conditional on the same condition runs the body
  // of the closure the branch chose.
  OpBuilder cb(call);
  auto sunk = IfOp::create(cb, call.getLoc(), call.getResultTypes(),
                           wider.getCondition());
  for (auto [i, region] : llvm::enumerate(sunk->getRegions())) {
    Block *block = new Block();
    region.push_back(block);
    OpBuilder rb = OpBuilder::atBlockEnd(block);
    IRMapping map;
    for (auto [k, v] : llvm::enumerate(m.exported))
      map.map(v, wider.getResult(n + k));
    Value callee = m.callee[i];
    SmallVector<Value> results;
    if (auto lambda = callee.getDefiningOp<LambdaOp>();
        lambda && wider->getRegion(i).isAncestor(lambda->getParentRegion())) {
      Block &body = lambda.getBody().front();
      map.map(body.getArguments(), call.getArgs());
      for (Operation &op : body.without_terminator())
        rb.clone(op, map);
      for (Value v : body.getTerminator()->getOperands())
        results.push_back(map.lookupOrDefault(v));
    } else {
      if (auto ref = callee.getDefiningOp<FuncRefOp>();
          ref && wider->getRegion(i).isAncestor(ref->getParentRegion()))
        callee = rb.clone(*ref)->getResult(0);
      auto inner = CallOp::create(rb, call.getLoc(), call.getResultTypes(),
                                  callee, call.getArgs());
      llvm::append_range(results, inner.getResults());
    }
    YieldOp::create(rb, call.getLoc(), results);
  }
  call.replaceAllUsesWith(sunk.getResults());
  call.erase();
  return true;
}

struct Inline : adjoint::adj::impl::InlineBase<Inline> {
  using InlineBase::InlineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    constexpr unsigned kMaxRounds = 64;
    for (unsigned round = 0; round < kMaxRounds; ++round) {
      DenseSet<Operation *> recursive = recursiveFunctions(module, symbols);
      SmallVector<CallOp> calls;
      module.walk([&](CallOp call) { calls.push_back(call); });
      bool changed = false;
      for (CallOp call : calls)
        changed |= tryInline(call, symbols, recursive);
      if (!changed)
        return;
    }
  }

  bool tryInline(CallOp call, SymbolTable &symbols,
                 const DenseSet<Operation *> &recursive) {
    Operation *def = call.getCallee().getDefiningOp();
    if (auto ref = dyn_cast_or_null<FuncRefOp>(def)) {
      auto callee = symbols.lookup<FuncOp>(ref.getCallee());
      if (!callee || callee.getBody().empty() ||
          recursive.contains(callee) || bodySize(callee) > maxSize)
        return false;
      IRMapping map;
      inlineBody(call, callee.getBody(), map);
      return true;
    }
    if (auto lambda = dyn_cast_or_null<LambdaOp>(def)) {
      // A closure that (indirectly) contains the call would be copied into
      // itself forever.
      if (lambda->isAncestor(call) || bodySize(lambda) > maxSize)
        return false;
      IRMapping map;
      inlineBody(call, lambda.getBody(), map);
      return true;
    }
    if (auto m = matchBranchCallees(call))
      return sinkCallIntoBranches(call, *m);
    return false;
  }
};

} // namespace
