//===- Builders.h - Small builders the conformance programs share -*- C++ -*-===//
//
// Types, transposes and complex parts that the programs of several test
// files build (Targets.h runs them).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_CONFORMANCE_BUILDERS_H
#define ADJOINT_TEST_UNIT_CONFORMANCE_BUILDERS_H

#include "Targets.h"

namespace adjoint::conformance {

inline api::Type tensor(DType dtype, Shape shape) {
  return api::Type::tensor(dtype, std::move(shape));
}

/// The permutation that swaps the last two axes of a rank-`rank` value.
inline std::vector<int64_t> swapLast(int64_t rank) {
  std::vector<int64_t> perm;
  for (int64_t i = 0; i + 2 < rank; ++i)
    perm.push_back(i);
  perm.push_back(rank - 1);
  perm.push_back(rank - 2);
  return perm;
}

/// z's real and imaginary parts appended to `out`: complex results are
/// compared through them.
inline void parts(api::Values &out, api::Value z) {
  out.push_back(api::real(z));
  out.push_back(api::imag(z));
}

/// Defines "grad": the gradient of `m`'s function "loss" with respect to
/// its two arguments, of types `types`, as a function of them.
inline void defineGradOfLoss(api::Module &m, std::vector<api::Type> types) {
  m.function("grad", std::move(types), [&m](std::vector<api::Value> args) {
    return api::call(api::grad(m.lookup("loss").ref(),
                               api::ADOptions{std::vector<int64_t>{0, 1},
                                              false}),
                     args);
  });
}

} // namespace adjoint::conformance

#endif // ADJOINT_TEST_UNIT_CONFORMANCE_BUILDERS_H
