//===- InferCalls.cpp - -adj-infer: values, types and calls --------------===//
//
// How the abstract interpreter reads and writes abstract values, turns them
// into types, and resolves calls to bodies: one body per signature for a
// top-level function (monomorphization), closures cloned in place, AD
// requests typed from the function they differentiate.
//
//===----------------------------------------------------------------------===//

#include "InferImpl.h"

using namespace mlir;
using namespace adjoint::adj;
using namespace adjoint::adj::infer;

//===----------------------------------------------------------------------===//
// Values and types
//===----------------------------------------------------------------------===//

Abs Inferrer::get(Value value) {
  auto it = values.find(value);
  if (it != values.end())
    return it->second;
  return fromType(value.getType());
}

SmallVector<Abs> Inferrer::get(ValueRange range) {
  SmallVector<Abs> out;
  for (Value v : range)
    out.push_back(get(v));
  return out;
}

void Inferrer::set(Value value, const Abs &abs) {
  values[value] = abs;
  value.setType(concrete(abs));
}

FnType Inferrer::lambdaDeclared(LambdaOp lambda) {
  auto it = lambdaTemplates.find(lambda);
  if (it == lambdaTemplates.end())
    return lambda.getFnType();
  return cast<LambdaOp>(it->second).getFnType();
}

Type Inferrer::signatureOf(const Producer &p, Operation *reportAt,
                           unsigned depth) {
  Type any = AnyType::get(ctx);
  auto fromBody = [&](Body *body) -> Type {
    if (!body || !body->results)
      return any;
    return FnType::get(ctx, concrete(body->args, reportAt, depth + 1),
                       concrete(*body->results, reportAt, depth + 1));
  };
  switch (p.kind) {
  case Producer::Kind::Opaque:
    return p.type;
  case Producer::Kind::FuncRef:
    return fromBody(refTargets.lookup(p.op));
  case Producer::Kind::Lambda: {
    auto it = lambdaBodies.find(p.op);
    return fromBody(it == lambdaBodies.end() ? nullptr : it->second.get());
  }
  case Producer::Kind::Request: {
    if (FnType t = requestTypes.lookup(p.op))
      return t;
    return any;
  }
  }
  return any;
}

Type Inferrer::concrete(const Abs &abs, Operation *reportAt, unsigned depth) {
  Type any = AnyType::get(ctx);
  if (depth > kMaxTypeDepth)
    return any;
  switch (abs->kind) {
  case AbsNode::Kind::Unknown:
    return any;
  case AbsNode::Kind::Leaf:
    return abs->type;
  case AbsNode::Kind::Tuple:
    return adjoint::adj::TupleType::get(ctx, concrete(abs->elements, reportAt, depth + 1));
  case AbsNode::Kind::Fn: {
    Type common;
    for (const Producer &p : abs->producers) {
      Type t = signatureOf(p, reportAt, depth);
      if (!common) {
        common = t;
      } else if (t != common) {
        if (reportAt && !containsAny(t) && !containsAny(common)) {
          reportAt->emitError()
              << "function values of different types meet here: " << common
              << " and " << t;
          fail();
        }
        return any;
      }
    }
    return common ? common : any;
  }
  }
  return any;
}

SmallVector<Type> Inferrer::concrete(ArrayRef<Abs> range, Operation *reportAt,
                                     unsigned depth) {
  SmallVector<Type> out;
  for (const Abs &a : range)
    out.push_back(concrete(a, reportAt, depth));
  return out;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

bool Inferrer::checkArgs(Operation *at, StringRef what, ArrayRef<Abs> args,
                         ArrayRef<Type> declared) {
  if (args.size() != declared.size()) {
    at->emitError() << what << " takes " << declared.size()
                    << " arguments, but is called with " << args.size();
    fail();
    return false;
  }
  for (auto [i, arg, type] : llvm::enumerate(args, declared)) {
    Type actual = concrete(arg);
    if (containsAny(actual) || areCompatible(actual, type))
      continue;
    at->emitError() << what << ": argument #" << i << " has type " << actual
                    << " but the parameter has type " << type;
    fail();
    return false;
  }
  return true;
}

/// Declared parameter types win over the call's: a typed function keeps its
/// signature (dynamic sizes included) however it is called.
SmallVector<Abs> Inferrer::withDeclared(ArrayRef<Abs> args,
                                        ArrayRef<Type> declared) {
  SmallVector<Abs> out;
  for (auto [arg, type] : llvm::zip(args, declared))
    out.push_back(containsAny(type) ? arg : fromType(type));
  return out;
}

Results Inferrer::runBody(Body &body, Region &region,
                          ArrayRef<Type> declaredArgs,
                          ArrayRef<Type> declaredResults) {
  // A body on the stack is a recursive call: answer with what is known.
  if (body.onStack || (body.round == round && body.epoch == epoch))
    return body.results;
  body.onStack = true;
  body.round = round;
  body.epoch = epoch;
  Block &entry = region.front();
  for (auto [arg, abs] : llvm::zip(entry.getArguments(), body.args))
    set(arg, abs);
  interpretBlock(entry);
  body.onStack = false;
  if (hadError)
    return std::nullopt;
  auto ret = cast<ReturnOp>(entry.getTerminator());
  SmallVector<Abs> results = get(ret.getOperands());
  if (results.size() != declaredResults.size()) {
    ret.emitError() << "returns " << results.size()
                    << " values, but the function declares "
                    << declaredResults.size();
    fail();
    return std::nullopt;
  }
  for (auto [i, abs, type] : llvm::enumerate(results, declaredResults)) {
    Type actual = concrete(abs);
    if (!containsAny(actual) && !areCompatible(actual, type)) {
      ret.emitError() << "returns " << actual << " as result #" << i
                      << ", but the function declares " << type;
      fail();
      return std::nullopt;
    }
    if (!containsAny(type))
      abs = fromType(type);
  }
  if (keyOfResults(body.results) != keyOfResults(Results(results)))
    changed = true;
  body.results = results;
  (void)declaredArgs;
  return body.results;
}

Body *Inferrer::getFunctionBody(StringRef name, ArrayRef<Abs> callArgs,
                                Operation *at) {
  FuncOp tmpl = funcTemplates.lookup(name);
  if (!tmpl) {
    at->emitError() << "'@" << name << "' is not an adj.func";
    fail();
    return nullptr;
  }
  std::string what = ("@" + name).str();
  if (!checkArgs(at, what, callArgs, tmpl.getArgumentTypes()))
    return nullptr;
  SmallVector<Abs> args = withDeclared(callArgs, tmpl.getArgumentTypes());
  std::string key = (name + "|" + keyOfList(args)).str();
  std::unique_ptr<Body> &body = functionBodies[key];
  if (body)
    return body.get();
  unsigned count = specializations[name]++;
  if (count >= kMaxSpecializations) {
    at->emitError() << "too many specializations of @" << name
                    << ": its argument types keep changing (recursion at "
                       "ever new types?)";
    fail();
    return nullptr;
  }
  body = std::make_unique<Body>();
  body->args = args;
  changed = true;
  if (count == 0) {
    body->op = symbols.lookup<FuncOp>(name);
    return body.get();
  }
  FuncOp clone = tmpl.clone();
  std::string cloneName;
  for (unsigned i = count;; ++i) {
    cloneName = (name + "_" + Twine(i)).str();
    if (!symbols.lookup(cloneName))
      break;
  }
  clone.setSymName(cloneName);
  SymbolTable::setSymbolVisibility(clone, SymbolTable::Visibility::Private);
  Operation *after = lastOfName.lookup(name);
  if (!after)
    after = symbols.lookup(name);
  module.getBody()->getOperations().insert(
      std::next(Block::iterator(after)), clone);
  symbols.insert(clone);
  lastOfName[name] = clone;
  body->op = clone;
  return body.get();
}

Results Inferrer::applyFuncRef(FuncRefOp ref, ArrayRef<Abs> args,
                               OpOperand *use, Operation *at) {
  StringAttr origin = refOrigins.lookup(ref);
  if (!origin)
    origin = ref.getCalleeAttr().getAttr();
  Body *body = getFunctionBody(origin, args, at);
  if (!body)
    return std::nullopt;
  Operation *producer = ref;
  Body *&target = refTargets[ref];
  if (!target) {
    target = body;
    ref.setCallee(cast<FuncOp>(body->op).getSymName());
    changed = true;
  } else if (target != body) {
    // The same func_ref reaches a call at another signature: when it is the
    // callee itself, a second func_ref names the other specialization.
    if (!use || use->get() != ref.getResult()) {
      at->emitError() << "the function value @" << origin.getValue()
                      << " reaches calls at two signatures through other "
                         "values; pass it separately to each";
      fail();
      return std::nullopt;
    }
    Operation *&clone = producerClones[{ref, keyOfList(body->args)}];
    if (!clone) {
      OpBuilder builder(ref);
      builder.setInsertionPointAfter(ref);
      auto copy = cast<FuncRefOp>(builder.clone(*ref));
      copy.setCallee(cast<FuncOp>(body->op).getSymName());
      refTargets[copy] = body;
      refOrigins[copy] = origin;
      clone = copy;
      changed = true;
    }
    producer = clone;
    set(clone->getResult(0),
        fn(Producer{Producer::Kind::FuncRef, clone, {}}));
    seenProducers.insert(clone);
    use->set(clone->getResult(0));
  }
  (void)producer;
  FuncOp func = cast<FuncOp>(body->op);
  FuncOp tmpl = funcTemplates.lookup(origin);
  return runBody(*body, func.getBody(), tmpl.getArgumentTypes(),
                 tmpl.getResultTypes());
}

Results Inferrer::applyLambda(LambdaOp lambda, ArrayRef<Abs> callArgs,
                              OpOperand *use, Operation *at) {
  FnType declared = lambdaDeclared(lambda);
  if (!checkArgs(at, "the closure", callArgs, declared.getInputs()))
    return std::nullopt;
  SmallVector<Abs> args = withDeclared(callArgs, declared.getInputs());
  std::unique_ptr<Body> &body = lambdaBodies[lambda];
  if (!body) {
    body = std::make_unique<Body>();
    body->op = lambda;
    body->args = args;
    changed = true;
  } else if (keyOfList(body->args) != keyOfList(args)) {
    if (!use || use->get() != lambda.getResult()) {
      at->emitError() << "a closure reaches calls at two signatures, ("
                      << keyOfList(body->args) << ") and (" << keyOfList(args)
                      << "), through other values; make one closure for "
                         "each";
      fail();
      return std::nullopt;
    }
    // A closure called at a second signature: a copy next to it, over the
    // same free variables, takes that signature.
    Operation *&clone = producerClones[{lambda, keyOfList(args)}];
    if (!clone) {
      Operation *tmpl = lambdaTemplates.lookup(lambda);
      OpBuilder builder(lambda);
      builder.setInsertionPointAfter(lambda);
      clone = builder.clone(*tmpl);
      lambdaTemplates[clone] = tmpl;
      auto cloneBody = std::make_unique<Body>();
      cloneBody->op = clone;
      cloneBody->args = args;
      lambdaBodies[clone] = std::move(cloneBody);
      changed = true;
    }
    set(clone->getResult(0), fn(Producer{Producer::Kind::Lambda, clone, {}}));
    seenProducers.insert(clone);
    use->set(clone->getResult(0));
    return runBody(*lambdaBodies[clone], clone->getRegion(0),
                   declared.getInputs(), declared.getResults());
  }
  return runBody(*body, lambda.getBody(), declared.getInputs(),
                 declared.getResults());
}

Results Inferrer::applyRequest(Operation *request, ArrayRef<Abs> args,
                               Operation *at) {
  Abs inner = get(request->getOperand(0));
  if (inner->kind == AbsNode::Kind::Unknown)
    return std::nullopt;
  // The primal arguments lead; sensitivities and tangents follow them.
  size_t primal = args.size();
  if (isa<GradOp, ValueAndGradOp>(request) &&
      request->hasAttr("custom_sens") && primal > 0)
    --primal;
  if (isa<JvpOp>(request)) {
    auto wrt = cast<JvpOp>(request).getWrt();
    primal = wrt ? args.size() - std::min(args.size(), wrt->size())
                 : args.size() / 2;
  }
  Results results = apply(inner, args.take_front(primal),
                          &request->getOpOperand(0), request);
  if (!results || hasUnknown(*results) || hadError)
    return std::nullopt;
  auto innerType =
      FnType::get(ctx, concrete(args.take_front(primal)), concrete(*results));
  if (containsAny(innerType))
    return std::nullopt;
  request->getOperand(0).setType(innerType);
  SmallVector<Type> inferred;
  auto iface = cast<InferTypeOpInterface>(request);
  if (failed(iface.inferReturnTypes(
          ctx, request->getLoc(), request->getOperands(),
          request->getAttrDictionary(), request->getPropertiesStorage(),
          request->getRegions(), inferred))) {
    fail();
    return std::nullopt;
  }
  auto type = cast<FnType>(inferred.front());
  FnType &known = requestTypes[request];
  if (known && known != type) {
    at->emitError() << "the function made by '" << request->getName()
                    << "' is called at two signatures: " << known << " and "
                    << type;
    fail();
    return std::nullopt;
  }
  if (!known)
    changed = true;
  known = type;
  set(request->getResult(0),
      fn(Producer{Producer::Kind::Request, request, {}}));
  if (!checkArgs(at, "the differentiated function", args, type.getInputs()))
    return std::nullopt;
  return fromTypes(type.getResults());
}

Results Inferrer::apply(const Abs &callee, ArrayRef<Abs> args, OpOperand *use,
                        Operation *at) {
  if (hadError || callee->kind == AbsNode::Kind::Unknown || hasUnknown(args))
    return std::nullopt;
  if (callee->kind != AbsNode::Kind::Fn) {
    at->emitError() << "calls a value of type " << describe(callee)
                    << ", which is not a function";
    fail();
    return std::nullopt;
  }
  Results joined;
  for (const Producer &p : callee->producers) {
    // Only a single producer can be replaced by a copy at this call.
    OpOperand *direct = callee->producers.size() == 1 ? use : nullptr;
    Results r;
    switch (p.kind) {
    case Producer::Kind::Opaque: {
      auto type = cast<FnType>(p.type);
      if (!checkArgs(at, "the function value", args, type.getInputs()))
        return std::nullopt;
      r = fromTypes(type.getResults());
      break;
    }
    case Producer::Kind::FuncRef:
      r = applyFuncRef(cast<FuncRefOp>(p.op), args, direct, at);
      break;
    case Producer::Kind::Lambda:
      r = applyLambda(cast<LambdaOp>(p.op), args, direct, at);
      break;
    case Producer::Kind::Request:
      r = applyRequest(p.op, args, at);
      break;
    }
    if (hadError)
      return std::nullopt;
    if (!r)
      continue;
    if (!joined) {
      joined = r;
      continue;
    }
    if (joined->size() != r->size()) {
      at->emitError() << "the possible callees return " << joined->size()
                      << " and " << r->size() << " values";
      fail();
      return std::nullopt;
    }
    for (auto [i, j, x] : llvm::enumerate(*joined, *r)) {
      Abs both = join(j, x);
      if (!both) {
        at->emitError() << "the possible callees return different types as "
                           "result #"
                        << i << ": " << describe(j) << " and " << describe(x);
        fail();
        return std::nullopt;
      }
      j = both;
    }
  }
  return joined;
}

