//===- Derivatives.cpp - Rules of stop_gradient and optimization_barrier --===//
//
// The identities that annotate differentiation. stop_gradient blocks every
// derivative; optimization_barrier only hides its input from the optimizer,
// so its derivative is the identity, and the barrier itself is not copied
// into the derivative (the recomputation that checkpoint builds is what it
// protects, not the sensitivities).
//
// custom_vjp, custom_jvp and checkpoint make function values: the transforms
// handle them structurally (lib/AD/CustomRules.cpp), not through a table.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

void adjoint::ad::rules::addDerivativesRules(RuleMap &m) {
  defineZero<StopGradientOp>(m);
  define<OptimizationBarrierOp>(
      m, [](Emitter &, OptimizationBarrierOp, Val dy) -> Sens { return {dy}; },
      [](Emitter &, OptimizationBarrierOp, ArrayRef<Val> t) -> Val {
        return t[0];
      });
}
