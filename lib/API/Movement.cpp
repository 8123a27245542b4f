//===- Movement.cpp - Data movement in the builder API --------------------===//
//
// Shape ops, slicing, padding, gather, scatter_add and scatter; negative axes count
// from the end (as in NumPy) and are normalized here.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include <algorithm>

using llvm::StringRef;
using mlir::NamedAttribute;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

/// Ops whose result type is given (broadcast_to, reshape).
static Value withResultType(StringRef op, Value x, const Type &result) {
  ModuleState &s = *x.state();
  OpSpec spec{op, {x}};
  spec.resultTypes = std::vector<mlir::Type>{s.mlirType(result)};
  return createValue(s, spec);
}

Value api::broadcast_to(Value x, std::vector<int64_t> shape) {
  Type type = tensorTypeOf("adj.broadcast_to", x);
  for (int64_t d : shape)
    if (d < 0)
      throw Error("adj.broadcast_to: cannot broadcast " +
                  formatShape(type.shape()) + " to " + formatShape(shape));
  return withResultType("adj.broadcast_to", x, type.withShape(shape));
}

Value api::reshape(Value x, std::vector<int64_t> shape) {
  Type type = tensorTypeOf("adj.reshape", x);
  std::string failure = "adj.reshape: cannot reshape " +
                        formatShape(type.shape()) + " (" +
                        std::to_string(type.numel()) + " elements) to " +
                        formatShape(shape);
  // One -1 dimension takes whatever the element count leaves.
  int64_t known = 1, inferred = -1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d == -1 && inferred < 0)
      inferred = static_cast<int64_t>(i);
    else if (d < 0 || __builtin_mul_overflow(known, d, &known))
      throw Error(failure);
  }
  if (inferred >= 0) {
    if (known == 0 || type.numel() % known != 0)
      throw Error(failure);
    shape[inferred] = type.numel() / known;
  }
  return withResultType("adj.reshape", x, type.withShape(shape));
}

Value api::transpose(Value x, std::vector<int64_t> perm) {
  Type type = tensorTypeOf("adj.transpose", x);
  for (int64_t &p : perm)
    p = normalizeAxis(p, type.rank());
  ModuleState &s = *x.state();
  OpSpec spec{"adj.transpose", {x}};
  spec.attributes.push_back(i64Array(s, "perm", perm));
  return createValue(s, spec);
}

Value api::transpose(Value x) {
  Type type = tensorTypeOf("adj.transpose", x);
  std::vector<int64_t> perm;
  for (int64_t d = type.rank() - 1; d >= 0; --d)
    perm.push_back(d);
  return transpose(x, perm);
}

Value api::slice(Value x, std::vector<int64_t> start,
                 std::vector<int64_t> limit, std::vector<int64_t> stride) {
  Type type = tensorTypeOf("adj.slice", x);
  if (stride.empty())
    stride.assign(type.rank(), 1);
  ModuleState &s = *x.state();
  OpSpec spec{"adj.slice", {x}};
  spec.attributes.push_back(i64Array(s, "start", start));
  spec.attributes.push_back(i64Array(s, "limit", limit));
  spec.attributes.push_back(i64Array(s, "stride", stride));
  return createValue(s, spec);
}

Value api::concat(const std::vector<Value> &xs, int64_t axis) {
  if (xs.empty())
    throw Error("adj.concat: needs at least one input");
  Type first = tensorTypeOf("adj.concat", xs.front());
  ModuleState &s = *xs.front().state();
  OpSpec spec{"adj.concat", xs};
  spec.attributes.push_back(
      i64Attr(s, "axis", normalizeAxis(axis, first.rank())));
  return createValue(s, spec);
}

Value api::pad(Value x, std::vector<int64_t> low, std::vector<int64_t> high,
               double value) {
  ModuleState &s = stateOf("adj.pad", x);
  OpSpec spec{"adj.pad", {x}};
  spec.attributes.push_back(i64Array(s, "low", low));
  spec.attributes.push_back(i64Array(s, "high", high));
  spec.attributes.push_back(
      s.builder.getNamedAttr("value", s.builder.getF64FloatAttr(value)));
  return createValue(s, spec);
}

Value api::gather(Value table, Value indices, int64_t axis) {
  Type type = tensorTypeOf("adj.gather", table);
  ModuleState &s = *table.state();
  OpSpec spec{"adj.gather", {table, indices}};
  spec.attributes.push_back(
      i64Attr(s, "axis", normalizeAxis(axis, type.rank())));
  return createValue(s, spec);
}

Value api::scatter_add(Value target, Value indices, Value updates,
                       int64_t axis) {
  Type type = tensorTypeOf("adj.scatter_add", target);
  ModuleState &s = *target.state();
  OpSpec spec{"adj.scatter_add", {target, indices, updates}};
  spec.attributes.push_back(
      i64Attr(s, "axis", normalizeAxis(axis, type.rank())));
  return createValue(s, spec);
}


Value api::scatter(Scatter mode, Value target, Value indices, Value updates,
                   int64_t axis) {
  if (mode == Scatter::Add)
    return scatter_add(target, indices, updates, axis);
  Type type = tensorTypeOf("adj.scatter", target);
  ModuleState &s = *target.state();
  adj::ScatterMode m = adj::ScatterMode::set;
  switch (mode) {
  case Scatter::Set: m = adj::ScatterMode::set; break;
  case Scatter::Mul: m = adj::ScatterMode::mul; break;
  case Scatter::Min: m = adj::ScatterMode::min; break;
  case Scatter::Max: m = adj::ScatterMode::max; break;
  case Scatter::Add: break;
  }
  OpSpec spec{"adj.scatter", {target, indices, updates}};
  spec.attributes.push_back(s.builder.getNamedAttr(
      "mode", s.builder.getI32IntegerAttr(static_cast<int32_t>(m))));
  spec.attributes.push_back(
      i64Attr(s, "axis", normalizeAxis(axis, type.rank())));
  return createValue(s, spec);
}
