//===- Structure.cpp - Closures, tuples, environments, primitives ---------===//
//
// Everything the interpreter evaluates off the recursive path: free
// variables and frame slots of callables, function values, tuples,
// environments and sensitivities, and the dispatch of tensor primitives to
// their kernel families with a check of the result against its type.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

static std::string typeToString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

//===----------------------------------------------------------------------===//
// Callables and free variables
//===----------------------------------------------------------------------===//

const CallableInfo &Interpreter::Impl::infoFor(Operation *callable) {
  auto &slot = callables[callable];
  if (slot)
    return *slot;
  auto info = std::make_unique<CallableInfo>();
  Region &body = callable->getRegion(0);
  info->body = &body.front();

  // Free variables: operands anywhere inside (nested lambdas included)
  // defined outside the body region. A FuncOp is isolated: it has none.
  if (isa<adj::LambdaOp>(callable)) {
    llvm::DenseSet<mlir::Value> seen;
    SmallVector<Region *> regions{&body};
    // Preserve first-use order: visit blocks in order with a stack of
    // (region) and process ops before their nested regions are pushed.
    while (!regions.empty()) {
      Region *region = regions.pop_back_val();
      SmallVector<Region *> nested;
      for (Block &block : region->getBlocks())
        for (Operation &op : block.getOperations()) {
          for (mlir::Value operand : op.getOperands())
            if (!body.isAncestor(operand.getParentRegion()) &&
                seen.insert(operand).second)
              info->freeVars.push_back(operand);
          for (Region &r : op.getRegions())
            nested.push_back(&r);
        }
      regions.append(nested.rbegin(), nested.rend());
    }
  }

  auto add = [&](mlir::Value v) {
    info->slots.try_emplace(v, static_cast<unsigned>(info->slots.size()));
  };
  for (mlir::Value v : info->freeVars)
    add(v);
  // Slots for everything this activation evaluates: block arguments and
  // results of its ops, through if/for/while regions but not into nested
  // lambdas (their bodies run in their own frames).
  SmallVector<Region *> regions{&body};
  while (!regions.empty()) {
    Region *region = regions.pop_back_val();
    for (Block &block : region->getBlocks()) {
      for (BlockArgument arg : block.getArguments())
        add(arg);
      for (Operation &op : block.getOperations()) {
        for (mlir::Value result : op.getResults())
          add(result);
        if (!isa<adj::LambdaOp>(op))
          for (Region &r : op.getRegions())
            regions.push_back(&r);
      }
    }
  }
  slot = std::move(info);
  return *slot;
}


//===----------------------------------------------------------------------===//
// Calls and blocks
//===----------------------------------------------------------------------===//

/// Why `value` cannot have type `type`, or "" when it can.
std::string adjoint::interp::detail::typeMismatch(const interp::Value &value,
                                                Type type) {
  if (isa<adj::AnyType>(type))
    return "";
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    if (!value.isTensor())
      return "expected " + typeToString(type);
    const Tensor &t = value.tensor();
    bool ok = t.rank() == tensorType.getRank() &&
              dtypeOf(tensorType.getElementType()) == t.dtype();
    for (int64_t d = 0; ok && d < t.rank(); ++d)
      ok = tensorType.isDynamicDim(d) ||
           tensorType.getDimSize(d) == t.shape()[d];
    if (ok)
      return "";
    return "expected " + typeToString(type) + ", got " + t.typeString();
  }
  if (auto tupleType = dyn_cast<adj::TupleType>(type)) {
    if (!value.isTuple() || value.elements().size() != tupleType.size())
      return "expected " + typeToString(type);
    for (size_t i = 0; i < tupleType.size(); ++i) {
      std::string inner =
          typeMismatch(value.elements()[i], tupleType.getTypes()[i]);
      if (!inner.empty())
        return "tuple element #" + std::to_string(i) + ": " + inner;
    }
    return "";
  }
  if (isa<adj::FnType>(type))
    return value.isFunction() ? "" : "expected " + typeToString(type);
  if (isa<adj::EnvType>(type))
    return value.isEnv() ? "" : "expected " + typeToString(type);
  return "values of type " + typeToString(type) + " are not supported";
}

// The functions on the recursive path (callFunction, evalBlock, evalOp,
// evalCall, evalIf) keep their frames small: errors and argument checks live
// in out-of-line functions, so that their temporaries are not part of every
// call level.


//===----------------------------------------------------------------------===//
// Everything else (not on the recursive path)
//===----------------------------------------------------------------------===//

LLVM_ATTRIBUTE_NOINLINE void Interpreter::Impl::evalOther(Operation *op,
                                                          Frame &frame) {
  if (evalMultiResult(op, frame))
    return;
  if (op->getNumResults() != 1)
    fail(op, "is not supported by the interpreter");
  // Identities, and function values that compute their first operand: the
  // derivatives they define are -adj-grad's business.
  if (isa<adj::StopGradientOp, adj::OptimizationBarrierOp, adj::CustomVjpOp,
          adj::CustomJvpOp, adj::CheckpointOp>(op)) {
    interp::Value input = frame[op->getOperand(0)];
    frame[op->getResult(0)] = std::move(input);
    return;
  }
  if (isa<adj::AdjDialect>(op->getDialect()) &&
      (isa<adj::FuncRefOp, adj::LambdaOp, adj::ClosureOp, adj::TupleOp,
           adj::GetOp,
           adj::ZerosLikeOp, adj::GradAddOp, adj::EnvNewOp, adj::EnvGetOp,
           adj::EnvSetOp, adj::EnvAddOp, adj::GradOp, adj::ValueAndGradOp,
           adj::VjpOp, adj::JvpOp, adj::VmapOp>(op))) {
    frame[op->getResult(0)] = evalStructural(op, frame);
    return;
  }
  if (isa<adj::ConstantOp>(op)) {
    auto it = constants.find(op);
    if (it == constants.end())
      it = constants.try_emplace(op, evalPrimitive(op, frame)).first;
    frame[op->getResult(0)] = it->second;
    return;
  }
  frame[op->getResult(0)] = evalPrimitive(op, frame);
}

std::vector<Tensor> Interpreter::Impl::tensorOperands(Operation *op,
                                                      Frame &frame) {
  std::vector<Tensor> operands;
  operands.reserve(op->getNumOperands());
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    const interp::Value &v = frame[operand];
    if (!v.isTensor())
      fail(op, "operand #" + Twine(i) + " must be a tensor");
    operands.push_back(v.tensor());
  }
  return operands;
}

bool Interpreter::Impl::evalMultiResult(Operation *op, Frame &frame) {
  // Every decomposition, cholesky's one result included.
  if (!op->hasTrait<adj::trait::MatrixDecomposition>())
    return false;
  std::optional<std::vector<Tensor>> results;
  try {
    results = evalLinearAlgebra(op, tensorOperands(op, frame));
  } catch (const AllocationError &e) {
    fail(op, e.what());
  }
  if (!results)
    return false;
  for (auto [result, value] : llvm::zip(op->getResults(), *results)) {
    std::string why = typeMismatch(value, result.getType());
    if (!why.empty())
      fail(op, "the result does not match its type: " + why);
    frame[result] = std::move(value);
  }
  return true;
}

Tensor Interpreter::Impl::evalPrimitive(Operation *op, Frame &frame) {
  if (!isa_and_nonnull<adj::AdjDialect>(op->getDialect()))
    fail(op, "is not an adj op; the interpreter runs adj IR only");
  std::vector<Tensor> operands = tensorOperands(op, frame);
  std::optional<Tensor> result;
  try {
    // The two families of BroadcastingElementwise ops.
    if (op->hasTrait<adj::trait::BroadcastingElementwise>()) {
      result = evalElementwise(op, operands);
      if (!result)
        result = evalBits(op, operands);
    } else {
      result = evalReductions(op, operands);
      if (!result)
        result = evalContraction(op, operands);
      if (!result)
        result = evalMovement(op, operands);
      if (!result)
        result = evalConvolution(op, operands);
      if (!result)
        result = evalCreation(op, operands);
      if (!result)
        result = evalFourier(op, operands);
    }
  } catch (const AllocationError &e) {
    // The kernels allocate without knowing the op: name it here.
    fail(op, e.what());
  }
  if (!result)
    fail(op, "is not supported by the interpreter");
  // The static type is a promise the kernels must keep; checking it here
  // catches both kernel bugs and ill-typed untyped programs.
  std::string why = typeMismatch(*result, op->getResult(0).getType());
  if (!why.empty())
    fail(op, "the result does not match its type: " + why);
  return std::move(*result);
}

interp::Value Interpreter::Impl::evalStructural(Operation *op, Frame &frame) {
  if (auto ref = dyn_cast<adj::FuncRefOp>(op)) {
    adj::FuncOp func = funcs.lookup(ref.getCallee());
    if (!func)
      fail(op, "'" + ref.getCallee() + "' does not name an adj.func");
    return interp::Value::function(FunctionValue{func, {}});
  }
  if (auto closure = dyn_cast<adj::ClosureOp>(op)) {
    // A top-level function with bound leading arguments: calls prepend the
    // captures to their arguments (see bindArguments).
    adj::FuncOp func = funcs.lookup(closure.getCallee());
    if (!func)
      fail(op, "'" + closure.getCallee() + "' does not name an adj.func");
    FunctionValue fn{func, {}};
    for (mlir::Value v : closure.getCaptures())
      fn.captures.push_back(frame[v]);
    return interp::Value::function(std::move(fn));
  }
  if (auto lambda = dyn_cast<adj::LambdaOp>(op)) {
    const CallableInfo &info = infoFor(lambda);
    FunctionValue fn{lambda, {}};
    fn.captures.reserve(info.freeVars.size());
    for (mlir::Value v : info.freeVars)
      fn.captures.push_back(frame[v]);
    return interp::Value::function(std::move(fn));
  }
  if (auto tuple = dyn_cast<adj::TupleOp>(op)) {
    std::vector<interp::Value> elements;
    for (mlir::Value v : tuple.getElements())
      elements.push_back(frame[v]);
    return interp::Value::tuple(std::move(elements));
  }
  if (auto get = dyn_cast<adj::GetOp>(op)) {
    const interp::Value &tuple = frame[get.getTuple()];
    if (!tuple.isTuple())
      fail(op, "the operand is not a tuple");
    int64_t index = get.getIndex();
    if (index < 0 || index >= static_cast<int64_t>(tuple.elements().size()))
      fail(op, "index " + Twine(index) + " is out of range for a tuple of " +
                   Twine(tuple.elements().size()) + " elements");
    return tuple.elements()[index];
  }
  if (auto zeros = dyn_cast<adj::ZerosLikeOp>(op))
    return zerosLike(frame[zeros.getInput()]);
  if (auto add = dyn_cast<adj::GradAddOp>(op))
    return gradAdd(op, frame[add.getLhs()], frame[add.getRhs()]);
  if (isa<adj::EnvNewOp>(op))
    return interp::Value::env({});
  if (auto get = dyn_cast<adj::EnvGetOp>(op)) {
    const interp::Value &env = frame[get.getEnv()];
    if (!env.isEnv())
      fail(op, "the operand is not an environment");
    auto it = env.env().entries.find(get.getKey());
    if (it != env.env().entries.end())
      return it->second;
    return zeroOfType(op, get.getType());
  }
  if (auto set = dyn_cast<adj::EnvSetOp>(op)) {
    const interp::Value &env = frame[set.getEnv()];
    if (!env.isEnv())
      fail(op, "the operand is not an environment");
    EnvValue updated = env.env();
    updated.entries[set.getKey()] = frame[set.getValue()];
    return interp::Value::env(std::move(updated));
  }
  if (auto add = dyn_cast<adj::EnvAddOp>(op)) {
    const interp::Value &lhs = frame[add.getLhs()], &rhs = frame[add.getRhs()];
    if (!lhs.isEnv() || !rhs.isEnv())
      fail(op, "the operands must be environments");
    return gradAdd(op, lhs, rhs);
  }
  // adj.grad, adj.value_and_grad, adj.vjp, adj.jvp.
  fail(op, "automatic differentiation requests cannot be interpreted; run "
           "-adj-grad first to expand them");
}

