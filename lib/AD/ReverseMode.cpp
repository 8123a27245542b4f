//===- ReverseMode.cpp - The J transform (reverse mode) -------------------===//
//
// Myia's J transform on adj IR. A function body becomes its forward code,
// followed by a backpropagator closure built at the end of the same block:
// the closure uses the forward values it needs as free variables, so no
// tape exists. Calling it with the sensitivities of the results walks the
// primal ops in reverse:
//
//   primitive  the op's bprop rule (include/adjoint/AD/Rules.h)
//   call       the callee's backpropagator, returned by the forward call;
//              its environment is the sensitivity of the callee value
//   lambda     the closure's sensitivity is an environment; each free
//              variable's sensitivity is read from it by key
//   if         each branch yields a backpropagator over the values the
//              branches read from outside; only the taken one runs
//   for/while  the loop carries the composed backpropagator of the
//              iterations so far, one closure per iteration
//
// Sensitivities of a value with several uses are added with adj.grad_add.
//
//===----------------------------------------------------------------------===//

#include "Transform.h"

#include "adjoint/AD/Rules.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;

ReverseMode::ReverseMode(ModuleOp module, SymbolTable &symbols)
    : module_(module), symbols_(symbols) {
  // Keys must not collide with environments already in the module (from an
  // earlier run of the transform).
  module.walk([&](Operation *op) {
    if (auto get = dyn_cast<adj::EnvGetOp>(op))
      nextKey_ = std::max<int64_t>(nextKey_, get.getKey() + 1);
    if (auto set = dyn_cast<adj::EnvSetOp>(op))
      nextKey_ = std::max<int64_t>(nextKey_, set.getKey() + 1);
  });
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type ReverseMode::fpropType(Type type) {
  return mapStructure(type, [](adj::FnType fn, SmallVector<Type> inputs,
                               SmallVector<Type> results) -> Type {
    MLIRContext *ctx = fn.getContext();
    results.push_back(bpropType(ctx, fn.getInputs(), fn.getResults()));
    return adj::FnType::get(ctx, inputs, results);
  });
}

adj::FnType ReverseMode::bpropType(MLIRContext *ctx, TypeRange inputs,
                                   TypeRange results) {
  SmallVector<Type> outputs{adj::EnvType::get(ctx)};
  llvm::append_range(outputs, sensitivityTypes(inputs));
  return adj::FnType::get(ctx, sensitivityTypes(results), outputs);
}

//===----------------------------------------------------------------------===//
// Forward functions and keys
//===----------------------------------------------------------------------===//

adj::FuncOp ReverseMode::fpropOf(adj::FuncOp f) {
  if (adj::FuncOp known = fprops_.lookup(f))
    return known;
  MLIRContext *ctx = f.getContext();
  auto type = cast<adj::FnType>(
      fpropType(adj::FnType::get(ctx, f.getFunctionType())));
  OpBuilder b = OpBuilder::atBlockEnd(module_.getBody());
  auto fprop = adj::FuncOp::create(b, f.getLoc(),
                                   (f.getSymName() + "_fprop").str(),
                                   type.getSignature());
  fprop.setPrivate();
  symbols_.insert(fprop); // renames it if the name is taken
  fprops_[f] = fprop;
  pending_.emplace_back(f, fprop);
  return fprop;
}

int64_t ReverseMode::keyOf(Value v) {
  auto [it, inserted] = keys_.try_emplace(v, nextKey_);
  if (inserted)
    ++nextKey_;
  return it->second;
}

LogicalResult ReverseMode::finish() {
  return drainWorklist(pending_, [&](adj::FuncOp f, adj::FuncOp fprop) {
    Block *entry = fprop.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    IRMapping map;
    map.map(f.getBody().front().getArguments(), entry->getArguments());
    auto results = transformBlock(b, f.getBody().front(), map, {}, Form::Env);
    if (failed(results))
      return failure();
    adj::ReturnOp::create(b, f.getLoc(), *results);
    return success();
  });
}

FailureOr<Value> ReverseMode::lift(OpBuilder &b, Value v) {
  return liftValue(b, v, [&](Operation &op, IRMapping &map) {
    return forwardOp(b, op, map);
  });
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

void adjoint::ad::accumulateSens(OpBuilder &b, DenseMap<Value, Value> &sens,
                                 Value primal, Value s) {
  if (!s || !isDifferentiable(primal.getType()))
    return;
  Value &slot = sens[primal];
  slot = slot ? adj::GradAddOp::create(b, s.getLoc(), slot, s).getResult() : s;
}

static void accumulate(OpBuilder &b, DenseMap<Value, Value> &sens,
                       Value primal, Value s) {
  accumulateSens(b, sens, primal, s);
}

/// The sensitivity of `primal`, or zeros like its forward value.
static Value sensOrZero(OpBuilder &b, DenseMap<Value, Value> &sens,
                        IRMapping &map, Value primal) {
  if (Value s = sens.lookup(primal))
    return s;
  Value forward = map.lookupOrDefault(primal);
  return adj::ZerosLikeOp::create(b, forward.getLoc(), forward);
}

FailureOr<SmallVector<Value>>
ReverseMode::transformBlock(OpBuilder &b, Block &block, IRMapping &map,
                            ArrayRef<Value> fvs, Form form) {
  for (Operation &op : block.without_terminator())
    if (failed(forwardOp(b, op, map)))
      return failure();

  Operation *terminator = block.getTerminator();
  Location loc = terminator->getLoc();
  SmallVector<Value> results;
  for (Value v : terminator->getOperands())
    results.push_back(map.lookupOrDefault(v));

  // The backpropagator: sensitivities of the results in, sensitivities of
  // the free values and arguments out.
  MLIRContext *ctx = b.getContext();
  SmallVector<Type> inputs = sensitivityTypes(terminator->getOperandTypes());
  SmallVector<Type> outputs;
  if (form == Form::Env)
    outputs.push_back(adj::EnvType::get(ctx));
  else
    for (Value fv : fvs)
      outputs.push_back(adj::getSensitivityType(fv.getType()));
  llvm::append_range(outputs, sensitivityTypes(block.getArgumentTypes()));
  auto bprop = adj::LambdaOp::create(b, loc, adj::FnType::get(ctx, inputs,
                                                              outputs));
  Block *body = new Block();
  bprop.getBody().push_back(body);
  for (Type t : inputs)
    body->addArgument(t, loc);

  OpBuilder bb = OpBuilder::atBlockEnd(body);
  DenseMap<Value, Value> sens;
  for (auto [v, s] : llvm::zip(terminator->getOperands(), body->getArguments()))
    accumulate(bb, sens, v, s);
  for (Operation &op : llvm::reverse(block.without_terminator()))
    if (failed(backwardOp(bb, op, map, sens)))
      return failure();

  SmallVector<Value> returned;
  if (form == Form::Env) {
    Value env = adj::EnvNewOp::create(bb, loc);
    for (Value fv : fvs)
      if (Value s = sens.lookup(fv))
        env = adj::EnvSetOp::create(bb, loc, env,
                                    bb.getI64IntegerAttr(keyOf(fv)), s);
    returned.push_back(env);
  } else {
    for (Value fv : fvs)
      returned.push_back(sensOrZero(bb, sens, map, fv));
  }
  for (BlockArgument arg : block.getArguments())
    returned.push_back(sensOrZero(bb, sens, map, arg));
  adj::ReturnOp::create(bb, loc, returned);

  results.push_back(bprop);
  return results;
}

//===----------------------------------------------------------------------===//
// Forward
//===----------------------------------------------------------------------===//

/// The values of `vs` that carry derivatives.
static SmallVector<Value> differentiable(const SetVector<Value> &vs) {
  SmallVector<Value> result;
  for (Value v : vs)
    if (isDifferentiable(v.getType()))
      result.push_back(v);
  return result;
}

static SmallVector<Value> lookupAll(IRMapping &map, ValueRange vs) {
  SmallVector<Value> result;
  for (Value v : vs)
    result.push_back(map.lookupOrDefault(v));
  return result;
}

LogicalResult ReverseMode::forwardOp(OpBuilder &b, Operation &op,
                                     IRMapping &map) {
  Location loc = op.getLoc();
  return TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<adj::CallOp>([&](adj::CallOp call) -> LogicalResult {
        Value callee = map.lookupOrDefault(call.getCallee());
        auto fnType = dyn_cast<adj::FnType>(callee.getType());
        if (!fnType)
          return call.emitOpError("cannot differentiate a call of an untyped "
                                  "callee (run -adj-infer first)");
        auto fwd = adj::CallOp::create(b, loc, fnType.getResults(), callee,
                                       lookupAll(map, call.getArgs()));
        map.map(call.getResults(), fwd.getResults().drop_back());
        bprops_[call] = fwd.getResults().back();
        return success();
      })
      .Case<adj::FuncRefOp>([&](adj::FuncRefOp ref) -> LogicalResult {
        auto target = symbols_.lookup<adj::FuncOp>(ref.getCallee());
        if (!target)
          return ref.emitOpError("does not name an adj.func");
        adj::FuncOp fprop = fpropOf(target);
        auto fwd = adj::FuncRefOp::create(
            b, loc, adj::FnType::get(b.getContext(), fprop.getFunctionType()),
            fprop.getSymName());
        map.map(ref.getResult(), fwd.getResult());
        return success();
      })
      .Case<adj::LambdaOp>([&](adj::LambdaOp lambda) {
        return forwardLambda(b, lambda, map);
      })
      .Case<adj::IfOp>([&](adj::IfOp ifOp) { return forwardIf(b, ifOp, map); })
      .Case<adj::ForOp, adj::WhileOp>(
          [&](Operation *loop) { return forwardLoop(b, loop, map); })
      .Case<adj::CustomVjpOp, adj::CustomJvpOp, adj::CheckpointOp>(
          [&](Operation *custom) { return forwardCustom(b, custom, map); })
      .Case<adj::GradOp, adj::ValueAndGradOp, adj::VjpOp, adj::JvpOp>(
          [&](Operation *request) {
            return request->emitOpError(
                "must be expanded before the code around it is "
                "differentiated");
          })
      .Default([&](Operation *other) -> LogicalResult {
        if (other->getNumRegions())
          return other->emitOpError("cannot be differentiated");
        Operation *fwd = recreate(b, other,
                                  lookupAll(map, other->getOperands()),
                                  fpropType);
        map.map(other->getResults(), fwd->getResults());
        forwardOps_[other] = fwd;
        return success();
      });
}

LogicalResult ReverseMode::forwardLambda(OpBuilder &b, adj::LambdaOp lambda,
                                         IRMapping &map) {
  Location loc = lambda.getLoc();
  auto type = cast<adj::FnType>(fpropType(lambda.getType()));
  auto fwd = adj::LambdaOp::create(b, loc, type);
  Block *body = new Block();
  fwd.getBody().push_back(body);
  Block &primal = lambda.getBody().front();
  for (Type t : type.getInputs())
    body->addArgument(t, loc);
  map.map(primal.getArguments(), body->getArguments());

  OpBuilder bb = OpBuilder::atBlockEnd(body);
  SmallVector<Value> fvs = differentiable(freeValues(lambda));
  auto results = transformBlock(bb, primal, map, fvs, Form::Env);
  if (failed(results))
    return failure();
  adj::ReturnOp::create(bb, loc, *results);
  map.map(lambda.getResult(), fwd.getResult());
  return success();
}

LogicalResult ReverseMode::forwardIf(OpBuilder &b, adj::IfOp ifOp,
                                     IRMapping &map) {
  Location loc = ifOp.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> fvs = differentiable(freeValues(ifOp));
  SmallVector<Type> fvSens;
  for (Value fv : fvs)
    fvSens.push_back(adj::getSensitivityType(fv.getType()));
  SmallVector<Type> types;
  for (Type t : ifOp.getResultTypes())
    types.push_back(fpropType(t));
  types.push_back(adj::FnType::get(
      ctx, sensitivityTypes(ifOp.getResultTypes()), fvSens));

  auto fwd = adj::IfOp::create(b, loc, types,
                               map.lookupOrDefault(ifOp.getCondition()));
  for (auto [primal, region] :
       llvm::zip(ifOp->getRegions(), fwd->getRegions())) {
    Block *block = new Block();
    region.push_back(block);
    OpBuilder bb = OpBuilder::atBlockEnd(block);
    auto results = transformBlock(bb, primal.front(), map, fvs, Form::Values);
    if (failed(results))
      return failure();
    adj::YieldOp::create(bb, loc, *results);
  }
  map.map(ifOp.getResults(), fwd.getResults().drop_back());
  bprops_[ifOp] = fwd.getResults().back();
  regionFvs_[ifOp] = fvs;
  return success();
}

LogicalResult ReverseMode::forwardLoop(OpBuilder &b, Operation *loop,
                                       IRMapping &map) {
  Location loc = loop->getLoc();
  MLIRContext *ctx = b.getContext();
  auto forOp = dyn_cast<adj::ForOp>(loop);
  auto whileOp = dyn_cast<adj::WhileOp>(loop);
  ValueRange inits = forOp ? forOp.getInits() : whileOp.getInits();
  Block &body = forOp ? forOp.getBody().front() : whileOp.getBody().front();
  SmallVector<Value> fvs = differentiable(freeValues(loop));

  // The composed backpropagator of the iterations run so far maps the
  // sensitivities of the carried values to those of the initial values and
  // of the free values. Before the first iteration it is the identity.
  SmallVector<Type> carriedSens = sensitivityTypes(loop->getResultTypes());
  SmallVector<Type> accOutputs = carriedSens;
  for (Value fv : fvs)
    accOutputs.push_back(adj::getSensitivityType(fv.getType()));
  auto accType = adj::FnType::get(ctx, carriedSens, accOutputs);

  auto makeLambda = [&](OpBuilder &at,
                        function_ref<SmallVector<Value>(OpBuilder &,
                                                        ValueRange)>
                            fill) {
    auto lambda = adj::LambdaOp::create(at, loc, accType);
    Block *block = new Block();
    lambda.getBody().push_back(block);
    for (Type t : carriedSens)
      block->addArgument(t, loc);
    OpBuilder lb = OpBuilder::atBlockEnd(block);
    adj::ReturnOp::create(lb, loc, fill(lb, block->getArguments()));
    return lambda.getResult();
  };
  Value identity = makeLambda(b, [&](OpBuilder &lb, ValueRange d) {
    SmallVector<Value> out(d);
    for (Value fv : fvs) {
      Value forward = map.lookupOrDefault(fv);
      out.push_back(adj::ZerosLikeOp::create(lb, loc, forward));
    }
    return out;
  });

  SmallVector<Type> types;
  for (Type t : loop->getResultTypes())
    types.push_back(fpropType(t));
  types.push_back(accType);
  SmallVector<Value> newInits = lookupAll(map, inits);
  newInits.push_back(identity);

  Operation *fwd;
  Block *newBody = new Block();
  if (forOp) {
    fwd = adj::ForOp::create(b, loc, types,
                             map.lookupOrDefault(forOp.getLowerBound()),
                             map.lookupOrDefault(forOp.getUpperBound()),
                             map.lookupOrDefault(forOp.getStep()), newInits);
    fwd->getRegion(0).push_back(newBody);
    newBody->addArgument(body.getArgument(0).getType(), loc);
  } else {
    fwd = adj::WhileOp::create(b, loc, types, newInits);
    // The condition reads the carried values; no sensitivity flows through
    // the i1 it yields, so its forward code is all it needs.
    Block &primalCond = whileOp.getCond().front();
    Block *cond = new Block();
    fwd->getRegion(0).push_back(cond);
    for (Type t : types)
      cond->addArgument(t, loc);
    map.map(primalCond.getArguments(), cond->getArguments().drop_back());
    OpBuilder cb = OpBuilder::atBlockEnd(cond);
    for (Operation &op : primalCond.without_terminator())
      if (failed(forwardOp(cb, op, map)))
        return failure();
    adj::YieldOp::create(
        cb, loc, lookupAll(map, primalCond.getTerminator()->getOperands()));
    fwd->getRegion(1).push_back(newBody);
  }
  for (Type t : types)
    newBody->addArgument(t, loc);
  Value acc = newBody->getArguments().back();
  map.map(body.getArguments(), newBody->getArguments().drop_back());

  OpBuilder bb = OpBuilder::atBlockEnd(newBody);
  auto results = transformBlock(bb, body, map, fvs, Form::Values);
  if (failed(results))
    return failure();
  Value step = results->pop_back_val();
  // The body's backpropagator returns (free values..., [iv], carried...).
  size_t numFvs = fvs.size(), skip = forOp ? 1 : 0;
  Value composed = makeLambda(bb, [&](OpBuilder &lb, ValueRange d) {
    auto stepFn = cast<adj::FnType>(step.getType());
    auto inner = adj::CallOp::create(lb, loc, stepFn.getResults(), step, d);
    ValueRange innerOut = inner.getResults();
    auto outer = adj::CallOp::create(lb, loc, accType.getResults(), acc,
                                     innerOut.drop_front(numFvs + skip));
    SmallVector<Value> out(outer.getResults().take_front(carriedSens.size()));
    for (size_t k = 0; k < numFvs; ++k)
      out.push_back(adj::GradAddOp::create(
          lb, loc, outer.getResult(carriedSens.size() + k), innerOut[k]));
    return out;
  });
  results->push_back(composed);
  adj::YieldOp::create(bb, loc, *results);

  map.map(loop->getResults(), fwd->getResults().drop_back());
  bprops_[loop] = fwd->getResults().back();
  regionFvs_[loop] = fvs;
  return success();
}

//===----------------------------------------------------------------------===//
// Backward
//===----------------------------------------------------------------------===//

LogicalResult ReverseMode::backwardOp(OpBuilder &b, Operation &op,
                                      IRMapping &map,
                                      DenseMap<Value, Value> &sens) {
  SmallVector<Value> douts;
  bool any = false;
  for (Value r : op.getResults()) {
    douts.push_back(sens.lookup(r));
    any |= static_cast<bool>(douts.back());
  }
  if (!any)
    return success();
  Location loc = op.getLoc();
  auto filled = [&] {
    SmallVector<Value> out;
    for (Value r : op.getResults())
      out.push_back(sensOrZero(b, sens, map, r));
    return out;
  };
  /// Calls the recorded backpropagator of `op` with the result sensitivities.
  auto callBprop = [&]() -> ValueRange {
    Value bprop = bprops_.lookup(&op);
    auto type = cast<adj::FnType>(bprop.getType());
    return adj::CallOp::create(b, loc, type.getResults(), bprop, filled())
        .getResults();
  };

  return TypeSwitch<Operation *, LogicalResult>(&op)
      .Case<adj::CallOp>([&](adj::CallOp call) {
        ValueRange out = callBprop();
        accumulate(b, sens, call.getCallee(), out.front());
        for (auto [arg, s] : llvm::zip(call.getArgs(), out.drop_front()))
          accumulate(b, sens, arg, s);
        return success();
      })
      .Case<adj::FuncRefOp>([](auto) { return success(); })
      .Case<adj::CustomVjpOp, adj::CustomJvpOp, adj::CheckpointOp>(
          [&](Operation *custom) {
            backwardCustom(b, custom, douts[0], sens);
            return success();
          })
      .Case<adj::LambdaOp>([&](adj::LambdaOp lambda) {
        // Each free variable's sensitivity is stored in the closure's
        // environment under its key.
        for (Value fv : differentiable(freeValues(lambda)))
          accumulate(b, sens, fv,
                     adj::EnvGetOp::create(
                         b, loc, adj::getSensitivityType(fv.getType()),
                         douts[0], b.getI64IntegerAttr(keyOf(fv))));
        return success();
      })
      .Case<adj::TupleOp>([&](adj::TupleOp tuple) {
        for (auto [i, element] : llvm::enumerate(tuple.getElements()))
          if (isDifferentiable(element.getType()))
            accumulate(b, sens, element,
                       adj::GetOp::create(b, loc, douts[0],
                                          b.getI64IntegerAttr(i)));
        return success();
      })
      .Case<adj::GetOp>([&](adj::GetOp get) {
        // The tuple's sensitivity is zero except at the index read.
        Value zeros = adj::ZerosLikeOp::create(
            b, loc, map.lookupOrDefault(get.getTuple()));
        auto tupleType = cast<adj::TupleType>(zeros.getType());
        SmallVector<Value> elements;
        for (size_t i = 0; i < tupleType.size(); ++i)
          elements.push_back(
              i == get.getIndex()
                  ? douts[0]
                  : adj::GetOp::create(b, loc, zeros, b.getI64IntegerAttr(i))
                        .getResult());
        accumulate(b, sens, get.getTuple(),
                   adj::TupleOp::create(b, loc, elements));
        return success();
      })
      .Case<adj::IfOp>([&](adj::IfOp ifOp) {
        ValueRange out = callBprop();
        for (auto [fv, s] : llvm::zip(regionFvs_[ifOp], out))
          accumulate(b, sens, fv, s);
        return success();
      })
      .Case<adj::ForOp, adj::WhileOp>([&](Operation *loop) {
        ValueRange out = callBprop();
        ValueRange inits = loop->getOperands().drop_front(
            isa<adj::ForOp>(loop) ? 3 : 0);
        for (auto [init, s] : llvm::zip(inits, out))
          accumulate(b, sens, init, s);
        for (auto [fv, s] :
             llvm::zip(regionFvs_[loop], out.drop_front(inits.size())))
          accumulate(b, sens, fv, s);
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        const Rules *rules = lookupRules(other);
        if (!rules || !rules->bprop)
          return other->emitOpError("has no derivative rule");
        if (rules->supports && failed(rules->supports(other)))
          return failure();
        SmallVector<Value> ds = rules->bprop(b, forwardOps_.lookup(other),
                                             douts);
        for (auto [operand, s] : llvm::zip(other->getOperands(), ds))
          accumulate(b, sens, operand, s);
        return success();
      });
}
