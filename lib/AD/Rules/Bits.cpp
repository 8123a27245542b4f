//===- Bits.cpp - Rules of the bit manipulation ops -----------------------===//
//
// Bitwise operators, shifts and threefry2x32 act on integer words, which
// carry no derivative. A bitcast from a float gives integers, whose
// sensitivity does not flow back; one to a float reinterprets random bits,
// which do not depend on any differentiable input. Every sensitivity and
// tangent is zero, so random numbers inside differentiated code (dropout,
// stochastic units) pass nothing to their key.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace adjoint::adj;
using namespace adjoint::ad::rules;

void adjoint::ad::rules::addBitsRules(RuleMap &m) {
  defineZero<BitwiseAndOp>(m);
  defineZero<BitwiseOrOp>(m);
  defineZero<BitwiseXorOp>(m);
  defineZero<ShiftLeftOp>(m);
  defineZero<ShiftRightLogicalOp>(m);
  defineZero<BitcastOp>(m);
  defineZero<Threefry2x32Op>(m);
}
