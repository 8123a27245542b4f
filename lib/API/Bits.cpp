//===- Bits.cpp - Bitwise operators, shifts, bitcast and threefry2x32 -----===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using llvm::StringRef;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

/// Words are not promoted: i32 against i64 is an error of the op, since a
/// widened word would change what a shift or a hash means.
static Value bits(StringRef op, std::vector<Value> operands) {
  return createValue(stateOf(op, operands.front()), {op, std::move(operands)});
}

Value api::bitwise_and(Value a, Value b) {
  return bits("adj.bitwise_and", {a, b});
}
Value api::bitwise_or(Value a, Value b) {
  return bits("adj.bitwise_or", {a, b});
}
Value api::bitwise_xor(Value a, Value b) {
  return bits("adj.bitwise_xor", {a, b});
}
Value api::shift_left(Value a, Value b) {
  return bits("adj.shift_left", {a, b});
}
Value api::shift_right_logical(Value a, Value b) {
  return bits("adj.shift_right_logical", {a, b});
}

Value api::bitcast(Value x, DType dtype) {
  ModuleState &s = stateOf("adj.bitcast", x);
  Type type = tensorTypeOf("adj.bitcast", x);
  OpSpec spec{"adj.bitcast", {x}};
  spec.resultTypes =
      std::vector<mlir::Type>{s.mlirType(type.withDType(dtype))};
  return createValue(s, spec);
}

Value api::threefry2x32(Value k0, Value k1, Value x0, Value x1) {
  return bits("adj.threefry2x32", {k0, k1, x0, x1});
}
