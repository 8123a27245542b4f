//===- Creation.cpp - Rules of the tensor creation ops --------------------===//
//
// Created tensors do not depend on any input, so every sensitivity and
// tangent is zero. They still have rules: the grad transform then needs no
// special case for them.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace adjoint::adj;
using namespace adjoint::ad::rules;

void adjoint::ad::rules::addCreationRules(RuleMap &m) {
  defineZero<ConstantOp>(m);
  defineZero<FillOp>(m);
  defineZero<IotaOp>(m);
}
