//===- ForwardMode.cpp - Forward mode (jvp) -------------------------------===//
//
// Every value of the primal program gets a tangent alongside (absent means
// zero). Functions become versions that take and return tangents: a closure
// built in transformed code captures the tangents of its free variables with
// their values, so a function value needs no tangent of its own (its
// tangent is the empty environment). Branches and loops carry tangents as
// extra results and loop-carried values. Primitives use their jvp rules.
//
//===----------------------------------------------------------------------===//

#include "Transform.h"

#include "adjoint/AD/Rules.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;

ForwardMode::ForwardMode(ModuleOp module, SymbolTable &symbols)
    : module_(module), symbols_(symbols) {}

Type ForwardMode::jvpType(Type type) {
  return mapStructure(type, [](adj::FnType fn, SmallVector<Type> inputs,
                               SmallVector<Type> results) -> Type {
    llvm::append_range(inputs, sensitivityTypes(fn.getInputs()));
    llvm::append_range(results, sensitivityTypes(fn.getResults()));
    return adj::FnType::get(fn.getContext(), inputs, results);
  });
}

adj::FuncOp ForwardMode::jvpOf(adj::FuncOp f) {
  if (adj::FuncOp known = jvps_.lookup(f))
    return known;
  auto type = cast<adj::FnType>(
      jvpType(adj::FnType::get(f.getContext(), f.getFunctionType())));
  OpBuilder b = OpBuilder::atBlockEnd(module_.getBody());
  auto jvp = adj::FuncOp::create(b, f.getLoc(), (f.getSymName() + "_jvp").str(),
                                 type.getSignature());
  jvp.setPrivate();
  symbols_.insert(jvp);
  jvps_[f] = jvp;
  pending_.emplace_back(f, jvp);
  return jvp;
}

LogicalResult ForwardMode::finish() {
  return drainWorklist(pending_, [&](adj::FuncOp f, adj::FuncOp jvp) {
    Block &primal = f.getBody().front();
    Block *entry = jvp.addEntryBlock();
    unsigned n = primal.getNumArguments();
    IRMapping map;
    Tangents tangents;
    for (unsigned i = 0; i < n; ++i) {
      map.map(primal.getArgument(i), entry->getArgument(i));
      tangents[primal.getArgument(i)] = entry->getArgument(n + i);
    }
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    auto results = transformBlock(b, primal, map, tangents);
    if (failed(results))
      return failure();
    adj::ReturnOp::create(b, f.getLoc(), *results);
    return success();
  });
}

FailureOr<Value> ForwardMode::lift(OpBuilder &b, Value v) {
  // Values from outside the differentiated function are constants: their
  // tangents are zero.
  return liftValue(b, v, [&](Operation &op, IRMapping &map) {
    Tangents tangents;
    return transformOp(b, op, map, tangents);
  });
}

Value ForwardMode::tangentOrZero(OpBuilder &b, Value v, IRMapping &map,
                                 Tangents &tangents) {
  if (Value t = tangents.lookup(v))
    return t;
  Value forward = map.lookupOrDefault(v);
  return adj::ZerosLikeOp::create(b, forward.getLoc(), forward);
}

FailureOr<SmallVector<Value>>
ForwardMode::transformBlock(OpBuilder &b, Block &block, IRMapping &map,
                            Tangents &tangents) {
  for (Operation &op : block.without_terminator())
    if (failed(transformOp(b, op, map, tangents)))
      return failure();
  Operation *terminator = block.getTerminator();
  SmallVector<Value> results, resultTangents;
  for (Value v : terminator->getOperands()) {
    results.push_back(map.lookupOrDefault(v));
    resultTangents.push_back(tangentOrZero(b, v, map, tangents));
  }
  llvm::append_range(results, resultTangents);
  return results;
}

/// Maps `primal` results to the first half of `values` and their tangents
/// to the second half.
static void mapWithTangents(ValueRange primal, ValueRange values,
                            IRMapping &map,
                            DenseMap<Value, Value> &tangents) {
  size_t n = primal.size();
  map.map(primal, values.take_front(n));
  for (size_t i = 0; i < n; ++i)
    tangents[primal[i]] = values[n + i];
}

LogicalResult ForwardMode::transformOp(OpBuilder &b, Operation &op,
                                       IRMapping &map, Tangents &tangents) {
  Location loc = op.getLoc();
  auto lookupAll = [&](ValueRange vs) {
    SmallVector<Value> out;
    for (Value v : vs)
      out.push_back(map.lookupOrDefault(v));
    return out;
  };
  auto tangentsOf = [&](ValueRange vs) {
    SmallVector<Value> out;
    for (Value v : vs)
      out.push_back(tangentOrZero(b, v, map, tangents));
    return out;
  };
  auto resultTypes = [&](TypeRange types) {
    SmallVector<Type> out;
    for (Type t : types)
      out.push_back(jvpType(t));
    llvm::append_range(out, sensitivityTypes(types));
    return out;
  };
  /// Builds `region`'s new block with the primal block's arguments (and
  /// their tangents), transforms it and ends it with adj.yield.
  auto buildRegion = [&](Region &region, Block &primal,
                         ArrayRef<Type> leading) -> LogicalResult {
    Block *block = new Block();
    region.push_back(block);
    for (Type t : leading)
      block->addArgument(t, loc);
    for (BlockArgument arg : primal.getArguments().drop_front(leading.size()))
      block->addArgument(jvpType(arg.getType()), loc);
    for (BlockArgument arg : primal.getArguments().drop_front(leading.size()))
      block->addArgument(adj::getSensitivityType(arg.getType()), loc);
    for (size_t i = 0; i < leading.size(); ++i)
      map.map(primal.getArgument(i), block->getArgument(i));
    mapWithTangents(primal.getArguments().drop_front(leading.size()),
                    block->getArguments().drop_front(leading.size()), map,
                    tangents);
    OpBuilder rb = OpBuilder::atBlockEnd(block);
    auto results = transformBlock(rb, primal, map, tangents);
    if (failed(results))
      return failure();
    adj::YieldOp::create(rb, loc, *results);
    return success();
  };

  return TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<adj::CallOp>([&](adj::CallOp call) -> LogicalResult {
        Value callee = map.lookupOrDefault(call.getCallee());
        auto fnType = dyn_cast<adj::FnType>(callee.getType());
        if (!fnType)
          return call.emitOpError("cannot differentiate a call of an untyped "
                                  "callee (run -adj-infer first)");
        SmallVector<Value> args = lookupAll(call.getArgs());
        llvm::append_range(args, tangentsOf(call.getArgs()));
        auto fwd =
            adj::CallOp::create(b, loc, fnType.getResults(), callee, args);
        mapWithTangents(call.getResults(), fwd.getResults(), map, tangents);
        return success();
      })
      .Case<adj::FuncRefOp>([&](adj::FuncRefOp ref) -> LogicalResult {
        auto target = symbols_.lookup<adj::FuncOp>(ref.getCallee());
        if (!target)
          return ref.emitOpError("does not name an adj.func");
        adj::FuncOp jvp = jvpOf(target);
        map.map(ref.getResult(),
                adj::FuncRefOp::create(
                    b, loc, adj::FnType::get(b.getContext(),
                                             jvp.getFunctionType()),
                    jvp.getSymName()));
        return success();
      })
      .Case<adj::LambdaOp>([&](adj::LambdaOp lambda) -> LogicalResult {
        auto type = cast<adj::FnType>(jvpType(lambda.getType()));
        auto fwd = adj::LambdaOp::create(b, loc, type);
        Block &primal = lambda.getBody().front();
        Block *block = new Block();
        fwd.getBody().push_back(block);
        for (Type t : type.getInputs())
          block->addArgument(t, loc);
        mapWithTangents(primal.getArguments(), block->getArguments(), map,
                        tangents);
        OpBuilder bb = OpBuilder::atBlockEnd(block);
        auto results = transformBlock(bb, primal, map, tangents);
        if (failed(results))
          return failure();
        adj::ReturnOp::create(bb, loc, *results);
        map.map(lambda.getResult(), fwd.getResult());
        return success();
      })
      .Case<adj::IfOp>([&](adj::IfOp ifOp) -> LogicalResult {
        auto fwd = adj::IfOp::create(b, loc, resultTypes(ifOp.getResultTypes()),
                                     map.lookupOrDefault(ifOp.getCondition()));
        for (auto [primal, region] :
             llvm::zip(ifOp->getRegions(), fwd->getRegions()))
          if (failed(buildRegion(region, primal.front(), {})))
            return failure();
        mapWithTangents(ifOp.getResults(), fwd.getResults(), map, tangents);
        return success();
      })
      .Case<adj::ForOp>([&](adj::ForOp forOp) -> LogicalResult {
        SmallVector<Value> inits = lookupAll(forOp.getInits());
        llvm::append_range(inits, tangentsOf(forOp.getInits()));
        auto fwd = adj::ForOp::create(
            b, loc, resultTypes(forOp.getResultTypes()),
            map.lookupOrDefault(forOp.getLowerBound()),
            map.lookupOrDefault(forOp.getUpperBound()),
            map.lookupOrDefault(forOp.getStep()), inits);
        Block &body = forOp.getBody().front();
        if (failed(buildRegion(fwd.getBody(), body,
                               {body.getArgument(0).getType()})))
          return failure();
        mapWithTangents(forOp.getResults(), fwd.getResults(), map, tangents);
        return success();
      })
      .Case<adj::WhileOp>([&](adj::WhileOp whileOp) -> LogicalResult {
        SmallVector<Value> inits = lookupAll(whileOp.getInits());
        llvm::append_range(inits, tangentsOf(whileOp.getInits()));
        auto fwd = adj::WhileOp::create(
            b, loc, resultTypes(whileOp.getResultTypes()), inits);
        // The condition yields an i1, whose tangent the yield drops.
        if (failed(buildRegion(fwd.getCond(), whileOp.getCond().front(), {})))
          return failure();
        auto condYield = cast<adj::YieldOp>(fwd.getCond().front().getTerminator());
        OpBuilder yb(condYield);
        adj::YieldOp::create(yb, loc, condYield.getOperand(0));
        condYield.erase();
        if (failed(buildRegion(fwd.getBody(), whileOp.getBody().front(), {})))
          return failure();
        mapWithTangents(whileOp.getResults(), fwd.getResults(), map, tangents);
        return success();
      })
      .Case<adj::TupleOp>([&](adj::TupleOp tuple) {
        map.map(tuple.getResult(),
                adj::TupleOp::create(b, loc, lookupAll(tuple.getElements())));
        if (llvm::any_of(tuple.getElements(),
                         [&](Value e) { return tangents.lookup(e); }))
          tangents[tuple.getResult()] =
              adj::TupleOp::create(b, loc, tangentsOf(tuple.getElements()));
        return success();
      })
      .Case<adj::GetOp>([&](adj::GetOp get) {
        map.map(get.getResult(),
                adj::GetOp::create(b, loc, map.lookupOrDefault(get.getTuple()),
                                   get.getIndexAttr()));
        if (Value t = tangents.lookup(get.getTuple()))
          tangents[get.getResult()] =
              adj::GetOp::create(b, loc, t, get.getIndexAttr());
        return success();
      })
      .Case<adj::CustomVjpOp, adj::CustomJvpOp, adj::CheckpointOp>(
          [&](Operation *custom) { return transformCustom(b, custom, map); })
      .Case<adj::GradOp, adj::ValueAndGradOp, adj::VjpOp, adj::JvpOp>(
          [&](Operation *request) {
            return request->emitOpError(
                "must be expanded before the code around it is "
                "differentiated");
          })
      .Default([&](Operation *other) -> LogicalResult {
        if (other->getNumRegions())
          return other->emitOpError("cannot be differentiated");
        Operation *fwd = recreate(b, other, lookupAll(other->getOperands()),
                                  jvpType);
        map.map(other->getResults(), fwd->getResults());
        SmallVector<Value> operandTangents;
        bool any = false;
        for (Value v : other->getOperands()) {
          operandTangents.push_back(tangents.lookup(v));
          any |= static_cast<bool>(operandTangents.back());
        }
        if (!any)
          return success();
        const Rules *rules = lookupRules(other);
        if (!rules || !rules->jvp)
          return other->emitOpError("has no derivative rule");
        if (rules->supports && failed(rules->supports(other)))
          return failure();
        SmallVector<Value> ts = rules->jvp(b, fwd, operandTangents);
        for (auto [r, t] : llvm::zip(other->getResults(), ts))
          if (t && isDifferentiable(r.getType()))
            tangents[r] = t;
        return success();
      });
}
