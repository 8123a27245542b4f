//===- Sensitivities.cpp - Rules of the AD ops themselves -----------------===//
//
// Derivatives of derivatives differentiate the ops the first derivative
// emitted: zeros, sums of sensitivities and environments. Sensitivities of
// sensitivities have the same types, and all of these ops are linear, so
// each jvp is the op applied to the tangents.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

using Ts = ArrayRef<Val>;

void adjoint::ad::rules::addSensitivityRules(RuleMap &m) {
  // A zero does not depend on the value it is shaped like.
  defineZero<ZerosLikeOp>(m);
  defineZero<EnvNewOp>(m);

  define<GradAddOp>(
      m, [](Emitter &, GradAddOp, Val dy) -> Sens { return {dy, dy}; },
      [](Emitter &e, GradAddOp, Ts t) -> Val {
        if (t[0] && t[1])
          return e.make<GradAddOp>(t[0], t[1]);
        return t[0] ? t[0] : t[1];
      });

  define<EnvAddOp>(
      m, [](Emitter &, EnvAddOp, Val dy) -> Sens { return {dy, dy}; },
      [](Emitter &e, EnvAddOp, Ts t) -> Val {
        if (t[0] && t[1])
          return e.make<EnvAddOp>(t[0], t[1]);
        return t[0] ? t[0] : t[1];
      });

  // The stored value reaches the result only through its key; the input
  // environment reaches it everywhere else (its entry under key is
  // overwritten, hence zero).
  define<EnvSetOp>(
      m,
      [](Emitter &e, EnvSetOp op, Val dy) -> Sens {
        Value value = op.getValue();
        Val cleared =
            e.make<EnvSetOp>(dy, op.getKey(), e.zerosLike(value));
        Val stored = e.make<EnvGetOp>(getSensitivityType(value.getType()), dy,
                                      op.getKey());
        return {cleared, stored};
      },
      [](Emitter &e, EnvSetOp op, Ts t) -> Val {
        Val env = t[0] ? t[0] : e.make<EnvNewOp>();
        Val value = t[1] ? t[1] : e.zerosLike(op.getValue());
        return e.make<EnvSetOp>(env, op.getKey(), value);
      });

  define<EnvGetOp>(
      m,
      [](Emitter &e, EnvGetOp op, Val dy) -> Sens {
        return {e.make<EnvSetOp>(e.make<EnvNewOp>(), op.getKey(), dy)};
      },
      [](Emitter &e, EnvGetOp op, Ts t) -> Val {
        return e.make<EnvGetOp>(getSensitivityType(op.getType()), t[0],
                                op.getKey());
      });
}
