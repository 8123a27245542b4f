//===- Reductions.cpp - Reductions in the builder API ---------------------===//
//
// sum, max and mean over axes; negative axes count from the end (as in
// NumPy) and are normalized here, so the ops always carry non-negative axes.
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
  Type type = tensorTypeOf(op, x);
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

