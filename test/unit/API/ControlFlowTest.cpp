//===- ControlFlowTest.cpp - Functions, closures, control flow, AD --------===//
//
// Closures capture outer values, functions refer to themselves and to each
// other, if/for/while produce the right types, tuples and AD requests.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;
using Catch::Matchers::Contains;

namespace {
using Args = const std::vector<Value> &;
const Type kF32 = Type::scalar(DType::F32);
} // namespace

TEST_CASE("the example of Builder.h builds", "[api][module]") {
  Module m;
  Type x3 = Type::tensor(DType::F32, {3});
  Function loss = m.function("loss", {x3, kF32}, [&](Value x, Value w) {
    Value scale = lambda(m, {x3}, [&](Value v) { return v * w; });
    return sum(exp(scale(x)) + 1.0);
  });
  m.verify();
  CHECK(loss.type() == Type::fn({x3, kF32}, {kF32}));
  CHECK_THAT(m.str(), Contains("adj.mul %arg2, %arg1"));
}

TEST_CASE("a module owns its context and prints its functions",
          "[api][module]") {
  Module m;
  CHECK(m.context() == m.op()->getContext());
  CHECK(m.context()->getLoadedDialect("adj") != nullptr);
  Function sq = m.function("square", {kF32}, [](Value x) { return x * x; });
  CHECK(sq.name() == "square");
  CHECK(sq.isDefined());
  CHECK(sq.type() == Type::fn({kF32}, {kF32}));
  CHECK(m.lookup("square").name() == "square");
  m.verify();
  CHECK_THAT(m.str(), Contains("adj.func @square(%arg0: tensor<f32>) -> "
                               "tensor<f32>"));
  CHECK_THAT(m.str(), Contains("adj.return %0 : tensor<f32>"));
  Module moved = std::move(m);
  CHECK(moved.lookup("square").isDefined());
}

TEST_CASE("functions take std::vector bodies and return several values",
          "[api][module]") {
  Module m;
  Function f =
      m.function("pair", {kF32, kF32}, [](const std::vector<Value> &a) {
        return Values{a[0] + a[1], a[0] * a[1]};
      });
  CHECK(f.type() == Type::fn({kF32, kF32}, {kF32, kF32}));
  m.verify();
  CHECK_THAT(m.str(), Contains("-> (tensor<f32>, tensor<f32>)"));
}

TEST_CASE("closures capture outer values", "[api][closure]") {
  Module m;
  m.function("f", {kF32, kF32}, [&](Value x, Value y) {
    Value addX = lambda(m, {kF32}, [&](Value z) { return x + z; });
    CHECK(addX.type() == Type::fn({kF32}, {kF32}));
    Value r = addX(y);
    CHECK(r.type() == kF32);
    return r;
  });
  m.verify();
  std::string ir = m.str();
  // The closure's body uses %arg0 of the enclosing function directly.
  CHECK_THAT(ir, Contains("adj.lambda (%arg2: tensor<f32>) -> tensor<f32> {"));
  CHECK_THAT(ir, Contains("adj.add %arg0, %arg2 : tensor<f32>, tensor<f32>"));
  CHECK_THAT(ir, Contains("adj.call %0(%arg1) : !adj.fn<(tensor<f32>) -> "
                          "tensor<f32>>"));
  // The use of the outer value really is inside the lambda region.
  auto func = m.lookup("f").op();
  auto lam = *func.getBody().getOps<adj::LambdaOp>().begin();
  auto add = *lam.getBody().getOps<adj::AddOp>().begin();
  CHECK(add.getLhs() == func.getBody().getArgument(0));
}

TEST_CASE("closures returning closures (make_adder) and compose",
          "[api][closure]") {
  Module m;
  Type f2f = Type::fn({kF32}, {kF32});
  m.function("make_adder", {kF32}, [&](Value n) {
    return lambda(m, {kF32}, [&](Value x) { return x + n; });
  });
  m.function("compose", {f2f, f2f}, [&](Value f, Value g) {
    return lambda(m, {kF32}, [&](Value x) { return f(g(x)); });
  });
  m.verify();
  CHECK(m.lookup("make_adder").type() == Type::fn({kF32}, {f2f}));
  CHECK(m.lookup("compose").type() == Type::fn({f2f, f2f}, {f2f}));
  CHECK_THAT(m.str(), Contains("adj.func @make_adder(%arg0: tensor<f32>) -> "
                               "!adj.fn<(tensor<f32>) -> tensor<f32>>"));
}

TEST_CASE("recursion by reference: declare first, define later",
          "[api][recursion]") {
  Module m;
  Function fact = m.declare("fact", {kF32}, {kF32});
  CHECK_FALSE(fact.isDefined());
  CHECK_FALSE(m.isValid());
  CHECK_THAT(errorOf([&] { m.verify(); }), Contains("'fact' is declared"));
  fact.define([&](Value n) {
    return if_(
        n <= 1.0, [&] { return n - n + 1.0; },
        [&] { return n * Value(fact(n - 1.0)); });
  });
  CHECK(fact.isDefined());
  m.verify();
  std::string ir = m.str();
  CHECK_THAT(ir, Contains("adj.func_ref @fact : !adj.fn<(tensor<f32>) -> "
                          "tensor<f32>>"));
  CHECK_THAT(ir, Contains("adj.if %"));
  CHECK_THAT(errorOf([&] { fact.define([](Value n) { return n; }); }),
             Contains("already defined"));
}

TEST_CASE("mutual recursion", "[api][recursion]") {
  Module m;
  Type i = Type::scalar(DType::I64);
  Type b = Type::scalar(DType::I1);
  Function isEven = m.declare("is_even", {i}, {b});
  Function isOdd = m.declare("is_odd", {i}, {b});
  isEven.define([&](Value n) {
    return if_(
        n == 0.0, [&] { return n == n; }, [&] { return isOdd(n - 1.0); });
  });
  isOdd.define([&](Value n) {
    return if_(
        n == 0.0, [&] { return n != n; }, [&] { return isEven(n - 1.0); });
  });
  m.verify();
  CHECK_THAT(m.str(), Contains("adj.func_ref @is_odd"));
  CHECK_THAT(m.str(), Contains("adj.func_ref @is_even"));
}

TEST_CASE("if_ yields the branch types", "[api][control]") {
  Module m;
  m.function("f", {kF32, Type::tensor(DType::F32, {3})},
             [&](Value x, Value v) {
               Values r = if_(
                   x > 0.0, [&] { return Values{x, v * 2.0}; },
                   [&] { return Values{-x, v}; });
               REQUIRE(r.size() == 2);
               CHECK(r[0].type() == kF32);
               CHECK(r[1].type() == Type::tensor(DType::F32, {3}));
               return r[1] * r[0];
             });
  m.verify();
  CHECK_THAT(m.str(), Contains("-> (tensor<f32>, tensor<3xf32>) {"));
  CHECK_THAT(m.str(), Contains("} else {"));
}

TEST_CASE("for_ carries values", "[api][control]") {
  Module m;
  Type i = Type::scalar(DType::I64);
  m.function("power", {kF32, i}, [&](Value x, Value n) {
    Value zero = scalar(m, 0, DType::I64), one = scalar(m, 1, DType::I64);
    Values r = for_(zero, n, one, {x - x + 1.0},
                    [&](Value iv, Value acc) {
                      CHECK(iv.type() == Type::scalar(DType::I64));
                      return acc * x;
                    });
    REQUIRE(r.size() == 1);
    return r[0];
  });
  m.function("sum_to", {kF32}, [&](Value x) {
    Values r = for_(0, 10, 2, {x, x}, [&](Value iv, Value a, Value b) {
      return Values{a + b, b};
    });
    CHECK(r.size() == 2);
    return r[0];
  });
  m.verify();
  CHECK_THAT(m.str(), Contains("adj.for %"));
  CHECK_THAT(m.str(), Contains("iter_args("));
  CHECK_THAT(m.str(), Contains("^bb0(%arg2: tensor<i64>, %arg3: tensor<f32>)"));
}

TEST_CASE("while_ loops on a condition", "[api][control]") {
  Module m;
  m.function("double_until", {kF32}, [&](Value x) {
    Values r = while_(
        {x}, [&](Value c) { return c < 100.0; },
        [&](Value c) { return c * 2.0; });
    REQUIRE(r.size() == 1);
    CHECK(r[0].type() == kF32);
    return r[0];
  });
  m.verify();
  CHECK_THAT(m.str(), Contains("adj.while(%arg0 : tensor<f32>) -> "
                               "tensor<f32> cond {"));
  CHECK_THAT(m.str(), Contains("} do {"));
}

TEST_CASE("tuples", "[api][tuple]") {
  Module m;
  m.function("f", {kF32, Type::tensor(DType::I64, {2})}, [&](Value a, Value b) {
    Value t = make_tuple({a, b});
    CHECK(t.type() == Type::tuple({kF32, Type::tensor(DType::I64, {2})}));
    Value last = get(t, -1);
    CHECK(last.type() == Type::tensor(DType::I64, {2}));
    Value empty = make_tuple(m, {});
    CHECK(empty.type() == Type::tuple({}));
    Value nested = make_tuple({t, empty});
    return get(get(nested, 0), 0);
  });
  m.verify();
  CHECK_THAT(m.str(), Contains("adj.tuple %arg0, %arg1 : tensor<f32>, "
                               "tensor<2xi64>"));
  CHECK_THAT(m.str(), Contains("[1] : !adj.tuple<tensor<f32>, tensor<2xi64>>"));
}

TEST_CASE("function values: refs, calls and the call operator",
          "[api][call]") {
  Module m;
  Function sq = m.function("sq", {kF32}, [](Value x) { return x * x; });
  m.function("f", {kF32}, [&](Value x) {
    Value ref = sq.ref();
    CHECK(ref.type() == Type::fn({kF32}, {kF32}));
    Values viaCall = call(ref, {x});
    Value viaOperator = ref(x);
    Value viaFunction = sq(x);
    return viaCall[0] + viaOperator + viaFunction;
  });
  m.verify();
  CHECK_THAT(m.str(), Contains("adj.func_ref @sq"));
}

TEST_CASE("AD requests", "[api][ad]") {
  Module m;
  Type v3 = Type::tensor(DType::F32, {3});
  Function loss = m.function("loss", {v3, kF32}, [](Value w, Value s) {
    return sum(w * w) * s;
  });
  m.function("f", {v3, kF32}, [&](Value w, Value s) {
    Value g = grad(loss.ref());
    CHECK(g.type() == Type::fn({v3, kF32}, {v3, kF32}));
    Value g0 = grad(loss.ref(), {std::vector<int64_t>{0}});
    CHECK(g0.type() == Type::fn({v3, kF32}, {v3}));
    Value gs = grad(loss.ref(), {std::vector<int64_t>{0}, true});
    CHECK(gs.type() == Type::fn({v3, kF32, kF32}, {v3}));
    Value vg = value_and_grad(loss.ref(), {std::vector<int64_t>{1}});
    CHECK(vg.type() == Type::fn({v3, kF32}, {kF32, kF32}));
    Value pb = vjp(loss.ref());
    CHECK(pb.type() ==
          Type::fn({v3, kF32}, {kF32, Type::fn({kF32}, {v3, kF32})}));
    Value jv = jvp(loss.ref(), {std::vector<int64_t>{0}});
    CHECK(jv.type() == Type::fn({v3, kF32, v3}, {kF32, kF32}));
    Values dw = g(w, s);
    return dw[0];
  });
  m.verify();
  std::string ir = m.str();
  CHECK_THAT(ir, Contains("adj.grad %"));
  CHECK_THAT(ir, Contains("wrt = [0] custom_sens"));
  CHECK_THAT(ir, Contains("adj.value_and_grad %"));
  CHECK_THAT(ir, Contains("adj.vjp %"));
  CHECK_THAT(ir, Contains("adj.jvp %"));
}

TEST_CASE("functions can be declared while another body is built",
          "[api][module]") {
  Module m;
  m.function("outer", {kF32}, [&](Value x) {
    Function inner = m.function("inner", {kF32}, [](Value y) { return -y; });
    return inner(x);
  });
  m.verify();
  CHECK(m.lookup("inner").isDefined());
}

TEST_CASE("types convert to MLIR and print like MLIR", "[api][type]") {
  Module m;
  std::vector<Type> types = {
      Type::tensor(DType::F64, {2, 3}), Type::scalar(DType::BF16),
      Type::tensor(DType::I1, {0}),
      Type::fn({kF32, Type::tuple({})}, {kF32}),
      Type::fn({}, {kF32, kF32}),
      Type::fn({kF32}, {Type::fn({kF32}, {kF32})}),
      Type::tuple({Type::scalar(DType::I32), Type::fn({}, {})})};
  for (const Type &t : types) {
    mlir::Type mt = t.toMLIR(m.context());
    std::string printed;
    llvm::raw_string_ostream os(printed);
    os << mt;
    CHECK(t.str() == printed);
    CHECK(Type::fromMLIR(mt) == t);
  }
  CHECK(Type::tensor(DType::F32, {2, 3}).numel() == 6);
  CHECK(Type::tensor(DType::F32, {2}) != Type::tensor(DType::F64, {2}));
  CHECK(Type::tensor(DType::F32, {2}).withShape({4}).shape() ==
        std::vector<int64_t>{4});
  CHECK_THAT(errorOf([] { Type::tensor(DType::F32, {-1}); }),
             Contains("[-1]"));
  CHECK_THAT(errorOf([] { (void)Type::fn({}, {}).shape(); }),
             Contains("expected a tensor type"));
  CHECK_THAT(errorOf([] { (void)kF32.inputs(); }),
             Contains("expected a function type"));
  CHECK_THAT(errorOf([] { (void)kF32.elements(); }),
             Contains("expected a tuple type"));
  CHECK(std::string(dtypeName(DType::BF16)) == "bf16");
  CHECK(isFloat(DType::F16));
  CHECK_FALSE(isFloat(DType::I32));
}
