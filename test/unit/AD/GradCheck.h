//===- GradCheck.h - Gradients checked against finite differences -*- C++ -*-===//
//
// The harness of the AD conformance suite. A program is a module with a
// function `f` (f64) and a driver function that applies an AD request to it
// (`%g = adj.grad %f ...` then `adj.call %g(...)`). The harness runs
// -adj-grad, verifies the result and that no AD request is left, evaluates
// the driver with the reference interpreter, and compares what it returns
// with central finite differences of `f`, also computed by the interpreter
// in f64.
//
// The oracle of a check is a function of the module as written, or, for
// derivatives of derivatives, a function of the transformed module: the
// second derivative is compared with finite differences of the first one,
// which an earlier check has verified against `f`.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_AD_GRADCHECK_H
#define ADJOINT_TEST_UNIT_AD_GRADCHECK_H

#include "adjoint/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "adjoint/API/Builder.h"

namespace adjoint::test {

using RValue = interp::Value;
using RValues = std::vector<interp::Value>;

/// How finite differences are taken and compared.
struct Tolerance {
  /// Allowed |actual - expected| relative to max(|actual|, |expected|).
  double rel = 1e-6;
  /// Allowed |actual - expected| on top of the relative part, so that
  /// near-zero gradients (where finite differences only see rounding noise)
  /// do not fail.
  double abs = 1e-7;
  /// The step of the central differences is eps * max(1, |x_j|).
  double eps = 1e-6;
};

/// The outcome of one check. On failure, `report` names the worst element
/// (argument, position) with the transform's and the finite differences'
/// values; on success it still says how close the worst element was.
struct CheckResult {
  bool ok = false;
  std::string report;
};

/// The function a check compares against: one of the module as written, or
/// (`derived`) one of the transformed module, such as a first derivative
/// that a second one is checked against.
struct Ref {
  std::string name;
  bool transformed = false;

  Ref(const char *n) : name(n) {}
  Ref(std::string n) : name(std::move(n)) {}
  static Ref derived(std::string n) {
    Ref r(std::move(n));
    r.transformed = true;
    return r;
  }
};

/// What a grad driver computes.
struct GradSpec {
  /// The arguments of `f` whose sensitivities the driver returns, in this
  /// order (all, in order, when unset).
  std::optional<std::vector<int64_t>> wrt;
  /// The driver takes the output sensitivity as a trailing argument
  /// (`custom_sens`); the harness draws a random one and compares with the
  /// finite-difference vector-Jacobian product.
  bool customSens = false;
  /// The driver returns `f`'s value first (`value_and_grad`).
  bool valueAndGrad = false;
};

/// Runs -adj-grad on a program once and checks its drivers.
class GradCheck {
public:
  /// Parses and verifies `source`, then transforms a copy of it.
  explicit GradCheck(const std::string &source, Tolerance tolerance = {});
  /// The same for a module built with the C++ builder API (through its
  /// printed form, so that the builder's module is left as it is).
  explicit GradCheck(const api::Module &module, Tolerance tolerance = {});
  ~GradCheck();

  /// Whether parsing, the pass, verification of its output, and the check
  /// that no adj.grad/value_and_grad/vjp/jvp is left all succeeded.
  bool transformed() const { return transformed_; }
  /// The diagnostics of whichever of those steps failed.
  const std::string &diagnostics() const { return diagnostics_; }
  /// The transformed module, printed.
  std::string transformedIR() const;

  /// `driver(args...[, dout])` returns `[f(args)], sens(args[i])...` for i
  /// in spec.wrt: compared with central differences of `<dout, f(x)>`
  /// (dout = ones unless spec.customSens). Integer arguments must get zero
  /// sensitivities.
  CheckResult grad(llvm::StringRef driver, const Ref &f, const RValues &args,
                   const GradSpec &spec = {});

  /// `driver(args...)` returns `f(args)..., pullback`; the pullback applied
  /// to a random cotangent `c` must give the central differences of
  /// `<c, f(x)>` for the arguments in `wrt` (all when unset).
  CheckResult vjp(llvm::StringRef driver, const Ref &f, const RValues &args,
                  std::optional<std::vector<int64_t>> wrt = std::nullopt);

  /// `driver(args..., tangents...)` returns `f(args)..., df...`; with random
  /// tangents `t` for the arguments in `wrt` (all when unset), `df` must be
  /// the central difference of `f` along `t`.
  CheckResult jvp(llvm::StringRef driver, const Ref &f, const RValues &args,
                  std::optional<std::vector<int64_t>> wrt = std::nullopt);

  /// Runs a function of the transformed module (`original`: the module as
  /// written). Throws adjoint::Error on a run-time error.
  RValues run(llvm::StringRef name, const RValues &args, bool original = false);

  /// A random f64 tensor with elements uniform in [lo, hi), from the
  /// check's deterministic generator.
  RValue random(std::vector<int64_t> shape, double lo = -1.0, double hi = 1.0);

  const Tolerance &tolerance() const { return tolerance_; }

private:
  void init(const std::string &source);
  /// Runs `-adj-optimize` on a copy of the transformed module (the gate of
  /// the optimizer: every check also runs the optimized driver).
  void optimize();
  /// Runs `driver` on the transformed module and, when it was optimized,
  /// on the optimized one: the results must agree to 1e-12, and a driver of
  /// a program without recursion or data-dependent loops must be first
  /// order (unless it returns a function). Throws adjoint::Error otherwise.
  RValues runDriver(llvm::StringRef driver, const RValues &args);
  /// Compiles `driver` of the optimized module for the host CPU, runs it on
  /// `args` and requires the interpreter's flattened results `expected`.
  void checkCompiled(llvm::StringRef driver, const RValues &args,
                     const std::vector<double> &expected);
  RValues call(const Ref &f, const RValues &args);
  /// Compares `sens` (one sensitivity per argument in `wrt`) with central
  /// differences of `<weights, f(x)>` along those arguments.
  CheckResult compareWithDifferences(const std::string &what, const Ref &f,
                                     const RValues &args,
                                     const std::vector<int64_t> &wrt,
                                     const std::vector<double> &weights,
                                     llvm::ArrayRef<RValue> sens);
  /// A value shaped like `like` with random float elements (zeros for
  /// integer leaves, empty environments for function leaves).
  RValue randomLike(const RValue &like);
  /// Fails when the module could not be transformed.
  std::optional<CheckResult> notTransformed() const;

  Tolerance tolerance_;
  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> original_;
  mlir::OwningOpRef<mlir::ModuleOp> transformed_module_;
  std::unique_ptr<interp::Interpreter> originalInterp_;
  std::unique_ptr<interp::Interpreter> transformedInterp_;
  mlir::OwningOpRef<mlir::ModuleOp> optimized_;
  std::unique_ptr<interp::Interpreter> optimizedInterp_;
  /// Whether the optimizer must remove every closure, call, environment
  /// and tuple from the drivers (no recursion, no data-dependent loop).
  bool expectFirstOrder_ = false;
  bool transformed_ = false;
  std::string diagnostics_;
  std::mt19937_64 rng_{0x5eed};
};

/// The outcome of -adj-grad alone, for programs it must reject.
struct PassOutcome {
  /// Whether parsing, the pass and verification succeeded.
  bool ok = false;
  /// Everything reported while parsing, transforming and verifying.
  std::string diagnostics;
};
PassOutcome runGradPass(const std::string &source);

/// Interpreter values.
RValue f64(double value);
RValue f64(std::vector<int64_t> shape, std::vector<double> values);
RValue i64(double value);
RValue i64(std::vector<int64_t> shape, std::vector<double> values);
RValue tuple(std::vector<RValue> elements);

/// Builder types: an f64 tensor (a scalar by default) and an i64 one.
inline api::Type F64(std::vector<int64_t> shape = {}) {
  return api::Type::tensor(DType::F64, std::move(shape));
}
inline api::Type I64(std::vector<int64_t> shape = {}) {
  return api::Type::tensor(DType::I64, std::move(shape));
}

/// Defines the driver `@name(args...[, dout]) = grad(f)(...)` (or
/// value_and_grad) for a function whose arguments and result are tensors or
/// tuples of them.
api::Function gradDriver(api::Module &m, const api::Function &f,
                         const std::string &name, const GradSpec &spec = {});
/// Defines `@name(args...) = vjp(f)(args...)`.
api::Function
vjpDriver(api::Module &m, const api::Function &f, const std::string &name,
          std::optional<std::vector<int64_t>> wrt = std::nullopt);
/// Defines `@name(args..., tangents...) = jvp(f)(args..., tangents...)`.
api::Function
jvpDriver(api::Module &m, const api::Function &f, const std::string &name,
          std::optional<std::vector<int64_t>> wrt = std::nullopt);

/// Central differences of `fn` at `x`: d/dx_j of a scalar function, with
/// the harness's step rule (exposed so that the suite can check the finite
/// differences themselves against hand-derived derivatives).
std::vector<double>
centralDifferences(const std::function<double(const std::vector<double> &)> &fn,
                   const std::vector<double> &x, double eps);

} // namespace adjoint::test

/// Checks a CheckResult, printing its report when it fails.
#define CHECK_GRAD(expr)                                                       \
  do {                                                                         \
    ::adjoint::test::CheckResult checkResult_ = (expr);                        \
    INFO(checkResult_.report);                                                 \
    CHECK(checkResult_.ok);                                                    \
  } while (false)

/// Requires that a GradCheck transformed its program, printing the
/// diagnostics when it did not.
#define REQUIRE_TRANSFORMED(gc)                                                \
  do {                                                                         \
    INFO((gc).diagnostics());                                                  \
    REQUIRE((gc).transformed());                                               \
  } while (false)

#endif // ADJOINT_TEST_UNIT_AD_GRADCHECK_H
