//===- ErrorsTest.cpp - Build-time errors of the builder API --------------===//
//
// Ill-typed programs throw adjoint::Error naming the op and the shapes, and
// leave the module as it was: it still verifies afterwards.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;
using Catch::Matchers::Contains;

namespace {

const Type kF32 = Type::scalar(DType::F32);

using BadSnippet = std::function<void(Module &, const std::vector<Value> &)>;

/// Builds a function over `params` whose body runs `bad` (expected to throw)
/// and then returns its first parameter; returns the error message and
/// checks that the module still verifies.
std::string failing(const std::vector<Type> &params, const BadSnippet &bad) {
  Module m;
  std::string message;
  m.function("f", params, [&](const std::vector<Value> &args) {
    message = errorOf([&] { bad(m, args); });
    return args.empty() ? scalar(m, 0.0) : args.front();
  });
  CHECK_NOTHROW(m.verify());
  return message;
}

using Args = const std::vector<Value> &;

} // namespace

TEST_CASE("shape errors name the op and the shapes", "[api][errors]") {
  std::string mm = failing({f32({2, 3}), f32({4, 5})},
                           [](Module &, Args a) { matmul(a[0], a[1]); });
  CHECK_THAT(mm, Contains("adj.matmul"));
  CHECK_THAT(mm, Contains("[2, 3]"));
  CHECK_THAT(mm, Contains("[4, 5]"));

  std::string add = failing({f32({2, 3}), f32({4})},
                            [](Module &, Args a) { (void)(a[0] + a[1]); });
  CHECK_THAT(add, Contains("adj.add"));
  CHECK_THAT(add, Contains("[2, 3] and [4] do not broadcast"));

  // Dtypes promote (TypesTest.cpp); a tensor and a tuple do not.
  std::string kinds = failing({f32({2}), i64({2})}, [](Module &, Args a) {
    (void)(a[0] * make_tuple({a[1]}));
  });
  CHECK_THAT(kinds, Contains("adj.mul"));
  CHECK_THAT(kinds, Contains("tensor<2xf32>"));
  CHECK_THAT(kinds, Contains("!adj.tuple<tensor<2xi64>>"));

  std::string exp =
      failing({i64({3})}, [](Module &, Args a) { api::exp(a[0]); });
  CHECK_THAT(exp, Contains("adj.exp"));
  CHECK_THAT(exp, Contains("tensor<3xi64>"));

  std::string red = failing({f32({2, 3})},
                            [](Module &, Args a) { sum(a[0], 2); });
  CHECK_THAT(red, Contains("adj.reduce_sum"));
  CHECK_THAT(red, Contains("axis 2 is out of range for rank 2"));

  std::string rep = failing({f32({2, 3})},
                            [](Module &, Args a) { sum(a[0], {1, -1}); });
  CHECK_THAT(rep, Contains("adj.reduce_sum"));
  CHECK_THAT(rep, Contains("repeated"));

  std::string rs = failing({f32({2, 3})},
                           [](Module &, Args a) { reshape(a[0], {4, 2}); });
  CHECK_THAT(rs, Contains("adj.reshape"));
  CHECK_THAT(rs, Contains("[2, 3]"));
  CHECK_THAT(rs, Contains("[4, 2]"));
  CHECK_THAT(failing({f32({2, 3})},
                     [](Module &, Args a) { reshape(a[0], {-1, 4}); }),
             Contains("adj.reshape: cannot reshape [2, 3] (6 elements) to "
                      "[-1, 4]"));

  std::string bc = failing(
      {f32({2, 3})}, [](Module &, Args a) { broadcast_to(a[0], {3, 3}); });
  CHECK_THAT(bc, Contains("adj.broadcast_to"));
  CHECK_THAT(bc, Contains("cannot broadcast [2, 3] to [3, 3]"));

  std::string tp = failing({f32({2, 3})},
                           [](Module &, Args a) { transpose(a[0], {0, 0}); });
  CHECK_THAT(tp, Contains("adj.transpose"));
  CHECK_THAT(tp, Contains("[2, 3]"));

  std::string sl = failing({f32({4})},
                           [](Module &, Args a) { slice(a[0], {0}, {5}); });
  CHECK_THAT(sl, Contains("adj.slice"));
  CHECK_THAT(sl, Contains("[4]"));

  std::string cc = failing({f32({2, 3}), f32({3, 3})}, [](Module &, Args a) {
    concat({a[0], a[1]}, 1);
  });
  CHECK_THAT(cc, Contains("adj.concat"));
  CHECK_THAT(cc, Contains("[2, 3] and [3, 3]"));

  std::string ga = failing({f32({4, 2}), f32({3})},
                           [](Module &, Args a) { gather(a[0], a[1]); });
  CHECK_THAT(ga, Contains("adj.gather"));
  CHECK_THAT(ga, Contains("indices must be i32 or i64"));

  std::string sc = failing({f32({4, 2}), i64({3}), f32({3, 3})},
                           [](Module &, Args a) {
                             scatter_add(a[0], a[1], a[2]);
                           });
  CHECK_THAT(sc, Contains("adj.scatter_add"));
  CHECK_THAT(sc, Contains("[3, 2]"));

  std::string cv = failing({f32({1, 3, 8, 8}), f32({4, 2, 3, 3})},
                           [](Module &, Args a) { conv2d(a[0], a[1]); });
  CHECK_THAT(cv, Contains("adj.conv2d"));
  CHECK_THAT(cv, Contains("[1, 3, 8, 8]"));
  CHECK_THAT(cv, Contains("[4, 2, 3, 3]"));

  std::string pl = failing({f32({1, 1, 2, 2})},
                           [](Module &, Args a) { max_pool2d(a[0], {3, 3}); });
  CHECK_THAT(pl, Contains("adj.max_pool2d"));
  CHECK_THAT(pl, Contains("[1, 1, 2, 2]"));

  std::string pd = failing({f32({2})},
                           [](Module &, Args a) { pad(a[0], {1, 1}, {0}); });
  CHECK_THAT(pd, Contains("adj.pad"));

  std::string sel = failing({f32({2}), f32({2})}, [](Module &, Args a) {
    select(a[0], a[0], a[1]);
  });
  CHECK_THAT(sel, Contains("adj.select"));
  CHECK_THAT(sel, Contains("condition must be i1"));
}

TEST_CASE("numbers and constants are checked", "[api][errors]") {
  CHECK_THAT(failing({i64({2})}, [](Module &, Args a) { (void)(a[0] * 0.5); }),
             Contains("adj.mul: 0.5 is not a valid i64 value"));
  CHECK_THAT(failing({}, [](Module &m, Args) {
               constant(m, {1, 2, 3}, {2, 2});
             }),
             Contains("adj.constant: 3 values for shape [2, 2] (4 elements)"));
  CHECK_THAT(failing({}, [](Module &m, Args) {
               constant(m, {2}, {1}, DType::I1);
             }),
             Contains("not a valid i1 value"));
  CHECK_THAT(failing({}, [](Module &m, Args) { iota(m, {2, 3}, 2); }),
             Contains("adj.iota"));
  CHECK_THAT(failing({f32({})}, [](Module &m, Args a) {
               random_normal(a[0], {2});
             }),
             Contains("adjoint.random.key: expected a rank-0 i32 or i64 seed, "
                      "got tensor<f32>"));
  CHECK_THAT(failing({i64({})}, [](Module &m, Args a) {
               random_uniform(a[0], {2}, DType::F32, 1.0, 0.0);
             }),
             Contains("adjoint.random.uniform: expected minval <= maxval"));
  CHECK_THAT(failing({i64({})}, [](Module &m, Args a) {
               random_uniform(a[0], {2}, DType::I32);
             }),
             Contains("expected a floating-point dtype, got tensor<i32>"));
  CHECK_THAT(failing({f32({2})}, [](Module &, Args a) {
               (void)(make_tuple({a[0]}) + 1.0);
             }),
             Contains("adj.add: a number combines only with a tensor"));
}

TEST_CASE("shapes whose size does not fit in 64 bits are errors",
          "[api][errors]") {
  // 2^32 x 2^32 elements wrapped to 0 in numel(), so a constant of no
  // values passed the count check.
  const int64_t big = int64_t(1) << 32;
  CHECK_THROWS_WITH(Type::tensor(DType::F32, {big, big}),
                    Contains("more elements than fit in 64 bits"));
  CHECK_NOTHROW(Type::tensor(DType::F32, {big, 0, big}));
  CHECK(Type::tensor(DType::F32, {big, 0, big}).numel() == 0);
  CHECK_THAT(failing({f32({4})}, [](Module &, Args a) {
               reshape(a[0], {big, big, -1});
             }),
             Contains("adj.reshape: cannot reshape [4]"));
}

TEST_CASE("calls, tuples and AD requests are checked", "[api][errors]") {
  std::string notFn = failing({f32({2})},
                              [](Module &, Args a) { call(a[0], {a[0]}); });
  CHECK_THAT(notFn, Contains("adj.call: the callee must be a function value"));
  CHECK_THAT(notFn, Contains("tensor<2xf32>"));

  Module m;
  Function sq = m.function("sq", {kF32}, [](Value x) { return x * x; });
  m.function("f", {kF32, f32({3})}, [&](Value x, Value v) {
    CHECK_THAT(errorOf([&] { sq(v); }), Contains("adj.call"));
    CHECK_THAT(errorOf([&] { sq(v); }), Contains("tensor<3xf32>"));
    CHECK_THAT(errorOf([&] { sq(x, x); }), Contains("expected 1 values"));
    CHECK_THAT(errorOf([&] { get(make_tuple({x}), 3); }),
               Contains("adj.get: index 3 is out of range"));
    CHECK_THAT(errorOf([&] { get(x, 0); }), Contains("adj.get"));
    CHECK_THAT(errorOf([&] { grad(sq.ref(), {std::vector<int64_t>{1}}); }),
               Contains("adj.grad: wrt index 1 is out of range"));
    CHECK_THAT(errorOf([&] { vjp(sq.ref(), {std::nullopt, true}); }),
               Contains("adj.vjp: custom_sens"));
    CHECK_THAT(errorOf([&] { grad(x); }), Contains("adj.grad"));
    CHECK_THAT(errorOf([&] { make_tuple({}); }), Contains("adj.tuple"));
    CHECK_THAT(errorOf([&] { (void)Value(sq.ref()(x, x)); }),
               Contains("adj.call"));
    return x;
  });
  m.verify();
}

TEST_CASE("control flow errors", "[api][errors]") {
  Module m;
  m.function("f", {kF32, f32({2}), f32({3})}, [&](Value x, Value v,
                                                  Value w) {
    CHECK_THAT(errorOf([&] {
                 if_(x > 0.0, [&] { return w; }, [&] { return v; });
               }),
               Contains("adj.if: the branches yield types that do not join "
                        "(#0): (tensor<3xf32>) and (tensor<2xf32>)"));
    CHECK_THAT(errorOf([&] { if_(x, [&] { return x; }, [&] { return x; }); }),
               Contains("condition must be tensor<i1>"));
    CHECK_THAT(errorOf([&] {
                 for_(0, 3, 1, {w}, [&](Value i, Value c) { return v; });
               }),
               Contains("adj.for: a loop-carried value changes type in the "
                        "body to one that does not join (#0): "
                        "(tensor<3xf32>) and (tensor<2xf32>)"));
    CHECK_THAT(errorOf([&] {
                 while_({x}, [&](Value c) { return c; },
                        [&](Value c) { return c; });
               }),
               Contains("cond region must yield one tensor<i1>"));
    CHECK_THAT(errorOf([&] {
                 for_(0, 3, 1, {x}, [&](Value c) { return c; });
               }),
               Contains("takes 1 Values but the region has 2 arguments"));
    CHECK_THAT(errorOf([&] {
                 if_(x > 0.0, [&] { return Value(); }, [&] { return x; });
               }),
               Contains("empty Value"));
    // A throwing branch erases the whole conditional.
    CHECK_THAT(errorOf([&] {
                 if_(x > 0.0, [&]() -> Value { throw Error("user error"); },
                     [&] { return x; });
               }),
               Contains("user error"));
    return x;
  });
  m.verify();
  CHECK(m.str().find("adj.if") == std::string::npos);
}

TEST_CASE("signature errors", "[api][errors]") {
  Module m;
  Function f = m.declare("f", {kF32}, {kF32});
  CHECK_THAT(errorOf([&] { m.declare("f", {}, {}); }),
             Contains("'f' already exists"));
  CHECK_THAT(errorOf([&] { f.define([](Value x) { return x == x; }); }),
             Contains("adj.return"));
  CHECK_FALSE(f.isDefined());
  f.define([](Value x) { return x; });
  // A declared signature is kept, even without results.
  Function g0 = m.declare("g0", {kF32}, {});
  CHECK_THAT(errorOf([&] { g0.define([](Value x) { return x; }); }),
             Contains("adj.return"));
  g0.define([](Value) { return Values{}; });
  CHECK(g0.type() == Type::fn({kF32}, {}));
  CHECK_THAT(errorOf([&] { m.lookup("g"); }), Contains("no function named"));
  CHECK_THAT(errorOf([&] {
               m.function("g", {kF32}, [](Value a, Value b) { return a; });
             }),
             Contains("takes 2 Values but the region has 1 arguments"));
  // A failed definition leaves no function behind.
  CHECK_THAT(errorOf([&] { m.lookup("g"); }), Contains("no function named"));
  // A declaration nothing refers to can be erased (and made again with other
  // types); one that is referred to cannot.
  Function h = m.declare("h", {kF32}, {kF32});
  h.erase();
  CHECK_THAT(errorOf([&] { m.lookup("h"); }), Contains("no function named"));
  CHECK_THAT(errorOf([&] { h.name(); }), Contains("empty Function"));
  m.declare("h", {kF32}, {f32({2})}).define([](Value x) {
    return broadcast_to(x, {2});
  });
  m.function("k", {kF32}, [&](Value x) { return m.lookup("h")(x); });
  CHECK_THAT(errorOf([&] { m.lookup("h").erase(); }),
             Contains("'h' cannot be erased: it is still referred to"));
  m.verify();
}

TEST_CASE("values out of scope or from another module", "[api][errors]") {
  Module m, other;
  Value leaked, fromF;
  other.function("o", {kF32}, [&](Value x) {
    fromF = x;
    return x;
  });
  m.function("f", {kF32}, [&](Value x) {
    lambda(m, {kF32}, [&](Value y) {
      leaked = y * 2.0;
      return leaked;
    });
    // The lambda is closed: its values are out of scope.
    std::string closed = errorOf([&] { (void)(leaked + x); });
    CHECK_THAT(closed, Contains("adj.add: operand #0"));
    CHECK_THAT(closed, Contains("outside its scope"));
    CHECK_THAT(errorOf([&] { (void)(x + fromF); }),
               Contains("adj.add: operand #1 belongs to another Module"));
    CHECK_THAT(errorOf([&] { (void)(x + Value()); }),
               Contains("adj.add: operand #1 is an empty Value"));
    CHECK_THAT(errorOf([&] { (void)exp(Value()); }),
               Contains("adj.exp: use of an empty Value"));
    return x;
  });
  Value fromFirst;
  m.function("g", {kF32}, [&](Value x) {
    fromFirst = x;
    return x;
  });
  m.function("h", {kF32}, [&](Value x) {
    CHECK_THAT(errorOf([&] { (void)(x * fromFirst); }),
               Contains("another function"));
    return x;
  });
  CHECK_THAT(errorOf([&] { (void)(fromFirst + 1.0); }),
             Contains("inside a function body"));
  CHECK_THAT(errorOf([&] { scalar(m, 1.0); }),
             Contains("adj.constant: ops can only be built inside a function"));
  CHECK_THAT(errorOf([&] { (void)Value(Values{}); }),
             Contains("expected exactly one value, got 0"));
  m.verify();
}
