//===- Helpers.h - Compile-and-compare helpers for the tests ----*- C++ -*-===//
//
// Compiled code is checked against the reference interpreter: both run the
// same function on the same inputs and every output must agree within a
// tolerance chosen by dtype (exact for integers and i1).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_COMPILE_HELPERS_H
#define ADJOINT_TEST_UNIT_COMPILE_HELPERS_H

#include "adjoint/API/Builder.h"
#include "adjoint/API/Compile.h"
#include "adjoint/AD/Passes.h"
#include "adjoint/InitAll.h"
#include "adjoint/Interpreter/Interpreter.h"
#include "adjoint/Runtime/DeviceRegistry.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <thread>
#include <string>
#include <vector>

namespace adjoint::test {

using Shape = std::vector<int64_t>;

inline api::Type tensorType(DType dtype, Shape shape) {
  return api::Type::tensor(dtype, std::move(shape));
}
inline api::Type f32(Shape shape) {
  return tensorType(DType::F32, std::move(shape));
}
inline api::Type f64(Shape shape) {
  return tensorType(DType::F64, std::move(shape));
}

/// A context that knows adj and every upstream dialect, all loaded, for
/// tests that parse .mlir text.
inline std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

/// Options that keep tests away from the user's cache folder.
inline CompileOptions noCache() {
  CompileOptions options;
  options.cache = false;
  return options;
}

/// Deterministic inputs in [-1, 1) (integers in [-5, 5), i1 alternating).
inline interp::Tensor sampleInput(DType dtype, Shape shape,
                                  int64_t seed) {
  if (dtype == DType::I1) {
    interp::Tensor t(dtype, shape);
    auto *bytes = static_cast<uint8_t *>(t.mutableData());
    for (int64_t i = 0; i < t.numel(); ++i)
      bytes[i] = (i + seed) % 3 == 0;
    return t;
  }
  if (dtype == DType::I64 || dtype == DType::I32)
    return interp::randomUniform(dtype, shape, seed, -5.0, 5.0);
  if (isComplex(dtype)) {
    // Both parts in [-1, 1).
    DType part = realPart(dtype);
    interp::Tensor re = interp::randomUniform(part, shape, seed, -1.0, 1.0);
    interp::Tensor im =
        interp::randomUniform(part, shape, seed + 1000, -1.0, 1.0);
    interp::Tensor t(dtype, shape);
    size_t bytes = dtypeSize(part);
    auto *out = static_cast<uint8_t *>(t.mutableData());
    for (int64_t i = 0; i < t.numel(); ++i) {
      std::memcpy(out + 2 * i * bytes,
                  static_cast<const uint8_t *>(re.data()) + i * bytes, bytes);
      std::memcpy(out + (2 * i + 1) * bytes,
                  static_cast<const uint8_t *>(im.data()) + i * bytes, bytes);
    }
    return t;
  }
  return interp::randomUniform(dtype, shape, seed, -1.0, 1.0);
}

/// Appends the tensor leaves of `value` (tuples depth-first).
inline void flattenValue(const interp::Value &value,
                         std::vector<interp::Tensor> &leaves) {
  if (value.isTuple()) {
    for (const interp::Value &element : value.elements())
      flattenValue(element, leaves);
    return;
  }
  leaves.push_back(value.tensor());
}

/// The interpreter's results of `function` (after -adj-grad on a clone),
/// flattened as compiled code returns them.
inline std::vector<interp::Tensor>
interpret(mlir::ModuleOp module, const std::string &function,
          const std::vector<interp::Value> &args) {
  mlir::OwningOpRef<mlir::ModuleOp> clone(module.clone());
  mlir::PassManager pm(module.getContext());
  pm.addPass(ad::createGrad());
  REQUIRE(mlir::succeeded(pm.run(*clone)));
  interp::Interpreter interpreter(*clone);
  std::vector<interp::Tensor> leaves;
  for (const interp::Value &v : interpreter.call(function, args))
    flattenValue(v, leaves);
  return leaves;
}

inline double tolerance(DType dtype) {
  switch (realPart(dtype)) {
  case DType::F64:
    return 1e-12;
  case DType::F32:
    return 1e-5;
  case DType::F16:
    return 2e-3;
  case DType::BF16:
    return 1.6e-2;
  default:
    return 0.0;
  }
}

/// Checks that `actual` equals `expected` within tolerance(dtype),
/// relative to max(1, |expected|).
inline void requireClose(const interp::Tensor &expected,
                         const rt::Tensor &actual) {
  REQUIRE(actual.valid());
  REQUIRE(static_cast<int>(actual.dtype()) ==
          static_cast<int>(expected.dtype()));
  REQUIRE(actual.shape() == expected.shape());
  double tol = tolerance(expected.dtype());
  if (isComplex(expected.dtype())) {
    // Both parts, as complex<double>, relative to max(1, |expected|).
    bool c64 = expected.dtype() == DType::C64;
    for (int64_t i = 0; i < expected.numel(); ++i) {
      auto read = [&](const void *data) -> std::complex<double> {
        if (c64)
          return static_cast<const std::complex<float> *>(data)[i];
        return static_cast<const std::complex<double> *>(data)[i];
      };
      std::complex<double> e = read(expected.data()),
                           a = read(actual.data());
      INFO("element " << i << ": expected " << e << ", got " << a);
      REQUIRE(std::abs(a - e) <= tol * std::max(1.0, std::abs(e)));
    }
    return;
  }
  for (int64_t i = 0; i < expected.numel(); ++i) {
    double e = expected.at(i), a = actual.at(i);
    INFO("element " << i << ": expected " << e << ", got " << a);
    if (std::isnan(e)) {
      REQUIRE(std::isnan(a));
      continue;
    }
    REQUIRE(std::abs(a - e) <= tol * std::max(1.0, std::abs(e)));
  }
}

/// Compiles `function`, runs it and the interpreter on `args` (compiled
/// code gets their leaves), compares. Returns the compiled outputs.
inline std::vector<rt::Tensor>
compareValuesWithInterpreter(const api::Module &m,
                             const std::string &function,
                             const std::vector<interp::Value> &args,
                       const CompileOptions &options = noCache()) {
  Executable exe = compile(m, function, Target::cpu(), options);
  std::vector<interp::Tensor> leaves;
  for (const interp::Value &arg : args)
    flattenValue(arg, leaves);
  std::vector<rt::Tensor> rtInputs;
  for (const interp::Tensor &t : leaves)
    rtInputs.push_back(toRuntime(t));
  std::vector<rt::Tensor> outputs = exe.run(rtInputs);
  std::vector<interp::Tensor> expected = interpret(m.op(), function, args);
  REQUIRE(outputs.size() == expected.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    INFO("output #" << i);
    requireClose(expected[i], outputs[i]);
  }
  return outputs;
}

/// The same with tensor arguments.
inline std::vector<rt::Tensor>
compareWithInterpreter(const api::Module &m, const std::string &function,
                       const std::vector<interp::Tensor> &inputs,
                       const CompileOptions &options = noCache()) {
  return compareValuesWithInterpreter(
      m, function, std::vector<interp::Value>(inputs.begin(), inputs.end()),
      options);
}

/// The message of the adjoint::Error `f` throws ("" if none).
template <typename F> std::string errorOf(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

/// opencl:0, or null (with a warning) where there is none; where the tests
/// installed the OpenCL runtime (OCL_ICD_VENDORS) it must be there.
inline rt::Device *openclOrWarn() {
  rt::Device *device = nullptr;
  rt::Status status = rt::findDevice("opencl:0", &device);
  if (status.ok())
    return device;
  REQUIRE(std::getenv("OCL_ICD_VENDORS") == nullptr);
  WARN("opencl:0 unavailable: " << status.toString());
  return nullptr;
}

} // namespace adjoint::test

#endif // ADJOINT_TEST_UNIT_COMPILE_HELPERS_H
