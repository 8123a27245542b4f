//===- ReverseLoops.cpp - A loop's backpropagator chain as a reverse loop -===//
//
// -adj-grad differentiates a loop by carrying the backpropagator of the
// iterations so far: each trip wraps the previous chain in a new closure
// that captures this trip's residuals. Compiled as it is, every trip boxes
// its residuals on the heap, and the backward pass recurses once per trip,
// each level holding full-size gradient tensors until the recursion
// unwinds. When the trip count is known, the chain is a stack in disguise:
// this pass writes each trip's residuals into row `i` of preallocated
// tensors and replaces the single call of the chain by a counted loop over
// the rows in reverse, whose carried values are the sensitivities flowing
// backwards and one accumulator per free-value sensitivity.
//
// Shapes recognized, after closure conversion (the names are those of the
// file's comments):
//
//   %chain = loop(..., %c0 = adj.closure @F0(e...)) {      // the identity
//     ...
//     %link = adj.closure @Fs(r..., %chain_arg, ...)      // r: residuals
//     yield ..., %link }
//   ... = adj.call %chain(d...)                            // the only use
//
//   adj.func @Fs(r..., %prev, d...) {
//     ... this trip's backward code, giving d' and x_k ...
//     %p = adj.call %prev(d'...)
//     adj.return %p#0..n-1, add(%p#n+k, x_k)...  }
//                              // or scatter_add(%p#n+k, ...)
//
// Anything else (a dynamic trip count, a residual that is not a statically
// shaped tensor, a chain that is used twice or escapes) is left alone: the
// closure chain is still correct, only slower.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/Transforms/CountedLoops.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_REVERSELOOPS
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {

/// A loop whose carried backpropagator chain can become a reverse loop.
struct Chain {
  Operation *loop;
  Block *body;
  unsigned offset; // body arguments before the carried ones (adj.for's iv)
  unsigned index;  // the chain's position among the carried values
  uint64_t trips;
  ClosureOp init; // the identity closure, of @F0
  FuncOp identity;
  ClosureOp link; // the closure that each trip yields, of @Fs
  FuncOp step;
  SmallVector<Value> captures; // link's, kept once link is erased
  unsigned chainCapture;       // the chain's position among them
  CallOp use;            // the single call of the loop's chain result
  CallOp inner;          // @Fs's call of the earlier trips
  // Captures computed inside the loop, each stacked once, in order.
  llvm::MapVector<Value, unsigned> stacked;
};

/// tensor<N x shape(type)>: the stack of one residual over N trips.
RankedTensorType stackType(Type type, uint64_t trips) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape{static_cast<int64_t>(trips)};
  llvm::append_range(shape, tensor.getShape());
  return RankedTensorType::get(shape, tensor.getElementType());
}

/// The function that `closure` calls, if it has a body.
FuncOp calleeOf(ClosureOp closure, SymbolTableCollection &symbols) {
  auto func = symbols.lookupNearestSymbolFrom<FuncOp>(
      closure, closure.getCalleeAttr());
  if (!func || func.getBody().empty() || !func.getBody().hasOneBlock())
    return {};
  return func;
}

/// Whether @F0's free-value results (those from `n` on) are independent of
/// its parameters `d...` (those after the captures): then the reverse loop
/// can start its accumulators from them.
bool freeResultsIgnoreArguments(FuncOp identity, unsigned numCaptures,
                                unsigned n) {
  Block &block = identity.getBody().front();
  llvm::DenseSet<Value> dependent;
  for (BlockArgument arg : block.getArguments().drop_front(numCaptures))
    dependent.insert(arg);
  for (Operation &op : block.without_terminator()) {
    bool uses = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        uses |= dependent.contains(v);
    });
    if (uses)
      dependent.insert(op.result_begin(), op.result_end());
  }
  return llvm::none_of(
      block.getTerminator()->getOperands().drop_front(n),
      [&](Value v) { return dependent.contains(v); });
}

/// Whether `op` adds one term to `earlier`: `earlier + x`, `x + earlier`
/// (adj.add or adj.grad_add, of one type: no broadcast) or
/// `scatter_add(earlier, i, u)`.
bool accumulates(Operation *op, Value earlier) {
  if (op->getNumResults() != 1 ||
      op->getResult(0).getType() != earlier.getType())
    return false;
  if (isa<AddOp, GradAddOp>(op))
    return op->getOperand(0) != op->getOperand(1) &&
           op->getOperand(0).getType() == op->getOperand(1).getType();
  if (auto scatter = dyn_cast<ScatterAddOp>(op))
    return scatter.getTarget() == earlier && scatter.getIndices() != earlier &&
           scatter.getUpdates() != earlier;
  return false;
}

/// Checks @Fs: one call of the chain capture whose first `n` results are
/// returned as they are and whose others are returned as they are or with
/// one term added (see accumulates), and used nowhere else. Sets
/// chain.inner.
bool matchStep(Chain &chain, unsigned n) {
  Block &block = chain.step.getBody().front();
  Value previous = block.getArgument(chain.chainCapture);
  if (!previous.hasOneUse())
    return false;
  auto inner = dyn_cast<CallOp>(*previous.getUsers().begin());
  if (!inner || inner.getCallee() != previous ||
      inner->getBlock() != &block)
    return false;
  Operation *ret = block.getTerminator();
  if (ret->getNumOperands() != inner.getNumResults())
    return false;
  for (unsigned j = 0; j < n; ++j)
    if (ret->getOperand(j) != inner.getResult(j) ||
        !inner.getResult(j).hasOneUse())
      return false;
  for (unsigned k = n; k < inner.getNumResults(); ++k) {
    Value earlier = inner.getResult(k), returned = ret->getOperand(k);
    if (!earlier.hasOneUse())
      return false;
    if (returned == earlier)
      continue;
    Operation *sum = returned.getDefiningOp();
    if (!sum || !returned.hasOneUse() ||
        *earlier.getUsers().begin() != sum || !accumulates(sum, earlier))
      return false;
  }
  chain.inner = inner;
  return true;
}

/// Recognizes a loop that carries its backpropagator chain (see the file
/// comment).
std::optional<Chain> matchChain(Operation *loop,
                                SymbolTableCollection &symbols,
                                uint64_t maxStackBytes) {
  Chain chain;
  chain.loop = loop;
  std::optional<uint64_t> trips = staticTripCount(loop);
  if (!trips || *trips > static_cast<uint64_t>(INT64_MAX))
    return std::nullopt;
  chain.trips = *trips;
  chain.offset = isa<ForOp>(loop) ? 1 : 0;
  Region &bodyRegion = loop->getRegion(isa<ForOp>(loop) ? 0 : 1);
  chain.body = &bodyRegion.front();

  // Exactly one carried value holds a function: the chain.
  std::optional<unsigned> index;
  for (auto [i, type] : llvm::enumerate(loop->getResultTypes())) {
    if (isa<TensorType>(type))
      continue;
    if (index || !isa<FnType>(type))
      return std::nullopt;
    index = i;
  }
  if (!index)
    return std::nullopt;
  chain.index = *index;
  Value result = loop->getResult(*index);
  auto fnType = cast<FnType>(result.getType());
  unsigned n = fnType.getInputs().size();
  if (fnType.getResults().size() < n ||
      fnType.getResults().take_front(n) != fnType.getInputs())
    return std::nullopt;

  // The chain result is called once, after the loop in its block.
  if (!result.hasOneUse())
    return std::nullopt;
  chain.use = dyn_cast<CallOp>(*result.getUsers().begin());
  if (!chain.use || chain.use.getCallee() != result ||
      chain.use->getBlock() != loop->getBlock())
    return std::nullopt;

  // It starts as a closure of @F0 and each trip yields a closure of @Fs
  // that captures the previous chain once, and nothing else sees it.
  Value initValue = loop->getOperand(
      isa<ForOp>(loop) ? 3 + *index : *index);
  chain.init = initValue.getDefiningOp<ClosureOp>();
  BlockArgument carried = chain.body->getArgument(chain.offset + *index);
  Value yielded = chain.body->getTerminator()->getOperand(*index);
  chain.link = yielded.getDefiningOp<ClosureOp>();
  if (!chain.init || !chain.link || !yielded.hasOneUse() ||
      chain.link->getBlock() != chain.body || !carried.hasOneUse() ||
      *carried.getUsers().begin() != chain.link.getOperation())
    return std::nullopt;
  if (auto whileOp = dyn_cast<WhileOp>(loop))
    if (!whileOp.getCond().front().getArgument(*index).use_empty())
      return std::nullopt;
  chain.identity = calleeOf(chain.init, symbols);
  chain.step = calleeOf(chain.link, symbols);
  if (!chain.identity || !chain.step)
    return std::nullopt;
  unsigned numInit = chain.init.getCaptures().size();
  if (chain.identity.getNumArguments() != numInit + n ||
      !freeResultsIgnoreArguments(chain.identity, numInit, n))
    return std::nullopt;

  // Captures computed in the body are stacked: statically shaped tensors
  // only, all stacks together at most maxStackBytes.
  uint64_t stackBytes = 0;
  chain.captures.assign(chain.link.getCaptures().begin(),
                        chain.link.getCaptures().end());
  for (auto [i, capture] : llvm::enumerate(chain.captures)) {
    if (capture == carried) {
      chain.chainCapture = i;
      continue;
    }
    if (capture.getParentBlock() != chain.body)
      continue;
    auto type = dyn_cast<RankedTensorType>(capture.getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    if (!chain.stacked.insert({capture, chain.stacked.size()}).second)
      continue;
    std::optional<int64_t> bytes = adjoint::checkedTensorBytes(
        stackType(type, chain.trips).getShape(),
        llvm::divideCeil(type.getElementTypeBitWidth(), 8));
    if (!bytes || (stackBytes += *bytes) > maxStackBytes)
      return std::nullopt;
  }
  if (!matchStep(chain, n))
    return std::nullopt;
  return chain;
}

RankedTensorType scalarI64(OpBuilder &b) {
  return RankedTensorType::get({}, b.getI64Type());
}

/// The results of @F0 called with `args`, its body copied at `b`.
SmallVector<Value> inlineIdentity(OpBuilder &b, Chain &chain,
                                  ValueRange args) {
  Block &block = chain.identity.getBody().front();
  IRMapping map;
  unsigned numCaptures = chain.init.getCaptures().size();
  map.map(block.getArguments().take_front(numCaptures),
          chain.init.getCaptures());
  map.map(block.getArguments().drop_front(numCaptures), args);
  for (Operation &op : block.without_terminator())
    b.clone(op, map);
  SmallVector<Value> results;
  for (Value v : block.getTerminator()->getOperands())
    results.push_back(map.lookupOrDefault(v));
  return results;
}

/// Rebuilds the loop without the chain, with a row counter and one stack per
/// residual, each trip writing its residuals at its row. Returns the new
/// loop; the old one is left without a body, its results still in use.
Operation *stackResiduals(Chain &chain) {
  Operation *loop = chain.loop;
  Location loc = loop->getLoc();
  OpBuilder b(loop);
  SmallVector<Value> inits, stackInits;
  SmallVector<Type> types;
  for (auto [i, value] : llvm::enumerate(
           isa<ForOp>(loop) ? loop->getOperands().drop_front(3)
                            : loop->getOperands())) {
    if (i == chain.index)
      continue;
    inits.push_back(value);
    types.push_back(value.getType());
  }
  inits.push_back(constantI64(b, loc, 0));
  types.push_back(scalarI64(b));
  for (auto &entry : chain.stacked) {
    RankedTensorType type = stackType(entry.first.getType(), chain.trips);
    inits.push_back(FillOp::create(b, loc, type, b.getF64FloatAttr(0.0)));
    types.push_back(type);
  }

  Operation *rebuilt;
  if (auto forOp = dyn_cast<ForOp>(loop))
    rebuilt = ForOp::create(b, loc, types, forOp.getLowerBound(),
                            forOp.getUpperBound(), forOp.getStep(), inits);
  else
    rebuilt = WhileOp::create(b, loc, types, inits);
  for (unsigned r = 0; r < loop->getNumRegions(); ++r)
    rebuilt->getRegion(r).takeBody(loop->getRegion(r));

  // New block arguments: the row, then the stacks, after the carried ones.
  ArrayRef<Type> added = ArrayRef<Type>(types).drop_front(
      loop->getNumResults() - 1);
  for (Region &region : rebuilt->getRegions())
    for (Type type : added)
      region.front().addArgument(type, loc);

  Block *body = chain.body;
  Operation *yield = body->getTerminator();
  OpBuilder bb(yield);
  unsigned firstAdded = body->getNumArguments() - added.size();
  Value row = body->getArgument(firstAdded);
  SmallVector<Value> next;
  for (auto [i, value] : llvm::enumerate(yield->getOperands()))
    if (i != chain.index)
      next.push_back(value);
  next.push_back(AddOp::create(bb, loc, scalarI64(bb), row,
                               constantI64(bb, loc, 1)));
  for (auto &entry : chain.stacked) {
    Value stack = body->getArgument(firstAdded + 1 + entry.second);
    next.push_back(ScatterOp::create(bb, loc, stack.getType(),
                                     ScatterMode::set, stack, row,
                                     entry.first, /*axis=*/0));
  }
  yield->setOperands(next);
  chain.link.erase();
  body->eraseArgument(chain.offset + chain.index);
  if (isa<WhileOp>(rebuilt))
    rebuilt->getRegion(0).front().eraseArgument(chain.index);

  for (unsigned i = 0, j = 0; i < loop->getNumResults(); ++i)
    if (i != chain.index)
      loop->getResult(i).replaceAllUsesWith(rebuilt->getResult(j++));
  return rebuilt;
}

/// Replaces the chain's call by the reverse loop over the stacks of
/// `forward` (the rebuilt loop).
void emitReverseLoop(Chain &chain, Operation *forward) {
  CallOp use = chain.use;
  Location loc = use.getLoc();
  OpBuilder b(use);
  unsigned n = use.getArgs().size();
  SmallVector<Value> inits(use.getArgs());
  SmallVector<Value> start = inlineIdentity(b, chain, use.getArgs());
  llvm::append_range(inits, ArrayRef<Value>(start).drop_front(n));
  SmallVector<Type> types;
  for (Value v : inits)
    types.push_back(v.getType());
  auto trips = static_cast<int64_t>(chain.trips);
  Value last = constantI64(b, loc, trips - 1);
  auto reverse = ForOp::create(b, loc, types, constantI64(b, loc, 0),
                               constantI64(b, loc, trips),
                               constantI64(b, loc, 1), inits);
  Block *block = new Block();
  reverse.getBody().push_back(block);
  block->addArgument(scalarI64(b), loc);
  for (Type type : types)
    block->addArgument(type, loc);

  OpBuilder rb = OpBuilder::atBlockEnd(block);
  Value row = SubOp::create(rb, loc, scalarI64(rb), last,
                            block->getArgument(0));
  Block &step = chain.step.getBody().front();
  unsigned stacksStart = forward->getNumResults() - chain.stacked.size();
  IRMapping map;
  for (auto [i, capture] : llvm::enumerate(chain.captures)) {
    if (i == chain.chainCapture)
      continue;
    auto it = chain.stacked.find(capture);
    Value value = capture;
    if (it != chain.stacked.end())
      value = GatherOp::create(rb, loc, capture.getType(),
                               forward->getResult(stacksStart + it->second),
                               row, /*axis=*/0);
    map.map(step.getArgument(i), value);
  }
  unsigned numCaptures = chain.captures.size();
  map.map(step.getArguments().drop_front(numCaptures),
          block->getArguments().slice(1, n));
  // The earlier trips' free-value sensitivities are the accumulators: the
  // ops that add this trip's terms to them are copied as they are.
  map.map(chain.inner.getResults().drop_front(n),
          block->getArguments().drop_front(1 + n));
  for (Operation &op : step.without_terminator())
    if (&op != chain.inner.getOperation())
      rb.clone(op, map);

  SmallVector<Value> next;
  for (Value v : chain.inner.getArgs())
    next.push_back(map.lookupOrDefault(v));
  for (Value v : step.getTerminator()->getOperands().drop_front(n))
    next.push_back(map.lookupOrDefault(v));
  YieldOp::create(rb, loc, next);

  b.setInsertionPointAfter(reverse);
  SmallVector<Value> end = inlineIdentity(
      b, chain, reverse.getResults().take_front(n));
  for (unsigned i = 0; i < use.getNumResults(); ++i)
    use.getResult(i).replaceAllUsesWith(i < n ? end[i]
                                              : reverse.getResult(i));
  use.erase();
}

struct ReverseLoops : adjoint::adj::impl::ReverseLoopsBase<ReverseLoops> {
  using ReverseLoopsBase::ReverseLoopsBase;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    // Inner loops first: a nested loop's reverse loop becomes part of the
    // outer loop's step function.
    SmallVector<Operation *> loops;
    getOperation().walk([&](Operation *op) {
      if (isa<ForOp, WhileOp>(op))
        loops.push_back(op);
    });
    for (Operation *loop : loops) {
      std::optional<Chain> chain = matchChain(loop, symbols, maxStackBytes);
      if (!chain)
        continue;
      Operation *forward = stackResiduals(*chain);
      emitReverseLoop(*chain, forward);
      loop->erase();
    }
  }
};

} // namespace
