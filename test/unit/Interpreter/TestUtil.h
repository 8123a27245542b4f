//===- TestUtil.h - Helpers of the interpreter unit tests -------*- C++ -*-===//
//
// Parses and verifies adj IR from a string and runs it; builds tensors and
// compares them with a tolerance.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_INTERPRETER_TESTUTIL_H
#define ADJOINT_TEST_UNIT_INTERPRETER_TESTUTIL_H

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

namespace adjoint::test {

using interp::Tensor;
using RValue = interp::Value;

/// A parsed, verified module and an interpreter over it.
class Program {
public:
  explicit Program(const std::string &source, interp::Options options = {}) {
    context_.getOrLoadDialect<adj::AdjDialect>();
    std::string diagnostics;
    {
      mlir::ScopedDiagnosticHandler handler(
          &context_, [&](mlir::Diagnostic &d) {
            diagnostics += d.str() + "\n";
            return mlir::success();
          });
      module_ = mlir::parseSourceString<mlir::ModuleOp>(
          source, mlir::ParserConfig(&context_), "test.mlir");
      if (module_ && failed(mlir::verify(*module_)))
        module_ = nullptr;
    }
    INFO(diagnostics);
    REQUIRE(module_);
    interpreter_ = std::make_unique<interp::Interpreter>(*module_, options);
  }

  std::vector<RValue> call(const std::string &name,
                           const std::vector<RValue> &args = {}) {
    return interpreter_->call(name, args);
  }
  /// The single result of `name`, a tensor.
  Tensor run(const std::string &name, const std::vector<RValue> &args = {}) {
    std::vector<RValue> results = call(name, args);
    REQUIRE(results.size() == 1);
    return results[0].tensor();
  }
  interp::Interpreter &interpreter() { return *interpreter_; }
  mlir::MLIRContext &context() { return context_; }

private:
  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  std::unique_ptr<interp::Interpreter> interpreter_;
};

inline Tensor tensor(DType dtype, std::vector<int64_t> shape,
                     std::vector<double> values) {
  return Tensor::fromDoubles(dtype, std::move(shape), values);
}
inline Tensor f32(std::vector<int64_t> shape, std::vector<double> values) {
  return tensor(DType::F32, std::move(shape), std::move(values));
}
inline Tensor f64(std::vector<int64_t> shape, std::vector<double> values) {
  return tensor(DType::F64, std::move(shape), std::move(values));
}
inline Tensor i64(std::vector<int64_t> shape, std::vector<double> values) {
  return tensor(DType::I64, std::move(shape), std::move(values));
}

/// Replaces every "$T" in `text` by `type`.
inline std::string subst(std::string text, const std::string &type) {
  for (size_t at; (at = text.find("$T")) != std::string::npos;)
    text.replace(at, 2, type);
  return text;
}

/// Relative tolerance adequate for one rounding in `dtype`.
inline double tolerance(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 2e-3;
  case DType::BF16:
    return 1.6e-2;
  case DType::F32:
    return 1e-6;
  default:
    return 1e-12;
  }
}

/// Checks shape, element type and values (within `tol` relative+absolute).
inline void requireClose(const Tensor &actual, DType dtype,
                         const std::vector<int64_t> &shape,
                         const std::vector<double> &expected,
                         double tol = -1) {
  if (tol < 0)
    tol = tolerance(dtype);
  INFO("actual " << RValue(actual).toString());
  REQUIRE(actual.dtype() == dtype);
  REQUIRE(actual.shape() == shape);
  std::vector<double> got = actual.toDoubles();
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": " << got[i] << " vs " << expected[i]);
    if (std::isnan(expected[i]))
      REQUIRE(std::isnan(got[i]));
    else if (std::isinf(expected[i]))
      REQUIRE(got[i] == expected[i]);
    else
      REQUIRE(std::fabs(got[i] - expected[i]) <=
              tol * (1 + std::fabs(expected[i])));
  }
}

/// Checks that `fn` throws an adjoint::Error whose message contains every
/// string of `parts`.
template <typename F>
void requireError(F fn, std::initializer_list<std::string> parts) {
  try {
    fn();
  } catch (const adjoint::Error &e) {
    std::string message = e.what();
    INFO("message: " << message);
    for (const std::string &part : parts)
      CHECK(message.find(part) != std::string::npos);
    return;
  }
  FAIL("no adjoint::Error was thrown");
}

} // namespace adjoint::test

#endif // ADJOINT_TEST_UNIT_INTERPRETER_TESTUTIL_H
