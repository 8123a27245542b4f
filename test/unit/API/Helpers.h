//===- Helpers.h - Shared helpers of the builder API tests ------*- C++ -*-===//
//
// Build a one-function module around a snippet and report what the snippet
// produced; capture the message of an expected adjoint::Error.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_API_HELPERS_H
#define ADJOINT_TEST_UNIT_API_HELPERS_H

#include "adjoint/API/Builder.h"

#include "mlir/IR/Operation.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>

namespace adjoint::api::test {

/// What a snippet built: the op that defines its value, the value's type,
/// and the printed (verified) module.
struct Built {
  std::string op;
  std::string type;
  std::string ir;
};

/// A snippet: the module and the parameters of the function it is in.
using Snippet = std::function<Value(Module &, const std::vector<Value> &)>;

/// Builds `snippet` in function @f over `params`, returns its value, and
/// checks that the module verifies.
inline Built build(const std::vector<Type> &params, const Snippet &snippet) {
  Module m;
  Built out;
  m.function("f", params, [&](const std::vector<Value> &args) {
    Value v = snippet(m, args);
    mlir::Operation *def = v.mlir().getDefiningOp();
    out.op = def ? def->getName().getStringRef().str() : "<argument>";
    out.type = v.type().str();
    return v;
  });
  REQUIRE_NOTHROW(m.verify());
  out.ir = m.str();
  return out;
}

/// The message of the adjoint::Error that `f` throws ("" when it does not).
template <typename F> std::string errorOf(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

/// Shorthands for tensor types.
inline Type f32(std::vector<int64_t> shape) {
  return Type::tensor(DType::F32, std::move(shape));
}
inline Type i64(std::vector<int64_t> shape) {
  return Type::tensor(DType::I64, std::move(shape));
}

} // namespace adjoint::api::test

#endif // ADJOINT_TEST_UNIT_API_HELPERS_H
