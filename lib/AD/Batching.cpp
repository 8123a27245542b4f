//===- Batching.cpp - The vmap transform: values, calls, functions --------===//
//
//   vmap(f, in_axes, out_axes) = \xs. moveaxis(B(f)(moveaxis(xs, in_axes,
//                                      0)), 0, out_axes)
//
// where B batches f's code with the batch at axis 0 (see Batching.h).
// Control flow is in BatchingControl.cpp; primitives use the rule tables.
//
//===----------------------------------------------------------------------===//

#include "Batching.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;
using batching::Batched;

//===----------------------------------------------------------------------===//
// Types and specialised functions
//===----------------------------------------------------------------------===//

Batching::Batching(ModuleOp module, SymbolTable &symbols)
    : module_(module), symbols_(symbols) {}

Type Batching::batchedType(Type type, int64_t size) {
  if (isa<RankedTensorType>(type))
    return batching::batchedTensor(type, size);
  if (auto tuple = dyn_cast<adj::TupleType>(type)) {
    SmallVector<Type> elements;
    for (Type t : tuple.getTypes())
      elements.push_back(batchedType(t, size));
    return adj::TupleType::get(type.getContext(), elements);
  }
  if (auto fn = dyn_cast<adj::FnType>(type)) {
    SmallVector<Type> inputs, results;
    for (Type t : fn.getInputs())
      inputs.push_back(batchedType(t, size));
    for (Type t : fn.getResults())
      results.push_back(batchedType(t, size));
    return adj::FnType::get(type.getContext(), inputs, results);
  }
  // Environments hold whatever is set in them: their type does not change.
  return type;
}

adj::FuncOp Batching::specialize(adj::FuncOp f, ArrayRef<bool> mask,
                                 int64_t size) {
  std::string bits;
  for (bool m : mask)
    bits.push_back(m ? '1' : '0');
  adj::FuncOp &known = specs_[{f.getOperation(), bits, size}];
  if (known)
    return known;
  SmallVector<Type> inputs, results;
  for (auto [t, m] : llvm::zip(f.getArgumentTypes(), mask))
    inputs.push_back(m ? batchedType(t, size) : t);
  for (Type t : f.getResultTypes())
    results.push_back(batchedType(t, size));
  OpBuilder b = OpBuilder::atBlockEnd(module_.getBody());
  std::string name =
      (f.getSymName() + "_vmap" + Twine(size) + "_" + bits).str();
  known = adj::FuncOp::create(b, f.getLoc(), name,
                              b.getFunctionType(inputs, results));
  known.setPrivate();
  symbols_.insert(known);
  specOf_[known] = Spec{SmallVector<bool>(mask), size};
  pending_.emplace_back(f, known);
  return known;
}

LogicalResult Batching::finish() {
  return drainWorklist(pending_, [&](adj::FuncOp f, adj::FuncOp spec) {
    const Spec &s = specOf_[spec];
    Block &primal = f.getBody().front();
    Block *entry = spec.addEntryBlock();
    BodyBatcher body(*this, s.size);
    for (auto [i, arg] : llvm::enumerate(primal.getArguments()))
      body.set(arg, Batched{entry->getArgument(i), s.mask[i]});
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    if (failed(body.transformOps(b, primal)))
      return failure();
    auto results = body.terminatorValues(b, primal);
    if (failed(results))
      return failure();
    SmallVector<Value> returned;
    for (Batched r : *results) {
      FailureOr<Value> v = body.toBatched(b, f.getLoc(), r);
      if (failed(v))
        return failure();
      returned.push_back(*v);
    }
    adj::ReturnOp::create(b, f.getLoc(), returned);
    return success();
  });
}

//===----------------------------------------------------------------------===//
// The request
//===----------------------------------------------------------------------===//

/// The permutation of a rank-`rank` tensor that moves axis `from` to `to`.
static SmallVector<int64_t> moveAxis(int64_t from, int64_t to, int64_t rank) {
  SmallVector<int64_t> rest;
  for (int64_t i = 0; i < rank; ++i)
    if (i != from)
      rest.push_back(i);
  rest.insert(rest.begin() + to, from);
  return rest;
}

static Value moveAxisOf(OpBuilder &b, Location loc, Value v, int64_t from,
                        int64_t to) {
  if (from == to)
    return v;
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  return adj::TransposeOp::create(b, loc, v, moveAxis(from, to, rank));
}

LogicalResult Batching::expand(adj::VmapOp request) {
  Value fn = request.getFn();
  auto fnType = dyn_cast<adj::FnType>(fn.getType());
  if (!fnType)
    return request.emitOpError("needs a typed function (run -adj-infer "
                               "first)");
  Location loc = request.getLoc();
  auto type = cast<adj::FnType>(request.getType());
  OpBuilder b(request);
  auto lambda = adj::LambdaOp::create(b, loc, type);
  Block *block = new Block();
  lambda.getBody().push_back(block);
  for (Type t : type.getInputs())
    block->addArgument(t, loc);
  OpBuilder lb = OpBuilder::atBlockEnd(block);
  BodyBatcher body(*this, request.getBatchSize());
  SmallVector<Batched> args;
  for (auto [param, axis] :
       llvm::zip(block->getArguments(), request.getInAxes())) {
    if (axis < 0)
      args.push_back(Batched{param, false});
    else
      args.push_back(Batched{moveAxisOf(lb, loc, param, axis, 0), true});
  }
  // A result returned without the batch needs its exact batched-ness, which
  // batching the callee's body in place gives.
  ArrayRef<int64_t> outAxes = request.getOutAxes();
  bool anyShared = llvm::any_of(outAxes, [](int64_t a) { return a < 0; });
  auto results = anyShared ? body.callInPlace(lb, loc, fn, args)
                           : body.call(lb, loc, fn, args);
  if (failed(results))
    return failure();
  SmallVector<Value> returned;
  for (auto [i, r, axis] : llvm::enumerate(*results, outAxes)) {
    if (axis < 0) {
      if (r.batched)
        return request.emitOpError("result #")
               << i
               << " depends on the batch but its out_axes entry is -1 (not "
                  "batched): vmap has mapped output but out_axes is None";
      returned.push_back(r.value);
      continue;
    }
    FailureOr<Value> v = body.toBatched(lb, loc, r);
    if (failed(v))
      return failure();
    returned.push_back(moveAxisOf(lb, loc, *v, 0, axis));
  }
  adj::ReturnOp::create(lb, loc, returned);
  request.getResult().replaceAllUsesWith(lambda.getResult());
  request.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

void BodyBatcher::set(Value primal, Batched v) {
  map_.map(primal, v.value);
  if (v.batched)
    batched_.insert(primal);
  else
    batched_.erase(primal);
}

/// The op that made the function value `v` when it is known statically: a
/// closure, a func_ref or an adj.closure, possibly through a tuple.
static Operation *originOf(Value v) {
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<adj::LambdaOp, adj::FuncRefOp, adj::ClosureOp>(def))
    return def;
  if (auto get = dyn_cast_or_null<adj::GetOp>(def))
    if (auto tuple = get.getTuple().getDefiningOp<adj::TupleOp>())
      return originOf(tuple.getElements()[get.getIndex()]);
  return nullptr;
}

FailureOr<Batched> BodyBatcher::get(OpBuilder &b, Value primal) {
  if (map_.contains(primal))
    return Batched{map_.lookup(primal), batched_.contains(primal)};
  Operation *origin = originOf(primal);
  if (!origin || !isa<adj::FnType>(primal.getType()))
    return Batched{primal, false};
  // A function value from its definition: a func_ref stays one (it is valid
  // anywhere); closures take the uniform batched form.
  if (auto ref = dyn_cast<adj::FuncRefOp>(origin))
    return Batched{b.clone(*ref)->getResult(0), false};
  if (auto lambda = dyn_cast<adj::LambdaOp>(origin)) {
    FailureOr<Value> uniform = uniformLambda(b, lambda);
    if (failed(uniform))
      return failure();
    return Batched{*uniform, true};
  }
  auto closure = cast<adj::ClosureOp>(origin);
  auto type = cast<adj::FnType>(
      Batching::batchedType(closure.getType(), size_));
  Location loc = closure.getLoc();
  auto wrapper = adj::LambdaOp::create(b, loc, type);
  Block *block = new Block();
  wrapper.getBody().push_back(block);
  OpBuilder wb = OpBuilder::atBlockEnd(block);
  SmallVector<Batched> args;
  for (Value capture : closure.getCaptures()) {
    FailureOr<Batched> c = get(b, capture);
    if (failed(c))
      return failure();
    args.push_back(*c);
  }
  for (Type t : type.getInputs())
    args.push_back(Batched{block->addArgument(t, loc), true});
  auto f = owner_.symbols().lookup<adj::FuncOp>(closure.getCallee());
  if (!f)
    return closure.emitOpError("does not name an adj.func");
  auto results = callFunction(wb, loc, f, args);
  if (failed(results))
    return failure();
  SmallVector<Value> returned;
  for (Batched r : *results)
    returned.push_back(r.value);
  adj::ReturnOp::create(wb, loc, returned);
  return Batched{wrapper.getResult(), true};
}

/// Whether values of `type` read out of a tuple have a batched form: only
/// tensors do (an element's defining op is not known through adj.get).
static bool elementsHaveBatchedForm(Type type) {
  if (isa<RankedTensorType>(type))
    return true;
  if (auto tuple = dyn_cast<adj::TupleType>(type))
    return llvm::all_of(tuple.getTypes(), elementsHaveBatchedForm);
  return false;
}

/// Whether toBatched() succeeds on the unbatched `v`, decided without
/// emitting anything.
static bool hasBatchedForm(Value v) {
  Type type = v.getType();
  if (isa<adj::TupleType>(type))
    return elementsHaveBatchedForm(type);
  if (isa<RankedTensorType>(type))
    return true;
  if (isa<adj::EnvType>(type))
    return isa_and_nonnull<adj::EnvNewOp, adj::ZerosLikeOp>(v.getDefiningOp());
  return isa_and_nonnull<adj::FuncRefOp>(v.getDefiningOp());
}

FailureOr<Value> BodyBatcher::toBatched(OpBuilder &b, Location loc,
                                        Batched v) {
  if (v.batched)
    return v.value;
  Type type = v.value.getType();
  if (isa<RankedTensorType>(type))
    return Value(adj::BroadcastToOp::create(
        b, loc, Batching::batchedType(type, size_), v.value));
  if (auto tuple = dyn_cast<adj::TupleType>(type)) {
    SmallVector<Value> elements;
    for (size_t i = 0; i < tuple.size(); ++i) {
      Value e = adj::GetOp::create(b, loc, v.value, b.getI64IntegerAttr(i));
      FailureOr<Value> be = toBatched(b, loc, Batched{e, false});
      if (failed(be))
        return failure();
      elements.push_back(*be);
    }
    return Value(adj::TupleOp::create(b, loc, elements));
  }
  // An empty environment (a zero sensitivity) is the same for every example.
  if (isa<adj::EnvType>(type) &&
      isa_and_nonnull<adj::EnvNewOp, adj::ZerosLikeOp>(
          v.value.getDefiningOp()))
    return v.value;
  if (auto ref = v.value.getDefiningOp<adj::FuncRefOp>()) {
    auto f = owner_.symbols().lookup<adj::FuncOp>(ref.getCallee());
    if (!f)
      return ref.emitOpError("does not name an adj.func");
    SmallVector<bool> all(f.getArgumentTypes().size(), true);
    adj::FuncOp spec = owner_.specialize(f, all, size_);
    return Value(adj::FuncRefOp::create(
        b, loc, adj::FnType::get(b.getContext(), spec.getFunctionType()),
        spec.getSymName()));
  }
  return emitError(loc) << "vmap: cannot give the batch to a value of type "
                        << type
                        << " whose code is not known here (a function value "
                           "or an environment received from outside)";
}

//===----------------------------------------------------------------------===//
// Calls and closures
//===----------------------------------------------------------------------===//

FailureOr<Value> BodyBatcher::uniformLambda(OpBuilder &b,
                                            adj::LambdaOp lambda) {
  Location loc = lambda.getLoc();
  auto type =
      cast<adj::FnType>(Batching::batchedType(lambda.getType(), size_));
  auto uniform = adj::LambdaOp::create(b, loc, type);
  Block *block = new Block();
  uniform.getBody().push_back(block);
  SmallVector<Batched> args;
  for (Type t : type.getInputs())
    args.push_back(Batched{block->addArgument(t, loc), true});
  OpBuilder ub = OpBuilder::atBlockEnd(block);
  auto results = inlineBody(ub, lambda.getBody().front(), args);
  if (failed(results))
    return failure();
  SmallVector<Value> returned;
  for (Batched r : *results) {
    FailureOr<Value> v = toBatched(ub, loc, r);
    if (failed(v))
      return failure();
    returned.push_back(*v);
  }
  adj::ReturnOp::create(ub, loc, returned);
  return uniform.getResult();
}

FailureOr<SmallVector<Batched>>
BodyBatcher::inlineBody(OpBuilder &b, Block &body, ArrayRef<Batched> args) {
  for (auto [arg, v] : llvm::zip(body.getArguments(), args))
    set(arg, v);
  if (failed(transformOps(b, body)))
    return failure();
  return terminatorValues(b, body);
}

FailureOr<SmallVector<Batched>>
BodyBatcher::callFunction(OpBuilder &b, Location loc, adj::FuncOp f,
                          ArrayRef<Batched> args) {
  bool anyBatched = llvm::any_of(args, [](Batched a) { return a.batched; });
  bool returnsFunctions =
      llvm::any_of(f.getResultTypes(), containsFunction);
  SmallVector<Value> operands;
  if (!anyBatched && !returnsFunctions) {
    for (Batched a : args)
      operands.push_back(a.value);
    auto ref = adj::FuncRefOp::create(
        b, loc, adj::FnType::get(b.getContext(), f.getFunctionType()),
        f.getSymName());
    auto call = adj::CallOp::create(b, loc, f.getResultTypes(), ref, operands);
    SmallVector<Batched> out;
    for (Value r : call.getResults())
      out.push_back(Batched{r, false});
    return out;
  }
  // Function-valued arguments go in their batched form where they have one,
  // so that the callee may call them on batched values; one without (a
  // function received from outside) is passed as it is, shared, and only a
  // call of it on batched values in the callee is an error.
  SmallVector<bool> mask;
  for (Batched a : args) {
    Batched arg = a;
    if (!a.batched && containsFunction(a.value.getType()) &&
        hasBatchedForm(a.value)) {
      FailureOr<Value> v = toBatched(b, loc, a);
      if (failed(v))
        return failure();
      arg = Batched{*v, true};
    }
    operands.push_back(arg.value);
    mask.push_back(arg.batched);
  }
  adj::FuncOp spec = owner_.specialize(f, mask, size_);
  auto ref = adj::FuncRefOp::create(
      b, loc, adj::FnType::get(b.getContext(), spec.getFunctionType()),
      spec.getSymName());
  auto call =
      adj::CallOp::create(b, loc, spec.getResultTypes(), ref, operands);
  SmallVector<Batched> out;
  for (Value r : call.getResults())
    out.push_back(Batched{r, true});
  return out;
}

FailureOr<SmallVector<Batched>>
BodyBatcher::withCaptures(OpBuilder &b, adj::ClosureOp closure,
                          ArrayRef<Batched> args) {
  SmallVector<Batched> all;
  for (Value capture : closure.getCaptures()) {
    FailureOr<Batched> c = get(b, capture);
    if (failed(c))
      return failure();
    all.push_back(*c);
  }
  llvm::append_range(all, args);
  return all;
}

FailureOr<SmallVector<Batched>>
BodyBatcher::callInPlace(OpBuilder &b, Location loc, Value callee,
                         ArrayRef<Batched> args) {
  Operation *origin = originOf(callee);
  auto closure = dyn_cast_or_null<adj::ClosureOp>(origin);
  adj::FuncOp f;
  if (auto ref = dyn_cast_or_null<adj::FuncRefOp>(origin))
    f = owner_.symbols().lookup<adj::FuncOp>(ref.getCallee());
  else if (closure)
    f = owner_.symbols().lookup<adj::FuncOp>(closure.getCallee());
  // Lambdas are batched in place by call() already; an unknown callee gets
  // call()'s diagnostics.
  if (!f || f.getBody().empty())
    return call(b, loc, callee, args);
  if (!closure)
    return inlineBody(b, f.getBody().front(), args);
  auto all = withCaptures(b, closure, args);
  if (failed(all))
    return failure();
  return inlineBody(b, f.getBody().front(), *all);
}

FailureOr<SmallVector<Batched>> BodyBatcher::call(OpBuilder &b, Location loc,
                                                  Value callee,
                                                  ArrayRef<Batched> args) {
  Operation *origin = originOf(callee);
  if (auto lambda = dyn_cast_or_null<adj::LambdaOp>(origin))
    return inlineBody(b, lambda.getBody().front(), args);
  if (auto ref = dyn_cast_or_null<adj::FuncRefOp>(origin)) {
    auto f = owner_.symbols().lookup<adj::FuncOp>(ref.getCallee());
    if (!f)
      return ref.emitOpError("does not name an adj.func");
    return callFunction(b, loc, f, args);
  }
  if (auto closure = dyn_cast_or_null<adj::ClosureOp>(origin)) {
    auto f = owner_.symbols().lookup<adj::FuncOp>(closure.getCallee());
    if (!f)
      return closure.emitOpError("does not name an adj.func");
    auto all = withCaptures(b, closure, args);
    if (failed(all))
      return failure();
    return callFunction(b, loc, f, *all);
  }
  FailureOr<Batched> fn = get(b, callee);
  if (failed(fn))
    return failure();
  auto fnType = dyn_cast<adj::FnType>(fn->value.getType());
  if (!fnType)
    return emitError(loc) << "vmap: cannot call an untyped function value "
                             "(run -adj-infer first)";
  SmallVector<Value> operands;
  bool anyBatched = llvm::any_of(args, [](Batched a) { return a.batched; });
  if (!fn->batched && anyBatched)
    return emitError(loc)
           << "vmap: cannot batch a call of a function value whose code is "
              "not known here (a function received as an argument or from "
              "a call); batch the code that makes it instead";
  for (Batched a : args) {
    if (!fn->batched) {
      operands.push_back(a.value);
      continue;
    }
    FailureOr<Value> v = toBatched(b, loc, a);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  auto call =
      adj::CallOp::create(b, loc, fnType.getResults(), fn->value, operands);
  SmallVector<Batched> out;
  for (Value r : call.getResults())
    out.push_back(Batched{r, fn->batched});
  return out;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult BodyBatcher::transformOps(OpBuilder &b, Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(transformOp(b, op)))
      return failure();
  return success();
}

FailureOr<SmallVector<Batched>> BodyBatcher::terminatorValues(OpBuilder &b,
                                                              Block &block) {
  SmallVector<Batched> out;
  for (Value v : block.getTerminator()->getOperands()) {
    FailureOr<Batched> r = get(b, v);
    if (failed(r))
      return failure();
    out.push_back(*r);
  }
  return out;
}

LogicalResult BodyBatcher::transformOp(OpBuilder &b, Operation &op) {
  Location loc = op.getLoc();
  SmallVector<Batched> operands;
  auto getOperands = [&]() -> LogicalResult {
    for (Value v : op.getOperands()) {
      FailureOr<Batched> r = get(b, v);
      if (failed(r))
        return failure();
      operands.push_back(*r);
    }
    return success();
  };
  bool anyBatched = false;
  auto allToBatched = [&]() -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> out;
    for (Batched v : operands) {
      FailureOr<Value> r = toBatched(b, loc, v);
      if (failed(r))
        return failure();
      out.push_back(*r);
    }
    return out;
  };
  /// Clones `op` on unbatched operands: the op is the same for every
  /// example.
  auto shared = [&]() {
    IRMapping mapping;
    for (auto [v, o] : llvm::zip(op.getOperands(), operands))
      mapping.map(v, o.value);
    Operation *copy = b.clone(op, mapping);
    for (auto [r, c] : llvm::zip(op.getResults(), copy->getResults()))
      set(r, Batched{c, false});
    return success();
  };

  // Function values are made where they are used (see get()).
  if (isa<adj::LambdaOp, adj::FuncRefOp, adj::ClosureOp>(op))
    return success();
  if (isa<adj::GradOp, adj::ValueAndGradOp, adj::VjpOp, adj::JvpOp,
          adj::VmapOp>(op))
    return op.emitOpError("must be expanded before the code around it is "
                          "batched");
  if (auto ifOp = dyn_cast<adj::IfOp>(op))
    return transformIf(b, ifOp);
  if (isa<adj::ForOp, adj::WhileOp>(op))
    return transformLoop(b, &op);
  if (auto callOp = dyn_cast<adj::CallOp>(op)) {
    SmallVector<Batched> args;
    for (Value v : callOp.getArgs()) {
      FailureOr<Batched> r = get(b, v);
      if (failed(r))
        return failure();
      args.push_back(*r);
    }
    auto results = call(b, loc, callOp.getCallee(), args);
    if (failed(results))
      return failure();
    for (auto [r, v] : llvm::zip(callOp.getResults(), *results))
      set(r, v);
    return success();
  }
  if (isa<adj::EnvNewOp, adj::EnvGetOp, adj::EnvSetOp, adj::EnvAddOp>(op))
    return transformEnvOp(b, op);
  if (op.getNumRegions())
    return op.emitOpError("cannot be batched");
  if (failed(getOperands()))
    return failure();
  // A function with a derivative of its own becomes the same op on the
  // uniform batched forms of its functions, even when none of them is
  // batched: a later grad or jvp of the batched code then still uses the
  // (batched) custom rule or recomputes, and the batched result can be
  // called on batched arguments.
  if (isa<adj::CustomVjpOp, adj::CustomJvpOp, adj::CheckpointOp>(op)) {
    auto values = allToBatched();
    if (failed(values))
      return failure();
    Operation *copy = recreate(b, &op, *values, [&](Type t) {
      return Batching::batchedType(t, size_);
    });
    set(op.getResult(0), Batched{copy->getResult(0), true});
    return success();
  }
  anyBatched = llvm::any_of(operands, [](Batched v) { return v.batched; });
  if (!anyBatched)
    return shared();

  if (auto get = dyn_cast<adj::GetOp>(op)) {
    // Through a tuple built here, each element keeps its own batched-ness.
    if (auto tuple = get.getTuple().getDefiningOp<adj::TupleOp>()) {
      FailureOr<Batched> e =
          this->get(b, tuple.getElements()[get.getIndex()]);
      if (failed(e))
        return failure();
      set(get.getResult(), *e);
      return success();
    }
    set(get.getResult(),
        Batched{adj::GetOp::create(b, loc, operands[0].value,
                                   get.getIndexAttr()),
                true});
    return success();
  }
  if (isa<adj::TupleOp, adj::ZerosLikeOp, adj::GradAddOp>(op)) {
    // Result types follow the (batched) operands.
    auto values = allToBatched();
    if (failed(values))
      return failure();
    Operation *copy = recreate(b, &op, *values, [](Type t) { return t; });
    set(op.getResult(0), Batched{copy->getResult(0), true});
    return success();
  }
  const batching::BatchRule *rule = batching::lookupBatchRule(&op);
  if (!rule)
    return op.emitOpError("has no batching rule");
  rules::Emitter e(b, loc);
  auto results = (*rule)(e, &op, operands, size_);
  if (failed(results))
    return failure();
  for (auto [r, v] : llvm::zip(op.getResults(), *results))
    set(r, v);
  return success();
}

LogicalResult BodyBatcher::transformEnvOp(OpBuilder &b, Operation &op) {
  Location loc = op.getLoc();
  SmallVector<Batched> operands;
  for (Value v : op.getOperands()) {
    FailureOr<Batched> r = get(b, v);
    if (failed(r))
      return failure();
    operands.push_back(*r);
  }
  if (llvm::none_of(operands, [](Batched v) { return v.batched; })) {
    IRMapping mapping;
    for (auto [v, o] : llvm::zip(op.getOperands(), operands))
      mapping.map(v, o.value);
    set(op.getResult(0), Batched{b.clone(op, mapping)->getResult(0), false});
    return success();
  }
  // An environment with a batched entry holds every entry batched.
  SmallVector<Value> values;
  for (Batched v : operands) {
    FailureOr<Value> r = toBatched(b, loc, v);
    if (failed(r))
      return failure();
    values.push_back(*r);
  }
  Value result;
  if (auto get = dyn_cast<adj::EnvGetOp>(op))
    result = adj::EnvGetOp::create(
        b, loc, Batching::batchedType(get.getType(), size_), values[0],
        get.getKeyAttr());
  else
    result = recreate(b, &op, values, [](Type t) { return t; })->getResult(0);
  set(op.getResult(0), Batched{result, true});
  return success();
}
