//===- Vmap.cpp - The vmap request of the builder API ---------------------===//

#include "ModuleState.h"

#include "adjoint/API/Builder.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

Value api::vmap(Value fn, const std::vector<int64_t> &inAxes,
                const std::vector<int64_t> &outAxes, int64_t batchSize) {
  ModuleState &s = stateOf("adj.vmap", fn);
  OpSpec spec{"adj.vmap", {fn}};
  spec.attributes = {
      s.builder.getNamedAttr("in_axes", s.builder.getDenseI64ArrayAttr(inAxes)),
      s.builder.getNamedAttr("out_axes",
                             s.builder.getDenseI64ArrayAttr(outAxes)),
      s.builder.getNamedAttr("batch_size",
                             s.builder.getI64IntegerAttr(batchSize))};
  return createValue(s, spec);
}
