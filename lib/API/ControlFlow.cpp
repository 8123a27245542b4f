//===- ControlFlow.cpp - Closures, calls, tuples, control flow and AD -----===//
//
// The ops with regions are built by running the user's C++ lambdas with the
// insertion point inside the region. A region's result types are those of
// the values its lambda returns, so ops whose result types depend on them
// (adj.lambda, adj.if) get their types once the regions are built. Branch
// results and loop-carried values take the join of their types (Type.h):
// the builder converts them, and rebuilds a loop whose body widens them.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Promotion.h"

#include "llvm/Support/raw_ostream.h"

using llvm::StringRef;
using llvm::dyn_cast;
using mlir::Operation;
using mlir::Block;
using mlir::Region;
using mlir::RankedTensorType;
using mlir::IntegerType;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

static std::vector<mlir::Type> typesOf(llvm::ArrayRef<Value> values) {
  std::vector<mlir::Type> types;
  for (const Value &v : values)
    types.push_back(v.mlir().getType());
  return types;
}

static std::string describe(llvm::ArrayRef<mlir::Type> types) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '(';
  llvm::interleaveComma(types, os);
  os << ')';
  return out;
}

static Block *addBlock(ModuleState &s, Region &region,
                       llvm::ArrayRef<mlir::Type> argTypes) {
  Block *block = new Block();
  region.push_back(block);
  for (mlir::Type t : argTypes)
    block->addArgument(t, s.loc());
  return block;
}

/// Runs `build`, erasing `op` if it throws.
template <typename F> static void buildOrErase(Operation *op, F &&build) {
  try {
    build();
  } catch (...) {
    op->erase();
    throw;
  }
}

//===----------------------------------------------------------------------===//
// Closures and calls
//===----------------------------------------------------------------------===//

Value detail::buildLambda(ModuleState &s,
                          const std::vector<mlir::Type> &inputs,
                          const BodyFn &body) {
  // The results are known once the body is built; the type is set then.
  OpSpec spec{"adj.lambda"};
  spec.resultTypes =
      std::vector<mlir::Type>{adj::FnType::get(&s.context, inputs, {})};
  spec.numRegions = 1;
  Operation *op = createOp(s, spec);
  buildOrErase(op, [&] {
    Block *block = addBlock(s, op->getRegion(0), inputs);
    BodyFn typed = [&](const std::vector<Value> &args) {
      std::vector<Value> results = body(args);
      for (const Value &v : results)
        if (!v || v.state() != &s)
          return results; // adj.return reports the bad operand.
      op->getResult(0).setType(
          adj::FnType::get(&s.context, inputs, typesOf(results)));
      return results;
    };
    buildRegion(s, block, typed, "adj.return");
  });
  verifyOrErase(s, op, {});
  return s.wrap(op->getResult(0));
}

Value detail::lambdaImpl(Module &m, const std::vector<Type> &params,
                         const BodyFn &body) {
  ModuleState &s = *m.state();
  std::vector<mlir::Type> inputs;
  for (const Type &t : params)
    inputs.push_back(s.mlirType(t));
  return buildLambda(s, inputs, body);
}

Values api::call(Value fn, const std::vector<Value> &args) {
  ModuleState &s = stateOf("adj.call", fn);
  auto fnType = dyn_cast<adj::FnType>(fn.mlir().getType());
  if (!fnType)
    throw Error("adj.call: the callee must be a function value, got " +
                describeTypes(fn));
  OpSpec spec{"adj.call", {fn}};
  llvm::append_range(spec.operands, args);
  spec.resultTypes = std::vector<mlir::Type>(fnType.getResults());
  Operation *op = createOp(s, spec);
  Values results;
  for (mlir::Value r : op->getResults())
    results.push_back(s.wrap(r));
  return results;
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

Value api::make_tuple(const std::vector<Value> &elements) {
  if (elements.empty())
    throw Error("adj.tuple: the empty tuple needs the Module overload");
  return createValue(stateOf("adj.tuple", elements.front()),
                     {"adj.tuple", elements});
}

Value api::make_tuple(Module &m, const std::vector<Value> &elements) {
  return createValue(*m.state(), {"adj.tuple", elements});
}

Value api::get(Value tuple, int64_t index) {
  ModuleState &s = stateOf("adj.get", tuple);
  if (auto type = dyn_cast<adj::TupleType>(tuple.mlir().getType()))
    if (index < 0)
      index += static_cast<int64_t>(type.size());
  OpSpec spec{"adj.get", {tuple}};
  spec.attributes.push_back(
      s.builder.getNamedAttr("index", s.builder.getI64IntegerAttr(index)));
  return createValue(s, spec);
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

static Values resultsOf(ModuleState &s, Operation *op) {
  Values results;
  for (mlir::Value r : op->getResults())
    results.push_back(s.wrap(r));
  return results;
}

/// The join of the types two places give (branch results, carried values
/// before and after the body), or an error message naming `what` when some
/// do not join.
static std::vector<mlir::Type> joinAll(llvm::ArrayRef<mlir::Type> a,
                                       llvm::ArrayRef<mlir::Type> b,
                                       const std::string &mismatch,
                                       std::string &error) {
  std::vector<mlir::Type> joined;
  if (a.size() != b.size()) {
    error = mismatch + ": " + std::to_string(a.size()) + " values and " +
            std::to_string(b.size()) + " values";
    return joined;
  }
  for (auto [i, x, y] : llvm::enumerate(a, b)) {
    mlir::Type t = adj::joinTypes(x, y);
    if (!t) {
      error = mismatch + " (#" + std::to_string(i) + "): " + describe(a) +
              " and " + describe(b);
      return {};
    }
    joined.push_back(t);
  }
  return joined;
}

/// Converts the operands of `terminator` to `types` (their joins), with the
/// conversions inserted just before it.
static void convertYielded(ModuleState &s, Operation *terminator,
                           llvm::ArrayRef<mlir::Type> types) {
  mlir::OpBuilder::InsertionGuard guard(s.builder);
  s.builder.setInsertionPoint(terminator);
  for (auto [i, type] : llvm::enumerate(types)) {
    mlir::Value v = terminator->getOperand(i);
    if (v.getType() != type)
      terminator->setOperand(
          i, convertTo(s.wrap(v), Type::fromMLIR(type)).mlir());
  }
}

Values detail::ifImpl(Value cond, const BodyFn &thenBody,
                      const BodyFn &elseBody) {
  ModuleState &s = stateOf("adj.if", cond);
  // The result types are the joins of what the branches yield: build the
  // regions in a result-less adj.if, convert each branch's results to the
  // joins, then move the regions into an adj.if with those results.
  OpSpec spec{"adj.if", {cond}};
  spec.resultTypes = std::vector<mlir::Type>{};
  spec.numRegions = 2;
  Operation *draft = createOp(s, spec);
  std::vector<Value> thenValues, elseValues;
  buildOrErase(draft, [&] {
    thenValues =
        buildRegion(s, addBlock(s, draft->getRegion(0), {}), thenBody,
                    "adj.yield");
    elseValues =
        buildRegion(s, addBlock(s, draft->getRegion(1), {}), elseBody,
                    "adj.yield");
  });
  // The message is made before the draft (and the values in it) is erased.
  std::string error;
  std::vector<mlir::Type> types =
      joinAll(typesOf(thenValues), typesOf(elseValues),
              "adj.if: the branches yield types that do not join", error);
  if (!error.empty()) {
    draft->erase();
    throw Error(error);
  }
  buildOrErase(draft, [&] {
    for (Region &region : draft->getRegions())
      convertYielded(s, region.front().getTerminator(), types);
  });
  spec.resultTypes = types;
  Operation *op = createOp(s, spec);
  op->getRegion(0).takeBody(draft->getRegion(0));
  op->getRegion(1).takeBody(draft->getRegion(1));
  draft->erase();
  verifyOrErase(s, op, {cond});
  return resultsOf(s, op);
}

Value detail::indexScalar(Value like, int64_t value) {
  return makeConstant(stateOf("adj.for", like), {static_cast<double>(value)},
                      {}, DType::I64, "adj.for");
}

/// The most times a loop is rebuilt with wider carried types.
static constexpr unsigned kMaxLoopWidenings = 8;

/// Builds a loop op whose carried values take the join of their types: the
/// op is built by `build` for the current carried values, which returns the
/// op and its body's terminator; when the body yields types wider than the
/// carried ones, the op is erased, the initial values are converted to the
/// joins and the op is built again (the lattice is finite, so this ends).
/// Yielded values narrower than the carried ones are converted in the body.
template <typename BuildFn>
static Values buildLoop(ModuleState &s, StringRef name,
                        std::vector<Value> inits, BuildFn &&build) {
  for (unsigned attempt = 0;; ++attempt) {
    std::vector<mlir::Type> carried = typesOf(inits);
    auto [op, terminator] = build(inits, carried);
    std::vector<mlir::Type> yielded;
    for (mlir::Value v : terminator->getOperands())
      yielded.push_back(v.getType());
    std::string error;
    std::vector<mlir::Type> joined = joinAll(
        carried, yielded,
        name.str() + ": a loop-carried value changes type in the body to "
                     "one that does not join",
        error);
    if (error.empty() && joined == carried) {
      buildOrErase(op, [&] { convertYielded(s, terminator, carried); });
      verifyOrErase(s, op, inits);
      return resultsOf(s, op);
    }
    if (error.empty() && attempt + 1 == kMaxLoopWidenings)
      error = name.str() + ": the loop-carried types keep widening: " +
              describe(carried) + " to " + describe(joined);
    op->erase();
    if (!error.empty())
      throw Error(error);
    for (size_t i = 0; i < inits.size(); ++i)
      inits[i] = convertTo(inits[i], Type::fromMLIR(joined[i]));
  }
}

Values detail::forImpl(Value lb, Value ub, Value step,
                       const std::vector<Value> &inits, const BodyFn &body) {
  ModuleState &s = stateOf("adj.for", lb);
  return buildLoop(
      s, "adj.for", inits,
      [&](const std::vector<Value> &current,
          const std::vector<mlir::Type> &carried) {
        OpSpec spec{"adj.for", {lb, ub, step}};
        llvm::append_range(spec.operands, current);
        spec.resultTypes = carried;
        spec.numRegions = 1;
        Operation *op = createOp(s, spec);
        Operation *terminator = nullptr;
        buildOrErase(op, [&] {
          std::vector<mlir::Type> argTypes{
              RankedTensorType::get({}, IntegerType::get(&s.context, 64))};
          llvm::append_range(argTypes, carried);
          Block *block = addBlock(s, op->getRegion(0), argTypes);
          buildRegion(s, block, body, "adj.yield");
          terminator = block->getTerminator();
        });
        return std::pair{op, terminator};
      });
}

Values detail::whileImpl(const std::vector<Value> &inits, const BodyFn &cond,
                         const BodyFn &body) {
  if (inits.empty())
    throw Error("adj.while: needs at least one carried value");
  ModuleState &s = stateOf("adj.while", inits.front());
  return buildLoop(
      s, "adj.while", inits,
      [&](const std::vector<Value> &current,
          const std::vector<mlir::Type> &carried) {
        OpSpec spec{"adj.while", current};
        spec.resultTypes = carried;
        spec.numRegions = 2;
        Operation *op = createOp(s, spec);
        Operation *terminator = nullptr;
        buildOrErase(op, [&] {
          buildRegion(s, addBlock(s, op->getRegion(0), carried), cond,
                      "adj.yield");
          Block *block = addBlock(s, op->getRegion(1), carried);
          buildRegion(s, block, body, "adj.yield");
          terminator = block->getTerminator();
        });
        return std::pair{op, terminator};
      });
}

//===----------------------------------------------------------------------===//
// Automatic differentiation requests
//===----------------------------------------------------------------------===//

static Value adRequest(StringRef op, Value fn, const ADOptions &options,
                       bool allowCustomSens) {
  ModuleState &s = stateOf(op, fn);
  if (options.customSens && !allowCustomSens)
    throw Error(op.str() + ": custom_sens applies to adj.grad and "
                           "adj.value_and_grad only");
  OpSpec spec{op, {fn}};
  if (options.wrt)
    spec.attributes.push_back(s.builder.getNamedAttr(
        "wrt", s.builder.getDenseI64ArrayAttr(*options.wrt)));
  if (options.customSens)
    spec.attributes.push_back(
        s.builder.getNamedAttr("custom_sens", s.builder.getUnitAttr()));
  return createValue(s, spec);
}

/// The zero sensitivity of `v`.
static Value zerosLike(ModuleState &s, const Value &v) {
  return createValue(s, OpSpec{"adj.zeros_like", {v}});
}

/// grad, value_and_grad or vjp of `fn: (A...) -> (R, Aux...)` where only R
/// is differentiated: vjp(fn) called with a zero sensitivity for each Aux,
/// inside a closure of the request's shape with the Aux values appended
/// (grad) or following R (value_and_grad, vjp).
static Value withAux(StringRef op, Value fn, ADOptions options) {
  ModuleState &s = stateOf(op, fn);
  auto fnType = dyn_cast<adj::FnType>(fn.mlir().getType());
  if (!fnType || adj::containsAny(fnType))
    throw Error(op.str() + ": has_aux needs a typed function, got " +
                describeTypes({fn}));
  if (fnType.getResults().empty())
    throw Error(op.str() + ": has_aux needs a function with a result to "
                           "differentiate followed by auxiliary results");
  bool isVjp = op == "adj.vjp";
  bool customSens = options.customSens;
  options.hasAux = false;
  options.customSens = false;
  Value pullback = adRequest("adj.vjp", fn, options, false);
  std::vector<mlir::Type> inputs(fnType.getInputs().begin(),
                                 fnType.getInputs().end());
  size_t numArgs = inputs.size();
  if (customSens)
    inputs.push_back(adj::getSensitivityType(fnType.getResults().front()));
  return buildLambda(s, inputs, [&](const std::vector<Value> &params) {
    std::vector<Value> args(params.begin(), params.begin() + numArgs);
    Values out = call(pullback, args);
    Value value = out.front();
    std::vector<Value> aux(out.begin() + 1, out.end() - 1);
    Value back = out.back();
    auto pull = [&, back](Value dout) {
      std::vector<Value> douts{dout};
      for (const Value &a : aux)
        douts.push_back(zerosLike(s, a));
      return call(back, douts);
    };
    std::vector<Value> results;
    if (isVjp) {
      results.push_back(value);
      llvm::append_range(results, aux);
      std::vector<mlir::Type> sens{
          adj::getSensitivityType(value.mlir().getType())};
      results.push_back(buildLambda(
          s, sens, [&](const std::vector<Value> &d) { return pull(d[0]); }));
      return results;
    }
    Value dout = customSens ? params.back() : zerosLike(s, value) + 1.0;
    Values grads = pull(dout);
    if (op == "adj.value_and_grad") {
      results.push_back(value);
      llvm::append_range(results, aux);
      llvm::append_range(results, grads);
    } else {
      results = grads;
      llvm::append_range(results, aux);
    }
    return results;
  });
}

Value api::grad(Value fn, const ADOptions &options) {
  if (options.hasAux)
    return withAux("adj.grad", fn, options);
  return adRequest("adj.grad", fn, options, true);
}
Value api::value_and_grad(Value fn, const ADOptions &options) {
  if (options.hasAux)
    return withAux("adj.value_and_grad", fn, options);
  return adRequest("adj.value_and_grad", fn, options, true);
}
Value api::vjp(Value fn, const ADOptions &options) {
  if (options.hasAux) {
    if (options.customSens)
      throw Error("adj.vjp: custom_sens applies to adj.grad and "
                  "adj.value_and_grad only");
    return withAux("adj.vjp", fn, options);
  }
  return adRequest("adj.vjp", fn, options, false);
}
Value api::jvp(Value fn, const ADOptions &options) {
  if (options.hasAux)
    throw Error("adj.jvp: has_aux applies to grad, value_and_grad and vjp");
  return adRequest("adj.jvp", fn, options, false);
}
