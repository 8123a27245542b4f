//===- Tensor.cpp - Contractions, reductions and data movement ------------===//
//
// matmul, reductions, shape ops, gather/scatter, convolution and pooling.
// Negative axes count from the end (as in NumPy) and are normalized here,
// so the ops always carry non-negative axes.
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

/// The tensor type of `x`; throws adjoint::Error naming `op` otherwise.
static Type tensorType(StringRef op, const Value &x) {
  stateOf(op, x);
  Type type = x.type();
  if (!type.isTensor())
    throw Error(op.str() + ": expected a tensor, got " + type.str());
  return type;
}

/// `axis` + `rank` for a negative axis; out-of-range axes are left for the
/// op's verifier to report.
static int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

static NamedAttribute i64Array(ModuleState &s, StringRef name,
                               llvm::ArrayRef<int64_t> values) {
  return s.builder.getNamedAttr(name, s.builder.getDenseI64ArrayAttr(values));
}

static NamedAttribute i64Attr(ModuleState &s, StringRef name, int64_t v) {
  return s.builder.getNamedAttr(name, s.builder.getI64IntegerAttr(v));
}

Value api::matmul(Value a, Value b) {
  ModuleState &s = stateOf("adj.matmul", a);
  std::tie(a, b) = promoteOperands(a, b);
  return createValue(s, {"adj.matmul", {a, b}});
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

std::vector<int64_t> Axes::resolve(int64_t rank) const {
  std::vector<int64_t> axes;
  if (all_) {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
    return axes;
  }
  for (int64_t a : axes_)
    axes.push_back(normalizeAxis(a, rank));
  std::sort(axes.begin(), axes.end());
  return axes;
}

static Value reduce(StringRef op, Value x, const Axes &axes, bool keepdims) {
  Type type = tensorType(op, x);
  ModuleState &s = *x.state();
  OpSpec spec{op, {x}};
  spec.attributes.push_back(i64Array(s, "axes", axes.resolve(type.rank())));
  if (keepdims)
    spec.attributes.push_back(
        s.builder.getNamedAttr("keepdims", s.builder.getUnitAttr()));
  return createValue(s, spec);
}

Value api::sum(Value x, Axes axes, bool keepdims) {
  return reduce("adj.reduce_sum", x, axes, keepdims);
}
Value api::max(Value x, Axes axes, bool keepdims) {
  return reduce("adj.reduce_max", x, axes, keepdims);
}
Value api::mean(Value x, Axes axes, bool keepdims) {
  return reduce("adj.reduce_mean", x, axes, keepdims);
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

/// Ops whose result type is given (broadcast_to, reshape).
static Value withResultType(StringRef op, Value x, const Type &result) {
  ModuleState &s = *x.state();
  OpSpec spec{op, {x}};
  spec.resultTypes = std::vector<mlir::Type>{s.mlirType(result)};
  return createValue(s, spec);
}

Value api::broadcast_to(Value x, std::vector<int64_t> shape) {
  Type type = tensorType("adj.broadcast_to", x);
  for (int64_t d : shape)
    if (d < 0)
      throw Error("adj.broadcast_to: cannot broadcast " +
                  formatShape(type.shape()) + " to " + formatShape(shape));
  return withResultType("adj.broadcast_to", x, type.withShape(shape));
}

Value api::reshape(Value x, std::vector<int64_t> shape) {
  Type type = tensorType("adj.reshape", x);
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
  Type type = tensorType("adj.transpose", x);
  for (int64_t &p : perm)
    p = normalizeAxis(p, type.rank());
  ModuleState &s = *x.state();
  OpSpec spec{"adj.transpose", {x}};
  spec.attributes.push_back(i64Array(s, "perm", perm));
  return createValue(s, spec);
}

Value api::transpose(Value x) {
  Type type = tensorType("adj.transpose", x);
  std::vector<int64_t> perm;
  for (int64_t d = type.rank() - 1; d >= 0; --d)
    perm.push_back(d);
  return transpose(x, perm);
}

Value api::slice(Value x, std::vector<int64_t> start,
                 std::vector<int64_t> limit, std::vector<int64_t> stride) {
  Type type = tensorType("adj.slice", x);
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
  Type first = tensorType("adj.concat", xs.front());
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
  Type type = tensorType("adj.gather", table);
  ModuleState &s = *table.state();
  OpSpec spec{"adj.gather", {table, indices}};
  spec.attributes.push_back(
      i64Attr(s, "axis", normalizeAxis(axis, type.rank())));
  return createValue(s, spec);
}

Value api::scatter_add(Value target, Value indices, Value updates,
                       int64_t axis) {
  Type type = tensorType("adj.scatter_add", target);
  ModuleState &s = *target.state();
  OpSpec spec{"adj.scatter_add", {target, indices, updates}};
  spec.attributes.push_back(
      i64Attr(s, "axis", normalizeAxis(axis, type.rank())));
  return createValue(s, spec);
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

Value api::conv2d(Value input, Value filter, const Conv2DOptions &options) {
  ModuleState &s = stateOf("adj.conv2d", input);
  OpSpec spec{"adj.conv2d", {input, filter}};
  spec.attributes.push_back(i64Array(s, "stride", options.stride));
  spec.attributes.push_back(i64Array(s, "padding", options.padding));
  spec.attributes.push_back(i64Array(s, "dilation", options.dilation));
  spec.attributes.push_back(i64Attr(s, "groups", options.groups));
  return createValue(s, spec);
}

static Value pool(StringRef op, Value input, std::vector<int64_t> kernel,
                  std::vector<int64_t> stride, std::vector<int64_t> padding) {
  ModuleState &s = stateOf(op, input);
  if (stride.empty())
    stride = kernel;
  OpSpec spec{op, {input}};
  spec.attributes.push_back(i64Array(s, "kernel", kernel));
  spec.attributes.push_back(i64Array(s, "stride", stride));
  spec.attributes.push_back(i64Array(s, "padding", padding));
  return createValue(s, spec);
}

Value api::max_pool2d(Value input, std::vector<int64_t> kernel,
                      std::vector<int64_t> stride,
                      std::vector<int64_t> padding) {
  return pool("adj.max_pool2d", input, std::move(kernel), std::move(stride),
              std::move(padding));
}

Value api::avg_pool2d(Value input, std::vector<int64_t> kernel,
                      std::vector<int64_t> stride,
                      std::vector<int64_t> padding) {
  return pool("adj.avg_pool2d", input, std::move(kernel), std::move(stride),
              std::move(padding));
}
