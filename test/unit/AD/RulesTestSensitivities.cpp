//===- RulesTestSensitivities.cpp - Rules of the AD ops and the registry --===//

#include "RulesTestUtil.h"

#include "adjoint/AD/Rules.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"

#include <catch2/catch.hpp>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::test::rules;

namespace {

/// Parses `source` and returns its module; the ops of @f are the subjects.
OwningOpRef<ModuleOp> parse(MLIRContext &context, const std::string &source) {
  context.getOrLoadDialect<adj::AdjDialect>();
  auto module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context), "case");
  REQUIRE(module);
  REQUIRE(succeeded(verify(*module)));
  return module;
}

/// The ops of @f, terminator excluded.
SmallVector<Operation *> opsOf(ModuleOp module) {
  auto f = module.lookupSymbol<adj::FuncOp>("f");
  SmallVector<Operation *> ops;
  for (Operation &op : f.getBody().front().without_terminator())
    ops.push_back(&op);
  return ops;
}

/// Applies `op`'s bprop to a fresh argument standing for its result's
/// sensitivity.
SmallVector<Value> bprop(Operation *op) {
  auto f = op->getParentOfType<adj::FuncOp>();
  Block &body = f.getBody().front();
  Value dy = body.addArgument(
      adj::getSensitivityType(op->getResult(0).getType()), op->getLoc());
  f.setFunctionTypeAttr(TypeAttr::get(FunctionType::get(
      f.getContext(), body.getArgumentTypes(), f.getResultTypes())));
  OpBuilder b(body.getTerminator());
  const ad::Rules *rules = ad::lookupRules(op);
  REQUIRE(rules);
  return rules->bprop(b, op, {dy});
}

} // namespace

TEST_CASE("rules: environments and zeros_like and grad_add") {
  // Keys are overwritten (x reaches the result only through key 1 of %e2),
  // summed (env_add), read back and defaulted to zero (key 7).
  check({.source = R"(
    adj.func @f(%x: tensor<3xf64>, %y: tensor<3xf64>) -> tensor<3xf64> {
      %e0 = adj.env_new
      %e1 = adj.env_set %e0[1], %x : !adj.env, tensor<3xf64>
      %e2 = adj.env_set %e1[2], %y : !adj.env, tensor<3xf64>
      %e3 = adj.env_set %e2[1], %y : !adj.env, tensor<3xf64>
      %e4 = adj.env_add %e3, %e2 : !adj.env, !adj.env
      %a = adj.env_get %e4[1] : !adj.env -> tensor<3xf64>
      %b = adj.env_get %e4[2] : !adj.env -> tensor<3xf64>
      %n = adj.env_get %e4[7] : !adj.env -> tensor<3xf64>
      %m = adj.mul %a, %b : tensor<3xf64>, tensor<3xf64>
      %z = adj.zeros_like %x : tensor<3xf64>
      %s = adj.grad_add %m, %z : tensor<3xf64>, tensor<3xf64>
      %t = adj.grad_add %s, %n : tensor<3xf64>, tensor<3xf64>
      %0 = adj.grad_add %t, %a : tensor<3xf64>, tensor<3xf64>
      adj.return %0 : tensor<3xf64>
    })"});
}

TEST_CASE("rules: environment rules structurally") {
  MLIRContext context;
  auto module = parse(context, R"(
    adj.func @f(%x: tensor<3xf64>, %e: !adj.env) -> tensor<3xf64> {
      %e1 = adj.env_set %e[4], %x : !adj.env, tensor<3xf64>
      %a = adj.env_get %e1[4] : !adj.env -> tensor<3xf64>
      %e2 = adj.env_add %e1, %e : !adj.env, !adj.env
      %g = adj.grad_add %a, %x : tensor<3xf64>, tensor<3xf64>
      adj.return %g : tensor<3xf64>
    })");
  SmallVector<Operation *> ops = opsOf(*module);

  // env_set: d env = env_set(dout, key, zeros), d value = env_get(dout, key).
  SmallVector<Value> set = bprop(ops[0]);
  REQUIRE(set.size() == 2);
  auto cleared = set[0].getDefiningOp<adj::EnvSetOp>();
  REQUIRE(cleared);
  CHECK(cleared.getKey() == 4);
  CHECK(cleared.getValue().getDefiningOp<adj::ZerosLikeOp>());
  auto stored = set[1].getDefiningOp<adj::EnvGetOp>();
  REQUIRE(stored);
  CHECK(stored.getKey() == 4);
  CHECK(stored.getType() == ops[0]->getOperand(1).getType());

  // env_get: d env = env_set(env_new, key, dout).
  SmallVector<Value> get = bprop(ops[1]);
  auto into = get[0].getDefiningOp<adj::EnvSetOp>();
  REQUIRE(into);
  CHECK(into.getKey() == 4);
  CHECK(into.getEnv().getDefiningOp<adj::EnvNewOp>());

  // env_add and grad_add pass dout to both operands.
  SmallVector<Value> add = bprop(ops[2]);
  CHECK(add[0] == add[1]);
  CHECK(isa<adj::EnvType>(add[0].getType()));
  SmallVector<Value> gadd = bprop(ops[3]);
  CHECK(gadd[0] == gadd[1]);
  CHECK(succeeded(verify(*module)));

  // The jvps apply the same ops to the tangents; a null tangent is a zero.
  OpBuilder b(ops[3]->getBlock()->getTerminator());
  Value tx = ops[0]->getOperand(1);
  SmallVector<Value> tSet =
      ad::lookupRules(ops[0])->jvp(b, ops[0], {Value(), tx});
  auto tSetOp = tSet[0].getDefiningOp<adj::EnvSetOp>();
  REQUIRE(tSetOp);
  CHECK(tSetOp.getEnv().getDefiningOp<adj::EnvNewOp>());
  SmallVector<Value> tGet =
      ad::lookupRules(ops[1])->jvp(b, ops[1], {tSet[0]});
  CHECK(tGet[0].getDefiningOp<adj::EnvGetOp>());
  SmallVector<Value> tAdd =
      ad::lookupRules(ops[2])->jvp(b, ops[2], {Value(), tSet[0]});
  CHECK(tAdd[0] == tSet[0]);
  CHECK(succeeded(verify(*module)));
}

TEST_CASE("rules: integer and boolean results have no derivatives") {
  MLIRContext context;
  auto module = parse(context, R"(
    adj.func @f(%i: tensor<3xi64>, %x: tensor<3xf64>, %t: tensor<5x3xf64>) -> tensor<3xf64> {
      %a = adj.add %i, %i : tensor<3xi64>, tensor<3xi64>
      %c = adj.cmp lt, %x, %x : tensor<3xf64>, tensor<3xf64>
      %n = adj.cast %x : tensor<3xf64> to tensor<3xi64>
      %r = adj.relu %i : tensor<3xi64>
      %f = adj.cast %i : tensor<3xi64> to tensor<3xf64>
      %g = adj.gather %t[%i] axis = 0 : tensor<5x3xf64>, tensor<3xi64>
      %s = adj.sign %x : tensor<3xf64>
      adj.return %x : tensor<3xf64>
    })");
  SmallVector<Operation *> ops = opsOf(*module);
  for (Operation *op : ops) {
    INFO(op->getName().getStringRef().str());
    const ad::Rules *rules = ad::lookupRules(op);
    REQUIRE(rules);
    SmallVector<Value> sens = bprop(op);
    REQUIRE(sens.size() == op->getNumOperands());
    if (isa<adj::GatherOp>(op)) {
      CHECK(sens[0]);     // the table
      CHECK_FALSE(sens[1]); // the indices
      continue;
    }
    for (Value s : sens)
      CHECK_FALSE(s);
    // Tangents of every operand (integer ones are dropped): nothing.
    OpBuilder b(op->getBlock()->getTerminator());
    SmallVector<Value> tangents(op->getOperands());
    SmallVector<Value> out = rules->jvp(b, op, tangents);
    REQUIRE(out.size() == 1);
    CHECK_FALSE(out[0]);
  }
}

TEST_CASE("rules: every primitive has rules") {
  MLIRContext context;
  context.getOrLoadDialect<adj::AdjDialect>();
  // Structure is the grad transform's business, requests are expanded
  // before any rule runs, and adj.closure only appears after closure
  // conversion, which runs after differentiation.
  const llvm::StringSet<> structural = {
      "adj.func",  "adj.lambda", "adj.func_ref",       "adj.call",
      "adj.return", "adj.tuple", "adj.get",            "adj.if",
      "adj.for",   "adj.while",  "adj.yield",          "adj.grad",
      "adj.value_and_grad",      "adj.vjp",            "adj.jvp",
      "adj.closure",
      "adj.vmap",
      // Function values with derivatives of their own (CustomRules.cpp).
      "adj.custom_vjp", "adj.custom_jvp", "adj.checkpoint"};
  int primitives = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "adj")
      continue;
    INFO(name.getStringRef().str());
    bool hasRules = ad::lookupRules(name) != nullptr;
    CHECK(hasRules != structural.contains(name.getStringRef()));
    primitives += hasRules;
  }
  // 29 elementwise (complex, real and imag among them), 4 reductions, 9
  // movement, 3 window, 3 creation, 6 AD, stop_gradient and
  // optimization_barrier; 7 bits; 7 linear algebra; fft.
  CHECK(primitives == 71);
}

TEST_CASE("rules: isDifferentiable") {
  MLIRContext context;
  context.getOrLoadDialect<adj::AdjDialect>();
  Builder b(&context);
  CHECK(ad::isDifferentiable(RankedTensorType::get({2}, b.getF32Type())));
  CHECK(ad::isDifferentiable(RankedTensorType::get({}, b.getF64Type())));
  CHECK(ad::isDifferentiable(
      RankedTensorType::get({2}, ComplexType::get(b.getF32Type()))));
  CHECK_FALSE(ad::isDifferentiable(RankedTensorType::get({2}, b.getI64Type())));
  CHECK_FALSE(ad::isDifferentiable(RankedTensorType::get({2}, b.getI1Type())));
  CHECK(ad::isDifferentiable(adj::EnvType::get(&context)));
  CHECK(ad::isDifferentiable(adj::FnType::get(&context, {}, {})));
  CHECK(ad::isDifferentiable(adj::TupleType::get(&context, {})));
}
