//===- Utils.cpp - IR helpers shared by reverse and forward mode ----------===//

#include "Transform.h"

#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;

SetVector<Value> adjoint::ad::freeValues(Operation *scope) {
  SetVector<Value> result;
  scope->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == scope)
      return;
    for (Value operand : op->getOperands()) {
      Operation *owner = operand.getParentRegion()->getParentOp();
      if (!scope->isAncestor(owner))
        result.insert(operand);
    }
  });
  return result;
}

bool adjoint::ad::containsFunction(Type type) {
  if (isa<adj::FnType>(type))
    return true;
  if (auto tuple = dyn_cast<adj::TupleType>(type))
    return llvm::any_of(tuple.getTypes(), containsFunction);
  return false;
}

Operation *adjoint::ad::recreate(OpBuilder &b, Operation *op,
                                 ValueRange operands,
                                 function_ref<Type(Type)> mapType) {
  IRMapping map;
  map.map(op->getOperands(), operands);
  Operation *copy = b.clone(*op, map);
  SmallVector<Type> types;
  if (auto infer = dyn_cast<InferTypeOpInterface>(copy)) {
    if (succeeded(infer.inferReturnTypes(
            copy->getContext(), copy->getLoc(), copy->getOperands(),
            copy->getRawDictionaryAttrs(), copy->getPropertiesStorage(),
            copy->getRegions(), types))) {
      for (auto [result, type] : llvm::zip(copy->getResults(), types))
        result.setType(type);
      return copy;
    }
  }
  for (OpResult result : copy->getResults())
    result.setType(mapType(result.getType()));
  return copy;
}

Type adjoint::ad::mapStructure(
    Type type, function_ref<Type(adj::FnType, SmallVector<Type>,
                                 SmallVector<Type>)>
                   onFunction) {
  auto map = [&](TypeRange types) {
    SmallVector<Type> out;
    for (Type t : types)
      out.push_back(mapStructure(t, onFunction));
    return out;
  };
  if (auto tuple = dyn_cast<adj::TupleType>(type))
    return adj::TupleType::get(type.getContext(), map(tuple.getTypes()));
  if (auto fn = dyn_cast<adj::FnType>(type))
    return onFunction(fn, map(fn.getInputs()), map(fn.getResults()));
  return type;
}

SmallVector<Type> adjoint::ad::sensitivityTypes(TypeRange types) {
  SmallVector<Type> result;
  for (Type t : types)
    result.push_back(adj::getSensitivityType(t));
  return result;
}

FailureOr<Value> adjoint::ad::liftValue(
    OpBuilder &b, Value v,
    function_ref<LogicalResult(Operation &, IRMapping &)> transformOp) {
  if (!containsFunction(v.getType()))
    return v;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return emitError(arg.getLoc())
           << "cannot differentiate through function-valued argument #"
           << arg.getArgNumber()
           << ": its transformed version is not known here (specialize the "
              "higher-order function on its argument first)";
  Operation *def = v.getDefiningOp();
  SmallVector<Value> inputs(def->getOperands());
  if (def->getNumRegions())
    llvm::append_range(inputs, freeValues(def));
  IRMapping map;
  for (Value input : inputs) {
    FailureOr<Value> lifted = liftValue(b, input, transformOp);
    if (failed(lifted))
      return failure();
    map.map(input, *lifted);
  }
  if (failed(transformOp(*def, map)))
    return failure();
  return map.lookup(v);
}

LogicalResult adjoint::ad::drainWorklist(
    Worklist &pending, function_ref<LogicalResult(adj::FuncOp, adj::FuncOp)>
                           build) {
  size_t deferred = 0;
  while (!pending.empty() && deferred < pending.size()) {
    auto [primal, derived] = pending.front();
    pending.pop_front();
    if (primal.getBody().empty()) {
      pending.emplace_back(primal, derived);
      ++deferred;
      continue;
    }
    deferred = 0;
    if (failed(build(primal, derived)))
      return failure();
  }
  return success();
}

std::pair<adj::LambdaOp, OpBuilder>
adjoint::ad::makeClosure(OpBuilder &b, Location loc, adj::FnType type) {
  auto lambda = adj::LambdaOp::create(b, loc, type);
  Block *body = new Block();
  lambda.getBody().push_back(body);
  for (Type t : type.getInputs())
    body->addArgument(t, loc);
  return {lambda, OpBuilder::atBlockEnd(body)};
}
