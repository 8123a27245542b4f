//===- RulesTestUtil.h - Checks of derivative rules against FD --*- C++ -*-===//
//
// The rule tests need no grad transform: a straight-line function @f is
// differentiated by applying the rules of its ops one by one (reverse order
// for bprops, program order for jvps), and the result is compared with
// central finite differences computed by the reference interpreter in f64.
// Applying the same procedure to the derivative checks second derivatives,
// which also proves that every op a rule emits has rules of its own.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_AD_RULESTESTUTIL_H
#define ADJOINT_TEST_UNIT_AD_RULESTESTUTIL_H

#include "adjoint/Interpreter/Value.h"

#include <map>
#include <string>
#include <vector>

namespace adjoint::test::rules {

/// One differentiation check.
struct Case {
  /// A module with a straight-line `adj.func @f` on f64 tensors.
  std::string source;
  /// Values of @f's non-float arguments (indices, conditions), by position.
  std::map<unsigned, interp::Tensor> fixed = {};
  /// Random float inputs are uniform in [lo, hi).
  double lo = -1, hi = 1;
  /// Keep random inputs at least 0.2 away from zero (kinks of relu, abs).
  bool awayFromZero = false;
  /// Also check the derivatives of the bprop (second order).
  bool secondOrder = true;
  unsigned seed = 1;
};

/// Checks the bprop and jvp rules of every op of `c.source`'s @f against
/// central finite differences (relative error <= 1e-6), the jvp with every
/// float argument's tangent and with each one alone (the others null), and
/// the types of all sensitivities and tangents; then the same for the
/// derivatives of the resulting vjp function.
void check(const Case &c);

/// Builds @vjp of `source`'s @f from the rules and runs it: the
/// sensitivities of @f's float arguments for the result sensitivities
/// `douts`.
std::vector<interp::Value> runVjp(const std::string &source,
                                  std::vector<interp::Value> args,
                                  const std::vector<interp::Value> &douts);
/// Builds @jvp of `source`'s @f (a tangent for every float argument, in
/// order) from the rules and runs it: the tangents of @f's results.
std::vector<interp::Value> runJvp(const std::string &source,
                                  std::vector<interp::Value> args,
                                  const std::vector<interp::Value> &tangents);

/// `adj.func @f(%a: A, %b: B) -> R { %0 = adj.<op> %a, %b ... }`.
std::string binary(const std::string &op, const std::string &a,
                   const std::string &b, const std::string &r);
/// `adj.func @f(%x: T) -> T { %0 = adj.<op> %x : T }`.
std::string unary(const std::string &op, const std::string &t);
/// A function of the arguments `args` ("%x: tensor<...>, ...") returning one
/// value of type `result` computed by the op text `body` into %0.
std::string function(const std::string &args, const std::string &result,
                     const std::string &body);
/// "tensor<2x3xf64>" from {2, 3}.
std::string f64(const std::vector<int64_t> &shape);

} // namespace adjoint::test::rules

#endif // ADJOINT_TEST_UNIT_AD_RULESTESTUTIL_H
