//===- TypesTest.cpp - Dtype promotion and type joins in the builder ------===//
//
// The promotion lattice pair by pair, every binary op on every pair of
// dtypes (types, and values through the reference interpreter), gradients
// through promoted ops, and the joins of adj.if branches and of loop-carried
// values, checked against closed forms.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/API/Passes.h"
#include "adjoint/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;
using Catch::Matchers::Contains;

namespace {

const std::vector<DType> kAll = {DType::F64, DType::F32, DType::F16,
                                 DType::BF16, DType::I64, DType::I32,
                                 DType::I1};

/// The interpreter's dtype of a builder dtype.
DType interpDType(DType d) {
  static mlir::MLIRContext ctx;
  auto t = llvm::cast<mlir::RankedTensorType>(Type::scalar(d).toMLIR(&ctx));
  return interp::dtypeOf(t.getElementType());
}

interp::Value tensor(DType d, std::vector<int64_t> shape,
                     std::vector<double> values) {
  return interp::Tensor::fromDoubles(interpDType(d), std::move(shape),
                                     values);
}

/// Runs `name` of `m` (verified); returns each result's elements and
/// checks each result's dtype.
std::vector<std::vector<double>>
run(const Module &m, const std::string &name,
    const std::vector<interp::Value> &args,
    const std::vector<DType> &dtypes) {
  m.verify();
  interp::Interpreter interpreter(m.op());
  std::vector<interp::Value> results = interpreter.call(name, args);
  REQUIRE(results.size() == dtypes.size());
  std::vector<std::vector<double>> out;
  for (auto [r, d] : llvm::zip(results, dtypes)) {
    CHECK(r.tensor().dtype() == interpDType(d));
    out.push_back(r.tensor().toDoubles());
  }
  return out;
}

/// Small values every dtype holds exactly.
std::vector<double> sample(DType d, bool first) {
  if (d == DType::I1)
    return first ? std::vector<double>{1, 0} : std::vector<double>{1, 1};
  return first ? std::vector<double>{3, 1} : std::vector<double>{2, 1};
}

} // namespace

TEST_CASE("promoteTypes is the documented lattice", "[api][types]") {
  // Rows and columns in the order of kAll: F64 F32 F16 BF16 I64 I32 I1.
  using D = DType;
  const D table[7][7] = {
      {D::F64, D::F64, D::F64, D::F64, D::F64, D::F64, D::F64},
      {D::F64, D::F32, D::F32, D::F32, D::F32, D::F32, D::F32},
      {D::F64, D::F32, D::F16, D::F32, D::F16, D::F16, D::F16},
      {D::F64, D::F32, D::F32, D::BF16, D::BF16, D::BF16, D::BF16},
      {D::F64, D::F32, D::F16, D::BF16, D::I64, D::I64, D::I64},
      {D::F64, D::F32, D::F16, D::BF16, D::I64, D::I32, D::I32},
      {D::F64, D::F32, D::F16, D::BF16, D::I64, D::I32, D::I1}};
  for (size_t i = 0; i < kAll.size(); ++i)
    for (size_t j = 0; j < kAll.size(); ++j) {
      INFO(dtypeName(kAll[i]) << " v " << dtypeName(kAll[j]));
      CHECK(promoteTypes(kAll[i], kAll[j]) == table[i][j]);
    }
}

TEST_CASE("joinTypes broadcasts shapes, promotes dtypes, and recurses into "
          "tuples",
          "[api][types]") {
  Type s64 = Type::scalar(DType::I64);
  Type v3 = f32({3});
  CHECK(joinTypes(s64, v3) == f32({3}));
  CHECK(joinTypes(f32({2, 1}), Type::tensor(DType::F64, {3})) ==
        Type::tensor(DType::F64, {2, 3}));
  CHECK(joinTypes(Type::tuple({s64, v3}), Type::tuple({v3, s64})) ==
        Type::tuple({v3, v3}));
  Type fn = Type::fn({v3}, {v3});
  CHECK(joinTypes(fn, fn) == fn);
  // True conflicts.
  CHECK_FALSE(joinTypes(f32({2}), f32({3})));
  CHECK_FALSE(joinTypes(v3, Type::tuple({v3})));
  CHECK_FALSE(joinTypes(Type::tuple({v3}), Type::tuple({v3, v3})));
  CHECK_FALSE(joinTypes(fn, Type::fn({v3}, {s64})));
}

TEST_CASE("every binary op promotes its operands, for every pair of dtypes",
          "[api][types]") {
  using BinaryFn = std::function<Value(Value, Value)>;
  const std::vector<std::pair<std::string, BinaryFn>> ops = {
      {"add", [](Value a, Value b) { return add(a, b); }},
      {"sub", [](Value a, Value b) { return sub(a, b); }},
      {"mul", [](Value a, Value b) { return mul(a, b); }},
      {"div", [](Value a, Value b) { return div(a, b); }},
      {"pow", [](Value a, Value b) { return pow(a, b); }},
      {"maximum", [](Value a, Value b) { return maximum(a, b); }},
      {"minimum", [](Value a, Value b) { return minimum(a, b); }},
      {"lt", [](Value a, Value b) { return a < b; }},
      {"select", [](Value a, Value b) { return select(a > b, a, b); }},
      {"matmul", [](Value a, Value b) {
         return matmul(reshape(a, {1, 2}), reshape(b, {2, 1}));
       }}};
  for (const auto &[name, op] : ops)
    for (DType da : kAll)
      for (DType db : kAll) {
        DType joined = promoteTypes(da, db);
        INFO(name << " on " << dtypeName(da) << " and " << dtypeName(db));
        // The mixed op is the op on the promoted dtype: it is rejected
        // exactly when that one is (i1 arithmetic, pow of integers, ...).
        auto buildOn = [&](Module &m, DType x, DType y) {
          return errorOf([&] {
            m.function("f", {Type::tensor(x, {2}), Type::tensor(y, {2})},
                       [&](Value a, Value b) { return op(a, b); });
          });
        };
        Module same;
        std::string sameError = buildOn(same, joined, joined);
        Module mixed;
        std::string mixedError = buildOn(mixed, da, db);
        CHECK(mixedError.empty() == sameError.empty());
        if (!mixedError.empty())
          continue;
        Type result = mixed.lookup("f").type().results().front();
        CHECK(result.dtype() == (name == "lt" ? DType::I1 : joined));
        if (da != db)
          CHECK_THAT(mixed.str(), Contains("adj.cast"));
        // Values: the same as on the promoted dtype.
        std::vector<interp::Value> args = {
            tensor(da, {2}, sample(da, true)),
            tensor(db, {2}, sample(db, false))};
        std::vector<interp::Value> promotedArgs = {
            tensor(joined, {2}, sample(da, true)),
            tensor(joined, {2}, sample(db, false))};
        CHECK(run(mixed, "f", args, {result.dtype()}) ==
              run(same, "f", promotedArgs, {result.dtype()}));
      }
}

TEST_CASE("a double operand is weak: it takes the tensor's dtype",
          "[api][types]") {
  for (DType d : {DType::F64, DType::F32, DType::F16, DType::BF16,
                  DType::I64, DType::I32}) {
    Module m;
    m.function("f", {Type::tensor(d, {2})},
               [&](Value x) { return Values{x * 2.0, 3.0 - x, x < 2.0}; });
    CHECK(m.lookup("f").type().results()[0].dtype() == d);
    auto r = run(m, "f", {tensor(d, {2}, {3, 1})}, {d, d, DType::I1});
    CHECK(r[0] == std::vector<double>{6, 2});
    CHECK(r[1] == std::vector<double>{0, 2});
    CHECK(r[2] == std::vector<double>{0, 1});
  }
}

TEST_CASE("gradients flow through promoted operands in their own dtypes",
          "[api][types]") {
  // f(a, b) = sum(a * b): df/da = b, df/db = a, each in its argument's
  // dtype, for an f32 and an f64 argument.
  Module m;
  Type a32 = f32({2}), b64 = Type::tensor(DType::F64, {2});
  Function f = m.function("f", {a32, b64},
                          [](Value a, Value b) { return sum(a * b); });
  m.function("df", {a32, b64}, [&](Value a, Value b) {
    return call(grad(f.ref()), {a, b});
  });
  CHECK(f.type().results().front() == Type::scalar(DType::F64));
  runPasses(m, "adj-grad");
  auto r = run(m, "df",
               {tensor(DType::F32, {2}, {1.5, -2}),
                tensor(DType::F64, {2}, {0.25, 3})},
               {DType::F32, DType::F64});
  CHECK(r[0] == std::vector<double>{0.25, 3});
  CHECK(r[1] == std::vector<double>{1.5, -2});
}

TEST_CASE("adj.if takes the join of its branch types", "[api][types]") {
  Module m;
  Type s = Type::scalar(DType::F32), v2 = f32({2});
  // 1 if c else x * 2 (an i64 branch and an f32 one), a scalar and a vector
  // branch, and tuples of both.
  m.function("f", {s, v2}, [&](Value x, Value v) {
    Value c = x > 0.0;
    Value one = scalar(m, 1, DType::I64);
    Value a = if_(c, [&] { return one; }, [&] { return x * 2.0; });
    Value b = if_(c, [&] { return x; }, [&] { return v; });
    Value t = if_(c, [&] { return make_tuple({one, v}); },
                  [&] { return make_tuple({v, x}); });
    CHECK(t.type() == Type::tuple({v2, v2}));
    return Values{a, b, get(t, 0), get(t, 1)};
  });
  CHECK(m.lookup("f").type().results() == std::vector<Type>{s, v2, v2, v2});
  interp::Value vec = tensor(DType::F32, {2}, {4, 5});
  std::vector<DType> f32s(4, DType::F32);
  auto pos = run(m, "f", {tensor(DType::F32, {}, {3}), vec}, f32s);
  CHECK(pos == std::vector<std::vector<double>>{{1}, {3, 3}, {1, 1}, {4, 5}});
  auto neg = run(m, "f", {tensor(DType::F32, {}, {-3}), vec}, f32s);
  CHECK(neg ==
        std::vector<std::vector<double>>{{-6}, {4, 5}, {4, 5}, {-3, -3}});
}

TEST_CASE("a recursive function whose base case is an integer constant",
          "[api][types]") {
  // fact(n) = 1 if n <= 1 else n * fact(n - 1), at a float n: the adj.if
  // joins the i64 base case to f32. fact(3.5) = 3.5 * 2.5 * 1.5 and its
  // derivative is that of n(n-1)(n-2), 3n^2 - 6n + 2.
  Module m;
  Type s = Type::scalar(DType::F32);
  Function fact = m.declare("fact", {s}, {s});
  fact.define([&](Value n) {
    return if_(n <= 1.0, [&] { return scalar(m, 1, DType::I64); },
               [&] { return n * Value(fact(n - 1.0)); });
  });
  m.function("dfact", {s}, [&](Value n) {
    return call(grad(fact.ref()), {n});
  });
  runPasses(m, "adj-grad");
  interp::Value n = tensor(DType::F32, {}, {3.5});
  CHECK(run(m, "fact", {n}, {DType::F32})[0][0] == Approx(13.125));
  CHECK(run(m, "dfact", {n}, {DType::F32})[0][0] ==
        Approx(3 * 3.5 * 3.5 - 6 * 3.5 + 2));
}

TEST_CASE("loop-carried values take the join of their types",
          "[api][types]") {
  // r = 0 (an i64); r = r + x * x three times: r is an f32, 3x^2, of
  // derivative 6x. The body is built again with the wider carried type.
  Module m;
  Type s = Type::scalar(DType::F32), v3 = f32({3});
  int bodies = 0;
  Function f = m.function("f", {s}, [&](Value x) {
    Value zero = scalar(m, 0, DType::I64);
    return for_(0, 3, 1, {zero}, [&](Value, Value r) {
      ++bodies;
      return r + x * x;
    });
  });
  CHECK(bodies == 2);
  CHECK(f.type() == Type::fn({s}, {s}));
  m.function("df", {s}, [&](Value x) { return call(grad(f.ref()), {x}); });
  // while: a scalar that becomes a vector (broadcast), and an i32 counter
  // that meets an i64 one.
  m.function("g", {v3}, [&](Value v) {
    Value n = scalar(m, 0, DType::I32);
    return while_(
        {n, scalar(m, 0.0)}, [&](Value k, Value) { return k < 2.0; },
        [&](Value k, Value acc) {
          return Values{k + scalar(m, 1, DType::I64), acc + v};
        });
  });
  CHECK(m.lookup("g").type().results() ==
        std::vector<Type>{Type::scalar(DType::I64), v3});
  runPasses(m, "adj-grad");
  interp::Value x = tensor(DType::F32, {}, {1.5});
  CHECK(run(m, "f", {x}, {DType::F32})[0][0] == Approx(3 * 1.5 * 1.5));
  CHECK(run(m, "df", {x}, {DType::F32})[0][0] == Approx(6 * 1.5));
  auto g = run(m, "g", {tensor(DType::F32, {3}, {1, 2, 3})},
               {DType::I64, DType::F32});
  CHECK(g[0] == std::vector<double>{2});
  CHECK(g[1] == std::vector<double>{2, 4, 6});
}

TEST_CASE("loop-carried types that keep widening are an error",
          "[api][types]") {
  Module m;
  m.function("f", {f32({2})}, [&](Value x) {
    // Each pass adds a leading dimension: the join never settles.
    CHECK_THAT(errorOf([&] {
                 for_(0, 3, 1, {x}, [&](Value, Value c) {
                   std::vector<int64_t> shape = c.shape();
                   shape.insert(shape.begin(), 2);
                   return broadcast_to(c, shape);
                 });
               }),
               Contains("adj.for: the loop-carried types keep widening"));
    return x;
  });
  m.verify();
}
