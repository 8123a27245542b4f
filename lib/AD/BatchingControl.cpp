//===- BatchingControl.cpp - The vmap transform of adj.if and loops -------===//
//
// A conditional on a shared predicate stays a conditional whose results are
// batched where either branch's is. A batched predicate picks per example:
// both branches are computed and combined with adj.select (so a recursion
// whose base case depends on the batch does not end: only trip counts that
// do not depend on the batch are supported, as in JAX). A loop's carried
// values start batched where their initial values are and become batched
// where the body makes them so, until the batched-ness is a fixpoint. A
// while whose condition depends on the batch runs while any example's
// holds, and an example whose condition fails keeps its values (JAX's
// batching rule of while_loop).
//
//===----------------------------------------------------------------------===//

#include "Batching.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;
using batching::Batched;

FailureOr<Batched> BodyBatcher::selectBatched(OpBuilder &b, Location loc,
                                              Value cond, Batched a, Batched c,
                                              Type type) {
  if (auto tuple = dyn_cast<adj::TupleType>(type)) {
    SmallVector<Value> elements;
    for (auto [i, t] : llvm::enumerate(tuple.getTypes())) {
      auto element = [&](Batched v) {
        return Batched{adj::GetOp::create(b, loc, v.value,
                                          b.getI64IntegerAttr(i)),
                       v.batched};
      };
      auto r = selectBatched(b, loc, cond, element(a), element(c), t);
      if (failed(r))
        return failure();
      elements.push_back(r->value);
    }
    return Batched{adj::TupleOp::create(b, loc, elements), true};
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError(loc) << "vmap: a conditional whose predicate depends "
                             "on the batch cannot choose a value of type "
                          << type << " per example";
  int64_t rank = tensor.getRank();
  rules::Emitter e(b, loc);
  SmallVector<int64_t> shape{size_};
  shape.append(rank, 1);
  rules::Val pick = e.reshape(e.val(cond), shape);
  rules::Val lhs = batching::alignRank(e, a, rank);
  rules::Val rhs = batching::alignRank(e, c, rank);
  rules::Val r = e.select(pick, lhs, rhs);
  // Both branches shared: the select still broadcasts to the batch.
  return Batched{e.broadcastTo(r, batching::batchedTensor(tensor, size_)),
                 true};
}

LogicalResult BodyBatcher::transformIf(OpBuilder &b, adj::IfOp op) {
  Location loc = op.getLoc();
  FailureOr<Batched> cond = get(b, op.getCondition());
  if (failed(cond))
    return failure();
  Block &thenPrimal = op.getThenRegion().front();
  Block &elsePrimal = op.getElseRegion().front();
  if (cond->batched) {
    if (failed(transformOps(b, thenPrimal)))
      return failure();
    auto thenValues = terminatorValues(b, thenPrimal);
    if (failed(thenValues) || failed(transformOps(b, elsePrimal)))
      return failure();
    auto elseValues = terminatorValues(b, elsePrimal);
    if (failed(elseValues))
      return failure();
    for (auto [i, r] : llvm::enumerate(op.getResults())) {
      auto v = selectBatched(b, loc, cond->value, (*thenValues)[i],
                             (*elseValues)[i], r.getType());
      if (failed(v))
        return failure();
      set(r, *v);
    }
    return success();
  }
  // A shared predicate: build both branches first, then the if whose
  // result types they decide.
  Block *blocks[2] = {new Block(), new Block()};
  Block *primals[2] = {&thenPrimal, &elsePrimal};
  SmallVector<Batched> values[2];
  auto cleanup = [&]() {
    for (Block *block : blocks) {
      block->dropAllDefinedValueUses();
      delete block;
    }
  };
  // The blocks have no region yet: the builder takes the context from `b`.
  auto builderAt = [&](Block *block) {
    OpBuilder rb(b.getContext());
    rb.setInsertionPointToEnd(block);
    return rb;
  };
  for (int i = 0; i < 2; ++i) {
    OpBuilder rb = builderAt(blocks[i]);
    if (failed(transformOps(rb, *primals[i]))) {
      cleanup();
      return failure();
    }
    auto v = terminatorValues(rb, *primals[i]);
    if (failed(v)) {
      cleanup();
      return failure();
    }
    values[i] = *v;
  }
  SmallVector<Type> types;
  SmallVector<bool> flags;
  for (size_t r = 0; r < op.getNumResults(); ++r) {
    bool batched = values[0][r].batched || values[1][r].batched;
    flags.push_back(batched);
    types.push_back(batched ? Batching::batchedType(
                                  op.getResult(r).getType(), size_)
                            : values[0][r].value.getType());
  }
  for (int i = 0; i < 2; ++i) {
    OpBuilder rb = builderAt(blocks[i]);
    SmallVector<Value> yielded;
    for (size_t r = 0; r < flags.size(); ++r) {
      FailureOr<Value> v =
          flags[r] ? toBatched(rb, loc, values[i][r])
                   : FailureOr<Value>(values[i][r].value);
      if (failed(v)) {
        cleanup();
        return failure();
      }
      yielded.push_back(*v);
    }
    adj::YieldOp::create(rb, loc, yielded);
  }
  auto ifOp = adj::IfOp::create(b, loc, types, cond->value);
  ifOp.getThenRegion().push_back(blocks[0]);
  ifOp.getElseRegion().push_back(blocks[1]);
  for (auto [r, n, f] : llvm::zip(op.getResults(), ifOp.getResults(), flags))
    set(r, Batched{n, f});
  return success();
}

LogicalResult BodyBatcher::transformLoop(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto forOp = dyn_cast<adj::ForOp>(op);
  auto whileOp = dyn_cast<adj::WhileOp>(op);
  SmallVector<Value> bounds;
  if (forOp) {
    for (Value v :
         {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()}) {
      FailureOr<Batched> r = get(b, v);
      if (failed(r))
        return failure();
      if (r->batched)
        return forOp.emitOpError("cannot be batched: its trip count depends "
                                 "on the batch");
      bounds.push_back(r->value);
    }
  }
  ValueRange primalInits = forOp ? forOp.getInits() : whileOp.getInits();
  SmallVector<Batched> inits;
  SmallVector<bool> flags;
  for (Value v : primalInits) {
    FailureOr<Batched> r = get(b, v);
    if (failed(r))
      return failure();
    inits.push_back(*r);
    flags.push_back(r->batched);
  }
  Block &body = forOp ? forOp.getBody().front() : whileOp.getBody().front();
  size_t leading = forOp ? 1 : 0;
  // A while whose condition depends on the batch runs until every example
  // is done, each example's values frozen once its own condition fails
  // (JAX's rule): every carried value is then batched.
  bool perExample = false;
  // Each round builds the loop for the current guess of which carried
  // values are batched; a body that batches one more restarts with it.
  for (size_t round = 0; round <= inits.size() + 1; ++round) {
    SmallVector<Value> initValues;
    SmallVector<Type> types;
    for (auto [v, f] : llvm::zip(inits, flags)) {
      FailureOr<Value> r = f ? toBatched(b, loc, v) : FailureOr<Value>(v.value);
      if (failed(r))
        return failure();
      initValues.push_back(*r);
      types.push_back(r->getType());
    }
    Operation *loop;
    if (forOp)
      loop = adj::ForOp::create(b, loc, types, bounds[0], bounds[1],
                                bounds[2], initValues);
    else
      loop = adj::WhileOp::create(b, loc, types, initValues);
    /// Maps the arguments of the per-example `primal` block to those of
    /// `block`.
    auto mapArguments = [&](Block *block, Block &primal) {
      for (size_t i = 0; i < leading; ++i)
        set(primal.getArgument(i), Batched{block->getArgument(i), false});
      for (size_t i = 0; i < types.size(); ++i)
        set(primal.getArgument(leading + i),
            Batched{block->getArgument(leading + i), flags[i]});
    };
    /// The batched ops of `primal` at the end of `block`, and its results.
    auto batchBlock = [&](Block *block,
                          Block &primal) -> FailureOr<SmallVector<Batched>> {
      mapArguments(block, primal);
      OpBuilder rb = OpBuilder::atBlockEnd(block);
      if (failed(transformOps(rb, primal)))
        return failure();
      return terminatorValues(rb, primal);
    };
    /// A new entry block of `region` with the loop's arguments.
    auto newBlock = [&](Region &region, Block &primal) {
      Block *block = new Block();
      region.push_back(block);
      for (size_t i = 0; i < leading; ++i)
        block->addArgument(primal.getArgument(i).getType(), loc);
      for (Type t : types)
        block->addArgument(t, loc);
      return block;
    };
    Region &bodyRegion = forOp ? cast<adj::ForOp>(loop).getBody()
                               : cast<adj::WhileOp>(loop).getBody();
    Block *bodyBlock = newBlock(bodyRegion, body);
    // The per-example condition, computed again at the top of the body.
    std::optional<Batched> running;
    if (whileOp) {
      Block &primalCond = whileOp.getCond().front();
      Block *condBlock =
          newBlock(cast<adj::WhileOp>(loop).getCond(), primalCond);
      auto cond = batchBlock(condBlock, primalCond);
      if (failed(cond)) {
        loop->erase();
        return failure();
      }
      if ((*cond)[0].batched && !perExample) {
        perExample = true;
        flags.assign(flags.size(), true);
        loop->erase();
        continue;
      }
      Value any = (*cond)[0].value;
      OpBuilder cb = OpBuilder::atBlockEnd(condBlock);
      if (perExample) {
        rules::Emitter e(cb, loc);
        // Whether any example still runs: the count of those that do.
        rules::Val live = e.cast(e.val(any), cb.getF32Type());
        any = e.cmp(adj::CmpPredicate::gt, e.reduceSum(live, {0}),
                    e.scalar(0, cb.getF32Type()));
        auto again = batchBlock(bodyBlock, primalCond);
        if (failed(again)) {
          loop->erase();
          return failure();
        }
        running = (*again)[0];
      }
      adj::YieldOp::create(cb, loc, any);
    }
    auto next = batchBlock(bodyBlock, body);
    if (failed(next)) {
      loop->erase();
      return failure();
    }
    bool grew = false;
    for (auto [f, n] : llvm::zip(flags, *next))
      if (n.batched && !f) {
        f = true;
        grew = true;
      }
    if (grew) {
      loop->erase();
      continue;
    }
    OpBuilder yb = OpBuilder::atBlockEnd(bodyBlock);
    SmallVector<Value> yielded;
    for (auto [i, f, n] : llvm::enumerate(flags, *next)) {
      FailureOr<Value> v = f ? toBatched(yb, loc, n) : FailureOr<Value>(n.value);
      if (succeeded(v) && running) {
        // Examples whose condition failed keep their values.
        Batched old{bodyBlock->getArgument(leading + i), true};
        FailureOr<Batched> kept = selectBatched(
            yb, loc, running->value, Batched{*v, true}, old,
            op->getResult(i).getType());
        v = failed(kept) ? FailureOr<Value>(failure())
                         : FailureOr<Value>(kept->value);
      }
      if (failed(v)) {
        loop->erase();
        return failure();
      }
      yielded.push_back(*v);
    }
    adj::YieldOp::create(yb, loc, yielded);
    for (auto [r, n, f] :
         llvm::zip(op->getResults(), loop->getResults(), flags))
      set(r, Batched{n, f});
    return success();
  }
  return op->emitOpError("cannot be batched: the batched-ness of its "
                         "carried values does not settle");
}
