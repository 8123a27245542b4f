//===- Derivatives.cpp - stop_gradient, custom rules, checkpoint ----------===//

#include "ModuleState.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

Value api::stop_gradient(Value x) {
  return createValue(stateOf("adj.stop_gradient", x),
                     OpSpec{"adj.stop_gradient", {x}});
}

Value api::custom_vjp(Value fn, Value fwd, Value bwd) {
  return createValue(stateOf("adj.custom_vjp", fn),
                     OpSpec{"adj.custom_vjp", {fn, fwd, bwd}});
}

Value api::custom_jvp(Value fn, Value rule) {
  return createValue(stateOf("adj.custom_jvp", fn),
                     OpSpec{"adj.custom_jvp", {fn, rule}});
}

Value api::checkpoint(Value fn) {
  return createValue(stateOf("adj.checkpoint", fn),
                     OpSpec{"adj.checkpoint", {fn}});
}
