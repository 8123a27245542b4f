//===- RulesTestHarness.cpp - Rule application and finite differences -----===//

#include "RulesTestUtil.h"

#include "adjoint/AD/Rules.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::test::rules;
using interp::Tensor;

namespace {

constexpr double kEps = 1e-6;
constexpr double kTol = 1e-6;

std::string print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

bool isFloatTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Clones `f` as @name at the end of the module; returns it with its body,
/// the ops of the body (terminator excluded) and the terminator.
struct Clone {
  adj::FuncOp func;
  Block *body;
  SmallVector<Operation *> ops;
  adj::ReturnOp ret;

  Clone(ModuleOp module, adj::FuncOp f, StringRef name) {
    func = cast<adj::FuncOp>(f->clone());
    func.setSymName(name);
    module.push_back(func);
    body = &func.getBody().front();
    for (Operation &op : body->without_terminator())
      ops.push_back(&op);
    ret = cast<adj::ReturnOp>(body->getTerminator());
  }

  /// Replaces the terminator by one returning `values`.
  void finish(ArrayRef<Value> values) {
    OpBuilder b(ret);
    adj::ReturnOp::create(b, ret.getLoc(), values);
    ret.erase();
    SmallVector<Type> results;
    for (Value v : values)
      results.push_back(v.getType());
    func.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
        func.getContext(), body->getArgumentTypes(), results)));
  }
};

/// The rules of `op`, which every op in a tested function must have.
const ad::Rules &rulesOf(Operation *op) {
  const ad::Rules *rules = ad::lookupRules(op);
  INFO("op without rules: " << print(op));
  REQUIRE(rules);
  return *rules;
}

/// @name(args..., douts...) -> (sensitivity of each float argument of f):
/// the bprop rules applied in reverse over f's body.
adj::FuncOp buildVjp(ModuleOp module, adj::FuncOp f, StringRef name) {
  Clone g(module, f, name);
  unsigned numArgs = g.body->getNumArguments();
  Location loc = g.func.getLoc();
  OpBuilder b(g.ret);
  DenseMap<Value, Value> sens;
  auto accumulate = [&](Value v, Value s) {
    Value &slot = sens[v];
    slot = slot ? adj::GradAddOp::create(b, loc, slot, s).getResult() : s;
  };
  for (Value r : g.ret.getOperands())
    accumulate(r, g.body->addArgument(adj::getSensitivityType(r.getType()),
                                      loc));
  for (Operation *op : llvm::reverse(g.ops)) {
    const ad::Rules &rules = rulesOf(op);
    SmallVector<Value> dys;
    for (Value r : op->getResults())
      dys.push_back(sens.lookup(r));
    if (llvm::none_of(dys, [](Value v) { return static_cast<bool>(v); }))
      continue;
    SmallVector<Value> dxs = rules.bprop(b, op, dys);
    INFO("bprop of " << print(op));
    REQUIRE(dxs.size() == op->getNumOperands());
    for (auto [operand, dx] : llvm::zip(op->getOperands(), dxs)) {
      if (!dx)
        continue;
      INFO("sensitivity " << typeString(dx.getType()) << " of operand "
                          << typeString(operand.getType()));
      REQUIRE(dx.getType() == adj::getSensitivityType(operand.getType()));
      REQUIRE(ad::isDifferentiable(operand.getType()));
      accumulate(operand, dx);
    }
  }
  SmallVector<Value> outs;
  for (unsigned i = 0; i < numArgs; ++i) {
    Value arg = g.body->getArgument(i);
    if (!isFloatTensor(arg.getType()))
      continue;
    Value s = sens.lookup(arg);
    outs.push_back(s ? s : adj::ZerosLikeOp::create(b, loc, arg).getResult());
  }
  g.finish(outs);
  return g.func;
}

/// @name(args..., tangents of the args in `mask`...) -> (tangent of each
/// result of f): the jvp rules applied in program order.
adj::FuncOp buildJvp(ModuleOp module, adj::FuncOp f, StringRef name,
                     const std::vector<bool> &mask) {
  Clone g(module, f, name);
  Location loc = g.func.getLoc();
  DenseMap<Value, Value> tangent;
  for (unsigned i = 0, e = g.body->getNumArguments(); i < e; ++i)
    if (mask[i])
      tangent[g.body->getArgument(i)] =
          g.body->addArgument(g.body->getArgument(i).getType(), loc);
  OpBuilder b(g.ret);
  for (Operation *op : g.ops) {
    const ad::Rules &rules = rulesOf(op);
    SmallVector<Value> ts;
    for (Value v : op->getOperands())
      ts.push_back(tangent.lookup(v));
    if (llvm::none_of(ts, [](Value v) { return static_cast<bool>(v); }))
      continue;
    SmallVector<Value> outs = rules.jvp(b, op, ts);
    INFO("jvp of " << print(op));
    REQUIRE(outs.size() == op->getNumResults());
    for (auto [r, t] : llvm::zip(op->getResults(), outs)) {
      if (!t)
        continue;
      REQUIRE(t.getType() == adj::getSensitivityType(r.getType()));
      tangent[r] = t;
    }
  }
  SmallVector<Value> outs;
  for (Value r : g.ret.getOperands()) {
    Value t = tangent.lookup(r);
    outs.push_back(t ? t : adj::ZerosLikeOp::create(b, loc, r).getResult());
  }
  g.finish(outs);
  return g.func;
}

std::vector<int64_t> shapeOf(Type t) {
  auto tensor = cast<RankedTensorType>(t);
  return {tensor.getShape().begin(), tensor.getShape().end()};
}

Tensor randomTensor(std::mt19937 &rng, Type type, double lo, double hi,
                    bool awayFromZero) {
  std::vector<int64_t> shape = shapeOf(type);
  std::uniform_real_distribution<double> dist(lo, hi), mag(0.2, 1.0);
  std::vector<double> values(Tensor(DType::F64, shape).numel());
  for (double &v : values) {
    v = dist(rng);
    if (awayFromZero)
      v = (v < 0 ? -1 : 1) * mag(rng);
  }
  return Tensor::fromDoubles(DType::F64, shape, values);
}

std::vector<double> flat(const interp::Value &v) {
  return v.tensor().toDoubles();
}

/// `t` with `delta` added to element `k`.
Tensor bump(const Tensor &t, int64_t k, double delta) {
  std::vector<double> values = t.toDoubles();
  values[k] += delta;
  return Tensor::fromDoubles(t.dtype(), t.shape(), values);
}

/// `t + scale * dir`.
Tensor axpy(const Tensor &t, double scale, const Tensor &dir) {
  std::vector<double> values = t.toDoubles(), d = dir.toDoubles();
  for (size_t i = 0; i < values.size(); ++i)
    values[i] += scale * d[i];
  return Tensor::fromDoubles(t.dtype(), t.shape(), values);
}

void requireNear(double got, double want, const std::string &what) {
  INFO(what << ": rule " << got << " vs finite differences " << want);
  REQUIRE(std::isfinite(got));
  REQUIRE(std::fabs(got - want) <= kTol * std::max(1.0, std::fabs(want)));
}

/// Compares the functions @vjp and @jvp_* built from @primal with central
/// finite differences of @primal at `args`.
void compare(interp::Interpreter &interp, adj::FuncOp primal,
             const std::vector<interp::Value> &args,
             const std::vector<std::vector<bool>> &masks, std::mt19937 &rng,
             const std::string &prefix) {
  std::string name = primal.getSymName().str();
  auto eval = [&](const std::vector<interp::Value> &xs) {
    return interp.call(name, xs);
  };
  std::vector<interp::Value> y = eval(args);
  std::vector<unsigned> floats;
  for (unsigned i = 0; i < args.size(); ++i)
    if (isFloatTensor(primal.getArgumentTypes()[i]))
      floats.push_back(i);

  // Reverse mode: every entry of every float argument's sensitivity
  // against <dout, (f(x + eps e_k) - f(x - eps e_k)) / 2 eps>.
  std::vector<interp::Value> vjpArgs = args, douts;
  for (Type t : primal.getResultTypes())
    douts.push_back(randomTensor(rng, t, -1, 1, false));
  vjpArgs.insert(vjpArgs.end(), douts.begin(), douts.end());
  std::vector<interp::Value> sens = interp.call(prefix + "vjp", vjpArgs);
  REQUIRE(sens.size() == floats.size());
  for (auto [a, i] : llvm::enumerate(floats)) {
    const Tensor &x = args[i].tensor();
    std::vector<double> got = flat(sens[a]);
    REQUIRE(sens[a].tensor().shape() == x.shape());
    for (int64_t k = 0; k < x.numel(); ++k) {
      std::vector<interp::Value> plus = args, minus = args;
      plus[i] = bump(x, k, kEps);
      minus[i] = bump(x, k, -kEps);
      std::vector<interp::Value> yp = eval(plus), ym = eval(minus);
      double fd = 0;
      for (size_t r = 0; r < y.size(); ++r) {
        std::vector<double> p = flat(yp[r]), m = flat(ym[r]),
                            d = flat(douts[r]);
        for (size_t j = 0; j < p.size(); ++j)
          fd += d[j] * (p[j] - m[j]) / (2 * kEps);
      }
      requireNear(got[k], fd,
                  prefix + "vjp, argument " + std::to_string(i) +
                      ", element " + std::to_string(k));
    }
  }

  // Forward mode: tangents of the masked arguments (the others null)
  // against the directional finite difference.
  for (auto [m, mask] : llvm::enumerate(masks)) {
    std::vector<interp::Value> jvpArgs = args, plus = args, minus = args;
    for (unsigned i : floats) {
      if (!mask[i])
        continue;
      Tensor dir = randomTensor(rng, primal.getArgumentTypes()[i], -1, 1,
                                false);
      jvpArgs.push_back(dir);
      plus[i] = axpy(args[i].tensor(), kEps, dir);
      minus[i] = axpy(args[i].tensor(), -kEps, dir);
    }
    std::vector<interp::Value> tangents =
        interp.call(prefix + "jvp" + std::to_string(m), jvpArgs);
    std::vector<interp::Value> yp = eval(plus), ym = eval(minus);
    REQUIRE(tangents.size() == y.size());
    for (size_t r = 0; r < y.size(); ++r) {
      std::vector<double> got = flat(tangents[r]), p = flat(yp[r]),
                          q = flat(ym[r]);
      REQUIRE(got.size() == p.size());
      for (size_t j = 0; j < got.size(); ++j)
        requireNear(got[j], (p[j] - q[j]) / (2 * kEps),
                    prefix + "jvp" + std::to_string(m) + ", result " +
                        std::to_string(r) + ", element " + std::to_string(j));
    }
  }
}

/// All float arguments, then each one alone when there are several.
std::vector<std::vector<bool>> tangentMasks(adj::FuncOp f) {
  std::vector<bool> all;
  for (Type t : f.getArgumentTypes())
    all.push_back(isFloatTensor(t));
  std::vector<std::vector<bool>> masks = {all};
  if (llvm::count(all, true) > 1)
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i]) {
        std::vector<bool> one(all.size(), false);
        one[i] = true;
        masks.push_back(one);
      }
  return masks;
}

/// Parses and verifies `source`; returns its @f.
adj::FuncOp parse(MLIRContext &context, OwningOpRef<ModuleOp> &module,
                  const std::string &source) {
  context.getOrLoadDialect<adj::AdjDialect>();
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  module = parseSourceString<ModuleOp>(source, ParserConfig(&context), "case");
  INFO(source);
  INFO(diagnostics);
  REQUIRE(module);
  REQUIRE(succeeded(verify(*module)));
  auto f = module->lookupSymbol<adj::FuncOp>("f");
  REQUIRE(f);
  return f;
}

void verifyBuilt(ModuleOp module) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  bool ok = succeeded(verify(module));
  std::string text = print(module);
  INFO("built: " << text << "\n" << diagnostics);
  REQUIRE(ok);
  // What rules emit must also survive the textual form (ir-opt pipelines).
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(
      text, ParserConfig(module.getContext()), "printed");
  REQUIRE(reparsed);
  REQUIRE(succeeded(verify(*reparsed)));
}

} // namespace

std::vector<interp::Value>
adjoint::test::rules::runVjp(const std::string &source,
                             std::vector<interp::Value> args,
                             const std::vector<interp::Value> &douts) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  adj::FuncOp f = parse(context, module, source);
  buildVjp(*module, f, "vjp");
  verifyBuilt(*module);
  args.insert(args.end(), douts.begin(), douts.end());
  return interp::Interpreter(*module).call("vjp", args);
}

std::vector<interp::Value>
adjoint::test::rules::runJvp(const std::string &source,
                             std::vector<interp::Value> args,
                             const std::vector<interp::Value> &tangents) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  adj::FuncOp f = parse(context, module, source);
  buildJvp(*module, f, "jvp", tangentMasks(f).front());
  verifyBuilt(*module);
  args.insert(args.end(), tangents.begin(), tangents.end());
  return interp::Interpreter(*module).call("jvp", args);
}

void adjoint::test::rules::check(const Case &c) {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  adj::FuncOp f = parse(context, module, c.source);

  // First order on @f, second order on its vjp.
  auto masks1 = tangentMasks(f);
  adj::FuncOp vjp1 = buildVjp(*module, f, "vjp");
  for (size_t m = 0; m < masks1.size(); ++m)
    buildJvp(*module, f, "jvp" + std::to_string(m), masks1[m]);
  std::vector<std::vector<bool>> masks2;
  if (c.secondOrder) {
    masks2 = {tangentMasks(vjp1).front()};
    buildVjp(*module, vjp1, "d2_vjp");
    buildJvp(*module, vjp1, "d2_jvp0", masks2.front());
  }
  verifyBuilt(*module);

  std::mt19937 rng(c.seed);
  std::vector<interp::Value> args;
  for (auto [i, t] : llvm::enumerate(f.getArgumentTypes())) {
    if (isFloatTensor(t)) {
      args.push_back(randomTensor(rng, t, c.lo, c.hi, c.awayFromZero));
    } else {
      auto it = c.fixed.find(i);
      INFO("argument " << i << " needs a fixed value");
      REQUIRE(it != c.fixed.end());
      args.push_back(it->second);
    }
  }
  interp::Interpreter interp(*module);
  compare(interp, f, args, masks1, rng, "");
  if (c.secondOrder) {
    std::vector<interp::Value> args2 = args;
    for (Type t : f.getResultTypes())
      args2.push_back(randomTensor(rng, t, -1, 1, false));
    compare(interp, vjp1, args2, masks2, rng, "d2_");
  }
}

std::string adjoint::test::rules::f64(const std::vector<int64_t> &shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + "f64>";
}

std::string adjoint::test::rules::function(const std::string &args,
                                           const std::string &result,
                                           const std::string &body) {
  return "adj.func @f(" + args + ") -> " + result + " {\n  %0 = " + body +
         "\n  adj.return %0 : " + result + "\n}\n";
}

std::string adjoint::test::rules::binary(const std::string &op,
                                         const std::string &a,
                                         const std::string &b,
                                         const std::string &r) {
  return function("%a: " + a + ", %b: " + b, r,
                  "adj." + op + " %a, %b : " + a + ", " + b);
}

std::string adjoint::test::rules::unary(const std::string &op,
                                        const std::string &t) {
  return function("%x: " + t, t, "adj." + op + " %x : " + t);
}
