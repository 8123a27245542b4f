//===- F64MathTest.cpp - Accuracy of the f64 approximations ---------------===//
//
// -adj-approximate-math's f64 exp, expm1, log, log1p, tanh and erf, compiled
// with LLVM and run, against the C library's long double functions (64-bit
// significands: their error is below 2^-10 of a double's ulp) over dense
// sweeps of each function's interesting ranges, random bit patterns and
// the special values, which must match the C library's double functions
// exactly (NaN, infinities, signed zeros, saturation, overflow and
// underflow). The largest error of each function is printed and bounded.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#include "llvm/Support/TargetSelect.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace mlir;

namespace {

using Fn = double (*)(double);

/// The six functions compiled once: scalar f64 functions `f_<name>`.
class Compiled {
public:
  Compiled() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, func::FuncDialect, math::MathDialect,
                    LLVM::LLVMDialect, vector::VectorDialect>();
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();

    std::string source;
    for (const char *name : kNames)
      source += std::string("func.func @f_") + name +
                "(%x: f64) -> f64 {\n  %y = math." + name +
                " %x : f64\n  return %y : f64\n}\n";
    module = parseSourceString<ModuleOp>(source, ParserConfig(&context));
    REQUIRE(module);

    PassManager approximate(&context);
    approximate.addPass(adjoint::createApproximateMath());
    REQUIRE(succeeded(approximate.run(*module)));
    // All six became arithmetic: nothing is left for libm.
    module->walk([&](Operation *op) {
      for (const char *name : kNames)
        REQUIRE(op->getName().getStringRef() != std::string("math.") + name);
    });

    PassManager lower(&context);
    lower.addPass(createConvertMathToLLVMPass());
    lower.addPass(createArithToLLVMConversionPass());
    lower.addPass(createConvertFuncToLLVMPass());
    lower.addPass(createReconcileUnrealizedCastsPass());
    REQUIRE(succeeded(lower.run(*module)));

    ExecutionEngineOptions options;
    // The engine keeps a reference to the transformer, which it also uses
    // when it is destroyed (for the module's deinitializers).
    transformer = makeOptimizingTransformer(3, 0, nullptr);
    options.transformer = transformer;
    auto created = ExecutionEngine::create(*module, options);
    REQUIRE(bool(created));
    engine = std::move(*created);
    // Compiled here, in the constructor, so that the static objects LLVM's
    // code generator creates on first use outlive this object (they are
    // destroyed in the reverse order of construction): its destructor
    // compiles the module's deinitializers.
    for (const char *name : kNames) {
      auto address = engine->lookup(std::string("f_") + name);
      REQUIRE(bool(address));
      functions[name] = reinterpret_cast<Fn>(*address);
    }
  }

  Fn get(const std::string &name) { return functions.at(name); }

  static constexpr const char *kNames[] = {"exp",  "expm1", "log",
                                           "log1p", "tanh", "erf"};

private:
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::function<llvm::Error(llvm::Module *)> transformer;
  std::unique_ptr<ExecutionEngine> engine;
  std::map<std::string, Fn> functions;
};

Compiled &compiled() {
  static Compiled instance;
  return instance;
}

/// |got - want| in units of the last place of `want` rounded to double
/// (subnormal results: of the smallest subnormal).
long double ulpError(double got, long double want) {
  double rounded = double(want);
  if (std::isinf(rounded))
    rounded = std::copysign(std::numeric_limits<double>::max(), rounded);
  int exponent = rounded == 0 ? -1022 : std::ilogb(rounded);
  if (exponent < -1022)
    exponent = -1022;
  long double ulp = std::ldexp(1.0L, exponent - 52);
  return std::fabs((long double)got - want) / ulp;
}

bool sameSpecial(double got, double want) {
  if (std::isnan(want))
    return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

/// Sweeps `fn` against `reference` (long double) and `exact` (the C
/// library's double function, for the special values); returns the
/// largest ulp error over finite results.
struct Sweep {
  Fn fn;
  long double (*reference)(long double);
  double (*exact)(double);
  long double worst = 0;
  double worstAt = 0;
  size_t points = 0;

  void check(double x) {
    double got = fn(x);
    long double want = reference(x);
    ++points;
    if (!std::isfinite(want) || !std::isfinite(got)) {
      INFO("x = " << x << " got " << got << " want " << exact(x));
      CHECK(sameSpecial(got, exact(x)));
      return;
    }
    long double error = ulpError(got, want);
    if (error > worst) {
      worst = error;
      worstAt = x;
    }
  }
  void range(double low, double high, int n) {
    for (int k = 0; k <= n; ++k)
      check(low + (high - low) * k / n);
  }
  /// Points spaced evenly in magnitude from 2^lo to 2^hi, both signs.
  void logRange(int lo, int hi, int n) {
    for (int k = 0; k <= n; ++k) {
      double m = std::exp2(lo + double(hi - lo) * k / n);
      check(m);
      check(-m);
    }
  }
  void randomBits(int n, uint64_t seed) {
    std::mt19937_64 random(seed);
    for (int k = 0; k < n; ++k)
      check(std::bit_cast<double>(random()));
  }
  void specials(std::initializer_list<double> extra) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr double dmin = std::numeric_limits<double>::min();
    constexpr double dmax = std::numeric_limits<double>::max();
    constexpr double denorm = std::numeric_limits<double>::denorm_min();
    for (double x : {0.0, -0.0, inf, -inf, denorm, -denorm, dmin, -dmin,
                     dmax, -dmax, 0x1p-1030, -0x1p-1030, 1.0, -1.0})
      check(x);
    for (double x : extra) {
      check(x);
      check(std::nextafter(x, inf));
      check(std::nextafter(x, -inf));
    }
    // NaN in, NaN out.
    CHECK(std::isnan(fn(std::numeric_limits<double>::quiet_NaN())));
    CHECK(std::isnan(fn(-std::numeric_limits<double>::quiet_NaN())));
  }
  void report(const char *name, double bound) {
    std::printf("f64 %-6s max error %.3Lf ulp at x = %.17g (%zu points)\n",
                name, worst, worstAt, points);
    INFO(name << ": " << double(worst) << " ulp at x = " << worstAt);
    CHECK(worst <= bound);
  }
};

Sweep sweep(const char *name, long double (*reference)(long double),
            double (*exact)(double)) {
  return Sweep{compiled().get(name), reference, exact};
}

constexpr int kDense = 200000;
constexpr int kRandom = 200000;

} // namespace

TEST_CASE("f64 exp within 1 ulp", "[codegen][f64math]") {
  Sweep s = sweep("exp", expl, ::exp);
  s.range(-1, 1, kDense);
  s.range(-745.2, 709.8, kDense);
  s.range(-745.2, -707, kDense / 10);  // subnormal results
  s.logRange(-60, 3, kDense / 10);
  s.randomBits(kRandom, 1);
  s.specials({709.782712893383973096, -745.13321910194122, -708.39641853226408,
              0x1p-54, -0x1p-54, 1e3, -1e3});
  s.report("exp", 1.0);
}

TEST_CASE("f64 expm1 within 1.5 ulp", "[codegen][f64math]") {
  Sweep s = sweep("expm1", expm1l, ::expm1);
  s.range(-1, 1, kDense);
  s.range(-40, 709.8, kDense);
  s.logRange(-70, 3, kDense / 10);
  s.randomBits(kRandom, 2);
  s.specials({709.782712893383973096, 0x1p-54, -0x1p-54, -38, -50, 0.34657359,
              -0.34657359});
  s.report("expm1", 1.5);
}

TEST_CASE("f64 log within 1 ulp", "[codegen][f64math]") {
  Sweep s = sweep("log", logl, ::log);
  s.range(0.5, 2, kDense);
  s.range(0, 1000, kDense);
  s.logRange(-1074, 1023, kDense);
  s.randomBits(kRandom, 3);
  s.specials({0x1p-1022, 1.4142135623730951, 0.70710678118654757});
  s.report("log", 1.0);
}

TEST_CASE("f64 log1p within 1 ulp", "[codegen][f64math]") {
  Sweep s = sweep("log1p", log1pl, ::log1p);
  s.range(-0.999, 1, kDense);
  s.range(-1, 1000, kDense);
  s.logRange(-80, 1023, kDense / 10);
  s.randomBits(kRandom, 4);
  s.specials({-1.0, 0x1p-54, -0x1p-54, 0x1p53, 0.41421356, -0.29289322});
  s.report("log1p", 1.0);
}

TEST_CASE("f64 tanh within 2 ulp", "[codegen][f64math]") {
  Sweep s = sweep("tanh", tanhl, ::tanh);
  s.range(-1, 1, kDense);
  s.range(-25, 25, kDense);
  s.logRange(-40, 6, kDense / 10);
  s.randomBits(kRandom, 5);
  s.specials({0x1p-28, -0x1p-28, 19.0615, 22.0, 0.34657359});
  s.report("tanh", 2.0);
}

TEST_CASE("f64 erf within 1 ulp", "[codegen][f64math]") {
  Sweep s = sweep("erf", erfl, ::erf);
  s.range(-1.5, 1.5, kDense);
  s.range(-7, 7, kDense);
  s.logRange(-1074, 3, kDense / 10);
  s.randomBits(kRandom, 6);
  s.specials({0.84375, -0.84375, 1.25, -1.25, 1 / 0.35, -1 / 0.35, 6.0, -6.0,
              5.9215871957945083});
  s.report("erf", 1.0);
}
