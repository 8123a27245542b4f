//===- Registry.cpp - The table of derivative rules -----------------------===//

#include "Emitter.h"

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;
using namespace adjoint::ad::rules;

/// Built once, on first use; read-only afterwards, so lookups from several
/// threads are safe.
static const RuleMap &ruleTable() {
  static const RuleMap table = [] {
    RuleMap map;
    addElementwiseRules(map);
    addReductionsRules(map);
    addContractionRules(map);
    addLinearAlgebraRules(map);
    addFourierRules(map);
    addMovementRules(map);
    addConvolutionRules(map);
    addCreationRules(map);
    addBitsRules(map);
    addSensitivityRules(map);
    addDerivativesRules(map);
    return map;
  }();
  return table;
}

const Rules *adjoint::ad::lookupRules(OperationName name) {
  const RuleMap &table = ruleTable();
  auto it = table.find(name.getTypeID());
  return it == table.end() ? nullptr : &it->second;
}

const Rules *adjoint::ad::lookupRules(Operation *op) {
  return lookupRules(op->getName());
}

bool adjoint::ad::isDifferentiable(Type type) {
  if (auto tensor = dyn_cast<TensorType>(type))
    return isa<FloatType, ComplexType>(tensor.getElementType());
  // Untyped values may turn out to be anything: keep their derivatives.
  return isa<adj::TupleType, adj::FnType, adj::EnvType, adj::AnyType>(type);
}
