//===- LinearAlgebra.cpp - Decompositions in the builder API --------------===//
//
// The LinearAlgebra family: cholesky, triangular_solve, lu, qr, eigh, eig
// and svd over the last two dimensions. Integer operands are not
// promoted: the ops take f32, f64 and complex of either, and their shape
// rules say so.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

namespace {

/// Creates a decomposition of `count` results; returns them wrapped.
std::vector<Value> decompose(ModuleState &s, OpSpec spec, unsigned count) {
  spec.numInferredResults = count;
  std::vector<Value> out;
  for (mlir::Value r : createOp(s, spec)->getResults())
    out.push_back(s.wrap(r));
  return out;
}

/// A unit attribute named `name` when `on`.
void flag(ModuleState &s, OpSpec &spec, llvm::StringRef name, bool on) {
  if (on)
    spec.attributes.push_back(
        s.builder.getNamedAttr(name, s.builder.getUnitAttr()));
}

} // namespace

Value api::cholesky(Value a) {
  ModuleState &s = stateOf("adj.cholesky", a);
  return createValue(s, {"adj.cholesky", {a}});
}

Value api::triangular_solve(Value a, Value b,
                            const TriangularSolveOptions &options) {
  ModuleState &s = stateOf("adj.triangular_solve", a);
  OpSpec spec{"adj.triangular_solve", {a, b}};
  flag(s, spec, "left_side", options.left_side);
  flag(s, spec, "lower", options.lower);
  flag(s, spec, "transpose_a", options.transpose_a);
  flag(s, spec, "unit_diagonal", options.unit_diagonal);
  return createValue(s, spec);
}

std::tuple<Value, Value, Value> api::lu(Value a) {
  ModuleState &s = stateOf("adj.lu", a);
  std::vector<Value> r = decompose(s, {"adj.lu", {a}}, 3);
  return {r[0], r[1], r[2]};
}

std::pair<Value, Value> api::qr(Value a, bool full_matrices) {
  ModuleState &s = stateOf("adj.qr", a);
  OpSpec spec{"adj.qr", {a}};
  flag(s, spec, "full_matrices", full_matrices);
  std::vector<Value> r = decompose(s, spec, 2);
  return {r[0], r[1]};
}

std::pair<Value, Value> api::eigh(Value a, bool upper) {
  ModuleState &s = stateOf("adj.eigh", a);
  OpSpec spec{"adj.eigh", {a}};
  flag(s, spec, "upper", upper);
  std::vector<Value> r = decompose(s, spec, 2);
  return {r[0], r[1]};
}

std::pair<Value, Value> api::eig(Value a) {
  ModuleState &s = stateOf("adj.eig", a);
  std::vector<Value> r = decompose(s, {"adj.eig", {a}}, 2);
  return {r[0], r[1]};
}

std::tuple<Value, Value, Value> api::svd(Value a, bool full_matrices) {
  ModuleState &s = stateOf("adj.svd", a);
  OpSpec spec{"adj.svd", {a}};
  flag(s, spec, "full_matrices", full_matrices);
  std::vector<Value> r = decompose(s, spec, 3);
  return {r[0], r[1], r[2]};
}
