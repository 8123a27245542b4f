//===- GradCheck.cpp - Gradients checked against finite differences -------===//

#include "GradCheck.h"

#include "adjoint/AD/Passes.h"
#include "adjoint/API/Builder.h"
#include "adjoint/API/Compile.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/CountedLoops.h"
#include "adjoint/InitAll.h"
#include "adjoint/Pipelines/Pipelines.h"
#include "adjoint/Support/DiagnosticCapture.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>

using namespace adjoint;
using namespace adjoint::test;

namespace {

void prepareContext(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  adjoint::registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadDialect<adj::AdjDialect>();
  // One thread per check is plenty, and keeps diagnostics in order.
  context.disableMultithreading();
}

/// Parses, verifies, runs -adj-grad on `module`'s copy and verifies the
/// result; false (with `diagnostics`) on the first failure.
bool transform(mlir::MLIRContext &context, mlir::ModuleOp module,
               std::string &diagnostics) {
  adjoint::DiagnosticCapture capture(&context,
                                    adjoint::DiagnosticCapture::Level::All);
  mlir::PassManager pm(&context);
  pm.addPass(adjoint::ad::createGrad());
  if (failed(pm.run(module))) {
    diagnostics = "-adj-grad failed:\n" + capture.text();
    return false;
  }
  if (failed(mlir::verify(module))) {
    diagnostics =
        "the output of -adj-grad does not verify:\n" + capture.text();
    return false;
  }
  std::string left;
  module.walk([&](mlir::Operation *op) {
    if (isa<adj::GradOp, adj::ValueAndGradOp, adj::VjpOp, adj::JvpOp>(op)) {
      llvm::raw_string_ostream os(left);
      os << "  " << op->getName() << " at " << op->getLoc() << "\n";
    }
  });
  if (!left.empty()) {
    diagnostics = "AD requests are left after -adj-grad:\n" + left;
    return false;
  }
  return true;
}

mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context,
                                        const std::string &source,
                                        std::string &diagnostics) {
  adjoint::DiagnosticCapture capture(&context,
                                    adjoint::DiagnosticCapture::Level::All);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(
          source, mlir::ParserConfig(&context), "conformance.mlir");
  if (!module) {
    diagnostics = "the program does not parse:\n" + capture.text();
    return nullptr;
  }
  if (failed(mlir::verify(*module))) {
    diagnostics = "the program does not verify:\n" + capture.text();
    return nullptr;
  }
  return module;
}

//===----------------------------------------------------------------------===//
// Flattening values to the float elements that finite differences perturb
//===----------------------------------------------------------------------===//

/// A float tensor leaf of a flattened value: where it is (for reports) and
/// where its elements are in the flat vector.
struct Leaf {
  std::string name;
  std::vector<int64_t> shape;
  size_t offset = 0;
};

std::string formatIndex(const std::vector<int64_t> &shape, size_t flat) {
  if (shape.empty())
    return "";
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = static_cast<int64_t>(flat) % shape[d];
    flat /= shape[d];
  }
  std::string out = "[";
  for (size_t d = 0; d < index.size(); ++d)
    out += (d ? ", " : "") + std::to_string(index[d]);
  return out + "]";
}

/// Appends the elements of the float tensors of `v` (depth first) to `out`.
void flatten(const RValue &v, const std::string &name, std::vector<double> &out,
             std::vector<Leaf> *leaves) {
  if (v.isTensor()) {
    if (!isFloat(v.tensor().dtype()))
      return;
    if (leaves)
      leaves->push_back({name, v.tensor().shape(), out.size()});
    std::vector<double> d = v.tensor().toDoubles();
    out.insert(out.end(), d.begin(), d.end());
  } else if (v.isTuple()) {
    for (size_t i = 0; i < v.elements().size(); ++i)
      flatten(v.elements()[i], name + "." + std::to_string(i), out, leaves);
  }
}

/// `like` with its float elements replaced by flat[pos...].
RValue unflatten(const RValue &like, const std::vector<double> &flat,
                 size_t &pos) {
  if (like.isTensor()) {
    const interp::Tensor &t = like.tensor();
    if (!isFloat(t.dtype()))
      return like;
    size_t n = static_cast<size_t>(t.numel());
    std::vector<double> values(flat.begin() + pos, flat.begin() + pos + n);
    pos += n;
    return interp::Tensor::fromDoubles(t.dtype(), t.shape(), values);
  }
  if (like.isTuple()) {
    std::vector<RValue> elements;
    for (const RValue &e : like.elements())
      elements.push_back(unflatten(e, flat, pos));
    return RValue::tuple(std::move(elements));
  }
  return like;
}

/// Walks `like` (a primal value) and `sens` (its sensitivity or tangent)
/// together: float leaves of `sens` are appended to `out`; integer leaves
/// must be zero tensors of the same shape; function leaves must be
/// environments. Returns an error message, or "" when the structures match.
std::string collectSens(const RValue &like, const RValue &sens,
                        const std::string &name, std::vector<double> &out) {
  if (like.isTensor()) {
    const interp::Tensor &t = like.tensor();
    if (!sens.isTensor())
      return name + ": expected a " + t.typeString() + " sensitivity, got " +
             sens.toString();
    const interp::Tensor &s = sens.tensor();
    if (s.shape() != t.shape() || s.dtype() != t.dtype())
      return name + ": the sensitivity of a " + t.typeString() + " is a " +
             s.typeString();
    std::vector<double> d = s.toDoubles();
    if (isFloat(t.dtype())) {
      out.insert(out.end(), d.begin(), d.end());
      return "";
    }
    for (size_t i = 0; i < d.size(); ++i)
      if (d[i] != 0.0)
        return name + formatIndex(t.shape(), i) +
               ": an integer value has the non-zero sensitivity " +
               std::to_string(d[i]);
    return "";
  }
  if (like.isTuple()) {
    if (!sens.isTuple() || sens.elements().size() != like.elements().size())
      return name + ": expected a tuple of " +
             std::to_string(like.elements().size()) +
             " sensitivities, got " + sens.toString();
    for (size_t i = 0; i < like.elements().size(); ++i) {
      std::string error =
          collectSens(like.elements()[i], sens.elements()[i],
                      name + "." + std::to_string(i), out);
      if (!error.empty())
        return error;
    }
    return "";
  }
  if (!sens.isEnv())
    return name + ": the sensitivity of a function is not an environment: " +
           sens.toString();
  return "";
}

std::string describe(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

/// Compares `actual` with `expected` (flat, laid out as `leaves`); reports
/// the worst element relative to its allowance.
CheckResult compare(const std::string &what, const std::vector<double> &actual,
                    const std::vector<double> &expected,
                    const std::vector<Leaf> &leaves, double rel, double abs) {
  CheckResult result;
  if (actual.size() != expected.size()) {
    result.report = what + ": " + std::to_string(actual.size()) +
                    " elements, expected " + std::to_string(expected.size());
    return result;
  }
  double worst = -1;
  size_t worstAt = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    double a = actual[i], e = expected[i];
    double allowed = rel * std::max(std::fabs(a), std::fabs(e)) + abs;
    double ratio = std::isfinite(a) && std::isfinite(e)
                       ? std::fabs(a - e) / allowed
                       : std::numeric_limits<double>::infinity();
    if (ratio > worst) {
      worst = ratio;
      worstAt = i;
    }
  }
  result.ok = worst <= 1.0;
  if (actual.empty()) {
    result.report = what + ": nothing to compare";
    return result;
  }
  // Name the leaf that holds the worst element.
  std::string where = "element " + std::to_string(worstAt);
  for (size_t l = leaves.size(); l-- > 0;) {
    if (leaves[l].offset <= worstAt) {
      where = leaves[l].name +
              formatIndex(leaves[l].shape, worstAt - leaves[l].offset);
      break;
    }
  }
  double a = actual[worstAt], e = expected[worstAt];
  result.report = what + (result.ok ? ": ok" : ": MISMATCH") + "; worst " +
                  where + ": got " + describe(a) + ", expected " +
                  describe(e) + " (|diff| " + describe(std::fabs(a - e)) +
                  ", " + describe(worst) + "x the tolerance)";
  // ADJ_GRADCHECK_VERBOSE=1 prints every comparison, not only failures.
  if (std::getenv("ADJ_GRADCHECK_VERBOSE"))
    std::cerr << result.report << " [" << actual.size() << " elements]\n";
  return result;
}

CheckResult failure(std::string report) {
  CheckResult r;
  r.report = std::move(report);
  return r;
}

/// The indices of `wrt`, or 0..n-1.
std::vector<int64_t> chosen(const std::optional<std::vector<int64_t>> &wrt,
                            size_t n) {
  if (wrt)
    return *wrt;
  std::vector<int64_t> all;
  for (size_t i = 0; i < n; ++i)
    all.push_back(static_cast<int64_t>(i));
  return all;
}

/// The flattened perturbable elements of `args[wrt...]`.
struct Point {
  std::vector<double> x;
  std::vector<Leaf> leaves;
  /// Offsets of each chosen argument in `x`.
  std::vector<size_t> starts;
};

Point pointOf(const RValues &args, const std::vector<int64_t> &wrt) {
  Point p;
  for (int64_t i : wrt) {
    p.starts.push_back(p.x.size());
    flatten(args[i], "arg " + std::to_string(i), p.x, &p.leaves);
  }
  return p;
}

/// `args` with the chosen arguments' float elements taken from `x`.
RValues withPoint(const RValues &args, const std::vector<int64_t> &wrt,
                  const std::vector<double> &x) {
  RValues out = args;
  size_t pos = 0;
  for (int64_t i : wrt)
    out[i] = unflatten(args[i], x, pos);
  return out;
}

/// The tensor leaves of `value`, depth-first: a compiled function's inputs.
void flattenTensors(const RValue &value, std::vector<rt::Tensor> &out) {
  if (value.isTensor()) {
    out.push_back(toRuntime(value.tensor()));
    return;
  }
  for (const RValue &element : value.elements())
    flattenTensors(element, out);
}

/// Throws unless `actual` has `expected`'s elements to 1e-12 (relative, or
/// absolute below 1): the programs are f64, and optimized or compiled code
/// may only differ by reassociation. `what` names the results checked.
void requireAgreement(const std::vector<double> &actual,
                      const std::vector<double> &expected,
                      const std::string &what) {
  if (actual.size() != expected.size())
    throw adjoint::Error(what + " has " + std::to_string(actual.size()) +
                         " elements, not " + std::to_string(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i)
    if (!(std::abs(actual[i] - expected[i]) <=
          1e-12 * std::max(1.0, std::abs(expected[i]))))
      throw adjoint::Error(what + " differs at element " + std::to_string(i) +
                           ": " + describe(actual[i]) + " instead of " +
                           describe(expected[i]));
}

std::vector<double> flattenAll(const RValues &values) {
  std::vector<double> out;
  for (const RValue &v : values)
    flatten(v, "", out, nullptr);
  return out;
}

double dot(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

std::string errorMessage(const std::exception &e) {
  return std::string("run-time error: ") + e.what();
}

} // namespace

//===----------------------------------------------------------------------===//
// Public helpers
//===----------------------------------------------------------------------===//

std::vector<double> adjoint::test::centralDifferences(
    const std::function<double(const std::vector<double> &)> &fn,
    const std::vector<double> &x, double eps) {
  std::vector<double> grad(x.size());
  std::vector<double> xp = x;
  for (size_t j = 0; j < x.size(); ++j) {
    // A step relative to |x_j| keeps x_j +- h distinct from x_j in f64.
    double h = eps * std::max(1.0, std::fabs(x[j]));
    xp[j] = x[j] + h;
    double up = fn(xp);
    xp[j] = x[j] - h;
    double down = fn(xp);
    xp[j] = x[j];
    grad[j] = (up - down) / (2 * h);
  }
  return grad;
}

RValue adjoint::test::f64(double value) {
  return interp::Tensor::scalar(DType::F64, value);
}
RValue adjoint::test::f64(std::vector<int64_t> shape,
                          std::vector<double> values) {
  return interp::Tensor::fromDoubles(DType::F64, std::move(shape),
                                     values);
}
RValue adjoint::test::i64(double value) {
  return interp::Tensor::scalar(DType::I64, value);
}
RValue adjoint::test::i64(std::vector<int64_t> shape,
                          std::vector<double> values) {
  return interp::Tensor::fromDoubles(DType::I64, std::move(shape),
                                     values);
}
RValue adjoint::test::tuple(std::vector<RValue> elements) {
  return RValue::tuple(std::move(elements));
}

PassOutcome adjoint::test::runGradPass(const std::string &source) {
  mlir::MLIRContext context;
  prepareContext(context);
  PassOutcome out;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parse(context, source, out.diagnostics);
  if (!module)
    return out;
  out.ok = transform(context, *module, out.diagnostics);
  return out;
}

//===----------------------------------------------------------------------===//
// GradCheck
//===----------------------------------------------------------------------===//

GradCheck::GradCheck(const std::string &source, Tolerance tolerance)
    : tolerance_(tolerance) {
  init(source);
}

GradCheck::GradCheck(const api::Module &module, Tolerance tolerance)
    : tolerance_(tolerance) {
  std::string source;
  try {
    module.verify();
    source = module.str();
  } catch (const adjoint::Error &e) {
    diagnostics_ = std::string("the built module does not verify: ") +
                   e.what();
    return;
  }
  init(source);
}

GradCheck::~GradCheck() = default;

void GradCheck::init(const std::string &source) {
  prepareContext(context_);
  original_ = parse(context_, source, diagnostics_);
  if (!original_)
    return;
  transformed_module_ = original_->clone();
  if (!transform(context_, *transformed_module_, diagnostics_))
    return;
  try {
    originalInterp_ = std::make_unique<interp::Interpreter>(*original_);
    transformedInterp_ =
        std::make_unique<interp::Interpreter>(*transformed_module_);
  } catch (const std::exception &e) {
    diagnostics_ = std::string("the interpreter rejects the program: ") +
                   e.what();
    return;
  }
  transformed_ = true;
  optimize();
  // Handy when a check fails: ADJ_GRADCHECK_DUMP=1 prints what -adj-grad
  // produced.
  if (std::getenv("ADJ_GRADCHECK_DUMP"))
    std::cerr << transformedIR() << "\n";
}

/// Whether the optimizer can make `module`'s code first order: no function
/// refers to itself (directly or through others) and every loop is an
/// adj.for with constant bounds or an adj.while that counts to a constant
/// (-adj-unroll or -adj-reverse-loops removes its closures).
static bool firstOrderExpected(mlir::ModuleOp module) {
  llvm::StringMap<llvm::StringSet<>> refs;
  bool loopsKnown = true;
  module.walk([&](mlir::Operation *op) {
    if (isa<adj::WhileOp>(op) && !adj::staticTripCount(op))
      loopsKnown = false;
    if (auto loop = dyn_cast<adj::ForOp>(op))
      for (mlir::Value bound :
           {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
        if (!bound.getDefiningOp<adj::ConstantOp>())
          loopsKnown = false;
    if (auto ref = dyn_cast<adj::FuncRefOp>(op))
      refs[op->getParentOfType<adj::FuncOp>().getSymName()].insert(
          ref.getCallee());
  });
  // A function reaches itself when a walk from it comes back.
  for (auto &entry : refs) {
    llvm::StringSet<> seen;
    llvm::SmallVector<llvm::StringRef> work(entry.second.keys().begin(),
                                            entry.second.keys().end());
    while (!work.empty()) {
      llvm::StringRef f = work.pop_back_val();
      if (f == entry.first())
        return false;
      if (!seen.insert(f).second)
        continue;
      for (const auto &g : refs[f])
        work.push_back(g.getKey());
    }
  }
  return loopsKnown;
}

void GradCheck::optimize() {
  expectFirstOrder_ = firstOrderExpected(*original_);
  optimized_ = transformed_module_->clone();
  adjoint::DiagnosticCapture capture(&context_,
                                    adjoint::DiagnosticCapture::Level::All);
  mlir::PassManager pm(&context_);
  adjoint::buildOptimizePipeline(pm);
  if (failed(pm.run(*optimized_)) || failed(mlir::verify(*optimized_))) {
    diagnostics_ = "-adj-optimize failed on the output of -adj-grad:\n" +
                   capture.text();
    transformed_ = false;
    return;
  }
  optimizedInterp_ = std::make_unique<interp::Interpreter>(*optimized_);
  if (std::getenv("ADJ_GRADCHECK_VERBOSE"))
    std::cerr << "-adj-optimize: first-order code "
              << (expectFirstOrder_ ? "required" : "not required (recursion "
                                                   "or a data-dependent loop)")
              << "\n";
}

RValues GradCheck::runDriver(llvm::StringRef driver, const RValues &args) {
  RValues results = run(driver, args);
  if (!optimizedInterp_)
    return results;
  auto func = mlir::SymbolTable::lookupNearestSymbolFrom<adj::FuncOp>(
      *optimized_, mlir::StringAttr::get(&context_, driver));
  if (!func)
    throw adjoint::Error("-adj-optimize removed the driver @" + driver.str());
  // A driver that returns a function (a vjp's pullback) keeps that closure.
  bool returnsFunction =
      llvm::any_of(func.getResultTypes(), [](mlir::Type t) {
        return isa<adj::FnType>(t) ||
               (isa<adj::TupleType>(t) &&
                llvm::any_of(cast<adj::TupleType>(t).getTypes(),
                             [](mlir::Type e) { return isa<adj::FnType>(e); }));
      });
  if (expectFirstOrder_ && !returnsFunction) {
    bool tuples = llvm::any_of(
        llvm::concat<const mlir::Type>(func.getArgumentTypes(),
                                       func.getResultTypes()),
        [](mlir::Type t) { return isa<adj::TupleType>(t); });
    std::string left;
    func.walk([&](mlir::Operation *op) {
      bool higherOrder =
          isa<adj::LambdaOp, adj::CallOp, adj::ClosureOp, adj::EnvNewOp,
              adj::EnvGetOp, adj::EnvSetOp, adj::EnvAddOp>(op);
      if (higherOrder || (!tuples && isa<adj::TupleOp, adj::GetOp>(op)))
        left += " " + op->getName().getStringRef().str();
    });
    if (!left.empty())
      throw adjoint::Error("after -adj-optimize @" + driver.str() +
                           " still has:" + left);
  }
  std::vector<double> expected = flattenAll(results);
  requireAgreement(flattenAll(optimizedInterp_->call(driver, args)), expected,
                   "@" + driver.str() + " after -adj-optimize");
  // A function value cannot leave compiled code: such drivers are checked
  // through the functions they call.
  if (!returnsFunction)
    checkCompiled(driver, args, expected);
  return results;
}

void GradCheck::checkCompiled(llvm::StringRef driver, const RValues &args,
                              const std::vector<double> &expected) {
  CompileOptions options;
  options.optimize = false; // optimized_ already is.
  options.cache = false;
  Executable exe = compile(*optimized_, driver.str(), Target::cpu(), options);
  std::vector<rt::Tensor> inputs;
  for (const RValue &arg : args)
    flattenTensors(arg, inputs);
  RValues outputs;
  for (const rt::Tensor &t : exe.run(inputs))
    outputs.push_back(toInterpreter(t));
  requireAgreement(flattenAll(outputs), expected,
                   "compiled @" + driver.str());
}

std::string GradCheck::transformedIR() const {
  if (!transformed_module_)
    return "<none>";
  std::string s;
  llvm::raw_string_ostream os(s);
  mlir::ModuleOp module = transformed_module_.get();
  module.print(os);
  return s;
}

std::optional<CheckResult> GradCheck::notTransformed() const {
  if (transformed_)
    return std::nullopt;
  return failure(diagnostics_);
}

RValues GradCheck::run(llvm::StringRef name, const RValues &args,
                       bool original) {
  if (!transformed_)
    throw adjoint::Error("the program was not transformed: " + diagnostics_);
  return (original ? originalInterp_ : transformedInterp_)->call(name, args);
}

RValues GradCheck::call(const Ref &f, const RValues &args) {
  return run(f.name, args, !f.transformed);
}

RValue GradCheck::random(std::vector<int64_t> shape, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<double> values(n);
  for (double &v : values)
    v = dist(rng_);
  return f64(std::move(shape), std::move(values));
}

RValue GradCheck::randomLike(const RValue &like) {
  if (like.isTensor()) {
    const interp::Tensor &t = like.tensor();
    if (!isFloat(t.dtype()))
      return interp::Tensor(t.dtype(), t.shape());
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<double> values(t.numel());
    for (double &v : values)
      v = dist(rng_);
    return interp::Tensor::fromDoubles(t.dtype(), t.shape(), values);
  }
  if (like.isTuple()) {
    std::vector<RValue> elements;
    for (const RValue &e : like.elements())
      elements.push_back(randomLike(e));
    return RValue::tuple(std::move(elements));
  }
  return RValue::env({});
}

CheckResult GradCheck::grad(llvm::StringRef driver, const Ref &f,
                            const RValues &args, const GradSpec &spec) {
  if (auto r = notTransformed())
    return *r;
  std::string what = "grad of @" + f.name + " by @" + driver.str();
  try {
    RValues primal = call(f, args);
    std::vector<double> weights = flattenAll(primal);
    RValues driverArgs = args;
    if (spec.customSens) {
      if (primal.size() != 1)
        return failure(what + ": custom_sens needs one result, @" + f.name +
                       " has " + std::to_string(primal.size()));
      RValue dout = randomLike(primal.front());
      weights = flattenAll({dout});
      driverArgs.push_back(dout);
    } else {
      // The output sensitivity of grad is ones.
      std::fill(weights.begin(), weights.end(), 1.0);
    }

    std::vector<int64_t> wrt = chosen(spec.wrt, args.size());
    RValues results = runDriver(driver, driverArgs);
    size_t first = spec.valueAndGrad ? 1 : 0;
    if (results.size() != first + wrt.size())
      return failure(what + ": the driver returned " +
                     std::to_string(results.size()) + " values, expected " +
                     std::to_string(first + wrt.size()));
    if (spec.valueAndGrad) {
      CheckResult value = compare(what + ": value", flattenAll({results[0]}),
                                  flattenAll(primal), {}, 1e-12, 1e-12);
      if (!value.ok)
        return value;
    }

    return compareWithDifferences(
        what, f, args, wrt, weights,
        llvm::ArrayRef<RValue>(results).drop_front(first));
  } catch (const std::exception &e) {
    return failure(what + ": " + errorMessage(e));
  }
}

CheckResult GradCheck::compareWithDifferences(
    const std::string &what, const Ref &f, const RValues &args,
    const std::vector<int64_t> &wrt, const std::vector<double> &weights,
    llvm::ArrayRef<RValue> sens) {
  std::vector<double> actual;
  for (size_t k = 0; k < wrt.size(); ++k) {
    std::string error =
        collectSens(args[wrt[k]], sens[k],
                    "sensitivity of arg " + std::to_string(wrt[k]), actual);
    if (!error.empty())
      return failure(what + ": " + error);
  }
  Point p = pointOf(args, wrt);
  std::vector<double> expected = centralDifferences(
      [&](const std::vector<double> &x) {
        return dot(weights, flattenAll(call(f, withPoint(args, wrt, x))));
      },
      p.x, tolerance_.eps);
  return compare(what, actual, expected, p.leaves, tolerance_.rel,
                 tolerance_.abs);
}

CheckResult GradCheck::vjp(llvm::StringRef driver, const Ref &f,
                           const RValues &args,
                           std::optional<std::vector<int64_t>> wrtOpt) {
  if (auto r = notTransformed())
    return *r;
  std::string what = "vjp of @" + f.name + " by @" + driver.str();
  try {
    RValues primal = call(f, args);
    RValues results = runDriver(driver, args);
    if (results.size() != primal.size() + 1 || !results.back().isFunction())
      return failure(what + ": the driver must return the " +
                     std::to_string(primal.size()) +
                     " results of the function and a pullback");
    CheckResult value =
        compare(what + ": value",
                flattenAll(RValues(results.begin(), results.end() - 1)),
                flattenAll(primal), {}, 1e-12, 1e-12);
    if (!value.ok)
      return value;

    RValues cotangents;
    for (const RValue &r : primal)
      cotangents.push_back(randomLike(r));
    std::vector<double> weights = flattenAll(cotangents);
    RValues sens = transformedInterp_->call(results.back(), cotangents);

    std::vector<int64_t> wrt = chosen(wrtOpt, args.size());
    if (sens.size() != wrt.size())
      return failure(what + ": the pullback returned " +
                     std::to_string(sens.size()) + " values, expected " +
                     std::to_string(wrt.size()));
    return compareWithDifferences(what, f, args, wrt, weights, sens);
  } catch (const std::exception &e) {
    return failure(what + ": " + errorMessage(e));
  }
}

CheckResult GradCheck::jvp(llvm::StringRef driver, const Ref &f,
                           const RValues &args,
                           std::optional<std::vector<int64_t>> wrtOpt) {
  if (auto r = notTransformed())
    return *r;
  std::string what = "jvp of @" + f.name + " by @" + driver.str();
  try {
    std::vector<int64_t> wrt = chosen(wrtOpt, args.size());
    RValues primal = call(f, args);
    RValues driverArgs = args;
    RValues tangents;
    for (int64_t i : wrt)
      tangents.push_back(randomLike(args[i]));
    driverArgs.insert(driverArgs.end(), tangents.begin(), tangents.end());
    RValues results = runDriver(driver, driverArgs);
    if (results.size() != 2 * primal.size())
      return failure(what + ": the driver returned " +
                     std::to_string(results.size()) + " values, expected " +
                     std::to_string(2 * primal.size()));
    CheckResult value = compare(
        what + ": value",
        flattenAll(RValues(results.begin(), results.begin() + primal.size())),
        flattenAll(primal), {}, 1e-12, 1e-12);
    if (!value.ok)
      return value;

    std::vector<double> actual;
    std::vector<Leaf> leaves;
    std::vector<double> layout;
    for (size_t k = 0; k < primal.size(); ++k) {
      flatten(primal[k], "tangent of result " + std::to_string(k), layout,
              &leaves);
      std::string error =
          collectSens(primal[k], results[primal.size() + k],
                      "tangent of result " + std::to_string(k), actual);
      if (!error.empty())
        return failure(what + ": " + error);
    }

    // The directional derivative along t: one central difference with a
    // step scaled by the largest perturbed coordinate.
    Point p = pointOf(args, wrt);
    std::vector<double> t;
    for (const RValue &v : tangents)
      flatten(v, "", t, nullptr);
    double scale = 1.0;
    for (double v : p.x)
      scale = std::max(scale, std::fabs(v));
    double h = tolerance_.eps * scale;
    std::vector<double> up = p.x, down = p.x;
    for (size_t j = 0; j < p.x.size(); ++j) {
      up[j] += h * t[j];
      down[j] -= h * t[j];
    }
    std::vector<double> fUp = flattenAll(call(f, withPoint(args, wrt, up)));
    std::vector<double> fDown =
        flattenAll(call(f, withPoint(args, wrt, down)));
    std::vector<double> expected(fUp.size());
    for (size_t i = 0; i < fUp.size(); ++i)
      expected[i] = (fUp[i] - fDown[i]) / (2 * h);
    return compare(what, actual, expected, leaves, tolerance_.rel,
                   tolerance_.abs);
  } catch (const std::exception &e) {
    return failure(what + ": " + errorMessage(e));
  }
}

//===----------------------------------------------------------------------===//
// Drivers built with the builder API
//===----------------------------------------------------------------------===//

api::Function adjoint::test::gradDriver(api::Module &m, const api::Function &f,
                                        const std::string &name,
                                        const GradSpec &spec) {
  api::Type type = f.type();
  std::vector<api::Type> inputs = type.inputs();
  if (spec.customSens)
    inputs.push_back(type.results().front());
  api::ADOptions options;
  options.wrt = spec.wrt;
  options.customSens = spec.customSens;
  return m.function(name, inputs, [&](const std::vector<api::Value> &args) {
    api::Value request = spec.valueAndGrad
                             ? api::value_and_grad(f.ref(), options)
                             : api::grad(f.ref(), options);
    return api::call(request, args);
  });
}

api::Function adjoint::test::vjpDriver(api::Module &m, const api::Function &f,
                                       const std::string &name,
                                       std::optional<std::vector<int64_t>> wrt) {
  api::ADOptions options;
  options.wrt = wrt;
  return m.function(name, f.type().inputs(),
                    [&](const std::vector<api::Value> &args) {
                      return api::call(api::vjp(f.ref(), options), args);
                    });
}

api::Function adjoint::test::jvpDriver(api::Module &m, const api::Function &f,
                                       const std::string &name,
                                       std::optional<std::vector<int64_t>> wrt) {
  std::vector<api::Type> inputs = f.type().inputs();
  for (int64_t i : chosen(wrt, inputs.size()))
    inputs.push_back(f.type().inputs()[i]);
  api::ADOptions options;
  options.wrt = wrt;
  return m.function(name, inputs, [&](const std::vector<api::Value> &args) {
    return api::call(api::jvp(f.ref(), options), args);
  });
}
