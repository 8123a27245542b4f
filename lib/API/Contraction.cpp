//===- Contraction.cpp - matmul in the builder API ------------------------===//
//
// Matrix products, with NumPy's operand promotion.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using llvm::StringRef;
using mlir::NamedAttribute;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

Value api::matmul(Value a, Value b) {
  ModuleState &s = stateOf("adj.matmul", a);
  std::tie(a, b) = promoteOperands(a, b);
  return createValue(s, {"adj.matmul", {a, b}});
}

