//===- ConformanceControlTest.cpp - Gradients of functional programs ------===//
//
// Straight-line primitives, closures, higher-order functions, recursion,
// conditionals, loops and tuples, differentiated by -adj-grad and compared
// with finite differences. Each program is evaluated at points chosen away
// from kinks (relu, abs, max) and branch boundaries, where finite
// differences are exact to rounding.
//
//===----------------------------------------------------------------------===//

#include "GradCheck.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::test;

namespace {

const Type S = F64();
const Type kFn = Type::fn({S}, {S});

/// The single tensor result of `name` in the transformed module.
std::vector<double> runDoubles(GradCheck &gc, const std::string &name,
                               const RValues &args) {
  std::vector<double> out;
  for (const RValue &v : gc.run(name, args))
    for (double d : v.tensor().toDoubles())
      out.push_back(d);
  return out;
}

} // namespace

//===----------------------------------------------------------------------===//
// Primitives in straight-line code
//===----------------------------------------------------------------------===//

TEST_CASE("straight-line scalar primitives", "[ad][conformance][primitives]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value a = exp(x) * sin(y) + log(x * x + 1.0) - tanh(x / y);
    Value b = sqrt(y * y + 2.0) + pow(x * x + 0.5, y) + sigmoid(x * y);
    Value c = cos(x) * erf(y) + rsqrt(x * x + 3.0) + abs(y) - relu(y) * x;
    Value d = maximum(x, y) * 2.0 + minimum(x * 2.0, y) + neg(x) * y;
    return a + b + c + d;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.8), f64(1.3)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(1.7), f64(-0.6)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(-0.4), f64(2.2)}));
}

TEST_CASE("straight-line tensor primitives: shape and data movement",
          "[ad][conformance][primitives]") {
  Module m;
  Function f = m.function("f", {F64({2, 3}), F64({3})}, [&](Value a,
                                                            Value b) {
    Value t = transpose(a);                          // 3x2
    Value r = reshape(a, {3, 2});                    // 3x2
    Value s = slice(a, {0, 0}, {2, 3}, {1, 2});      // 2x2
    Value c = concat({a, a * b}, 0);                 // 4x3
    Value p = pad(a, {1, 0}, {0, 2}, 0.5);           // 3x5
    Value bt = broadcast_to(b, {2, 3});              // 2x3
    Value mx = max(a, 1);                            // 2
    Value mn = mean(a, 0, true);                     // 1x3
    Value loss = sum(t * r) + sum(s * s) + sum(sin(c)) + sum(p * p * 0.5);
    loss = loss + sum(bt * a * a) + sum(mx * mx) + sum(mn * b) +
           sum(sum(exp(a), 1) * 0.5);
    return loss;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f",
                     {f64({2, 3}, {0.3, -1.2, 0.9, 1.5, 0.1, -0.4}),
                      f64({3}, {0.7, -0.2, 1.1})}));
  CHECK_GRAD(gc.grad("main", "f", {gc.random({2, 3}), gc.random({3})}));
}

TEST_CASE("select and comparisons route sensitivities elementwise",
          "[ad][conformance][primitives]") {
  Module m;
  Function f = m.function("f", {F64({5}), F64({5})}, [&](Value x, Value y) {
    Value picked = select(x > y, x * y, sin(x) + y * y);
    Value gated = cast(x > 0.0, DType::F64) * x * 3.0;
    return sum(picked) + sum(gated) + sum(select(y < 0.0, y, 2.0) * x);
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f",
                     {f64({5}, {0.5, -1.0, 2.0, -0.3, 1.1}),
                      f64({5}, {0.2, -0.5, 2.5, -0.9, 1.4})}));
}

//===----------------------------------------------------------------------===//
// Closures
//===----------------------------------------------------------------------===//

TEST_CASE("a closure capturing outer values", "[ad][conformance][closures]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value c = lambda(m, {S}, [&](Value z) { return z * x + sin(y) * z * z; });
    Value first = c(x * y);
    Value second = c(y);
    return first + second;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.9), f64(-1.4)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(2.0), f64(0.3)}));
}

TEST_CASE("closures nested three deep", "[ad][conformance][closures]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value l1 = lambda(m, {S}, [&](Value a) {
      Value l2 = lambda(m, {S}, [&](Value b) {
        Value l3 = lambda(m, {S}, [&](Value c) {
          return a * b * c + x * sin(c) + y;
        });
        Value r3 = l3(b * y);
        return r3 + a;
      });
      Value r2 = l2(a * x);
      return r2;
    });
    Value r1 = l1(y);
    return r1 * x;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.6), f64(1.7)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(-1.1), f64(0.4)}));
}

TEST_CASE("closures returned from functions", "[ad][conformance][closures]") {
  Module m;
  Function makeScaler = m.function("make_scaler", {S, S}, [&](Value a,
                                                              Value b) {
    return lambda(m, {S}, [&](Value z) { return a * z * z + b; });
  });
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value s1 = makeScaler(x, y);
    Value s2 = makeScaler(y, exp(x));
    Value r1 = s1(y);
    Value r2 = s2(x);
    return r1 * r2;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.5), f64(-0.8)}));
}

TEST_CASE("closures stored in tuples", "[ad][conformance][closures]") {
  Module m;
  Type pair = Type::tuple({kFn, kFn});
  Function applyPair = m.function("apply_pair", {pair, S}, [&](Value t,
                                                               Value v) {
    Value a = get(t, 0)(v);
    Value b = get(t, 1)(a);
    return a * b;
  });
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value up = lambda(m, {S}, [&](Value z) { return z * x + y; });
    Value down = lambda(m, {S}, [&](Value z) { return sin(z * y); });
    Value t = make_tuple({up, down, x});
    Value direct = get(t, 0)(get(t, 2));
    Value viaFn = applyPair(make_tuple({down, up}), y);
    return direct + viaFn;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(1.2), f64(0.7)}));
}

TEST_CASE("a recursive function that builds and calls a closure",
          "[ad][conformance][closures][recursion]") {
  // rec(x, n) = step(0.9 x), step(v) = n <= 0 ? sin(v) : rec(v x, n - 1) + v:
  // the closure calls the function that made it.
  Module m;
  Function rec = m.declare("rec", {S, I64()}, {S});
  rec.define([&](Value x, Value n) {
    Value step = lambda(m, {S}, [&](Value v) {
      return if_(
          n <= 0.0, [&] { return sin(v); },
          [&] {
            Value inner = rec(v * x, n - 1.0);
            return inner + v;
          });
    });
    Value r = step(x * 0.9);
    return r;
  });
  gradDriver(m, rec, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "rec", {f64(1.1), i64(3)}));
  CHECK_GRAD(gc.grad("main", "rec", {f64(-0.7), i64(0)}));
}

//===----------------------------------------------------------------------===//
// Higher-order functions
//===----------------------------------------------------------------------===//

TEST_CASE("functions passed in: apply and a map over a tuple",
          "[ad][conformance][higher-order]") {
  Module m;
  Function square = m.function("square", {S}, [&](Value v) { return v * v; });
  Function apply = m.function("apply", {kFn, S}, [&](Value fn, Value v) {
    Value r = fn(v);
    return r;
  });
  Type triple = Type::tuple({S, S, S});
  Function map3 = m.function("map3", {kFn, triple}, [&](Value fn, Value t) {
    Value a = fn(get(t, 0)), b = fn(get(t, 1)), c = fn(get(t, 2));
    return make_tuple({a, b, c});
  });
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value affine = lambda(m, {S}, [&](Value z) { return z * y + sin(z); });
    Value mapped = map3(affine, make_tuple({x, y, x * y}));
    Value a = apply(square.ref(), x);
    Value b = apply(affine, a);
    return get(mapped, 0) * get(mapped, 1) + get(mapped, 2) + b;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.4), f64(1.9)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(-1.3), f64(0.2)}));
}

TEST_CASE("functions returned: compose and twice",
          "[ad][conformance][higher-order]") {
  Module m;
  Function compose = m.function("compose", {kFn, kFn}, [&](Value f,
                                                           Value g) {
    return lambda(m, {S}, [&](Value v) {
      Value inner = g(v);
      Value outer = f(inner);
      return outer;
    });
  });
  Function twice = m.function("twice", {kFn}, [&](Value f) {
    return lambda(m, {S}, [&](Value v) {
      Value once = f(v);
      Value again = f(once);
      return again;
    });
  });
  Function sinFn = m.function("sin_fn", {S}, [&](Value v) { return sin(v); });
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value scale = lambda(m, {S}, [&](Value v) { return v * y; });
    Value h = compose(sinFn.ref(), scale);
    Value hh = twice(h);
    Value a = hh(x);
    Value scaleTwice = twice(scale);
    Value both = compose(scale, scaleTwice);
    Value b = both(exp(x));
    return a + b;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.7), f64(1.3)}));
}

TEST_CASE("functions stored in tuples and passed to a higher-order function",
          "[ad][conformance][higher-order]") {
  Module m;
  Type fns = Type::tuple({kFn, Type::tuple({kFn, S})});
  // chain(t, v) = t.0(t.1.0(v) * t.1.1)
  Function chain = m.function("chain", {fns, S}, [&](Value t, Value v) {
    Value inner = get(get(t, 1), 0)(v);
    Value outer = get(t, 0)(inner * get(get(t, 1), 1));
    return outer;
  });
  Function cube = m.function("cube", {S}, [&](Value v) { return v * v * v; });
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value shift = lambda(m, {S}, [&](Value v) { return tanh(v + y); });
    Value t = make_tuple({cube.ref(), make_tuple({shift, x})});
    Value r1 = chain(t, y);
    Value r2 = chain(make_tuple({shift, make_tuple({cube.ref(), y})}), x);
    return r1 + r2;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.8), f64(-0.5)}));
}

//===----------------------------------------------------------------------===//
// Recursion
//===----------------------------------------------------------------------===//

TEST_CASE("direct recursion: power by repeated multiplication",
          "[ad][conformance][recursion]") {
  Module m;
  Function power = m.declare("power", {S, I64()}, {S});
  power.define([&](Value x, Value n) {
    return if_(
        n == 0.0, [&] { return x - x + 1.0; },
        [&] {
          Value rest = power(x, n - 1.0);
          return x * rest;
        });
  });
  gradDriver(m, power, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  // Integer arguments get zero sensitivities (checked by the harness).
  CHECK_GRAD(gc.grad("main", "power", {f64(1.3), i64(5)}));
  CHECK_GRAD(gc.grad("main", "power", {f64(-0.9), i64(0)}));
  // d/dx x^5 = 5 x^4 exactly.
  std::vector<double> d = runDoubles(gc, "main", {f64(1.3), i64(5)});
  REQUIRE(d.size() == 2);
  CHECK(d[1] == 0.0);
  CHECK(d[0] == Approx(5 * std::pow(1.3, 4)).epsilon(1e-12));
}

TEST_CASE("mutual recursion on a counter with a float accumulator",
          "[ad][conformance][recursion]") {
  // even(x, n, acc) = n == 0 ? acc : odd(x, n - 1, acc * x + 1)
  // odd(x, n, acc)  = n == 0 ? -acc : even(x, n - 1, sin(acc) * x)
  Module m;
  Function even = m.declare("even", {S, I64(), S}, {S});
  Function odd = m.declare("odd", {S, I64(), S}, {S});
  even.define([&](Value x, Value n, Value acc) {
    return if_(
        n == 0.0, [&] { return acc; },
        [&] {
          Value r = odd(x, n - 1.0, acc * x + 1.0);
          return r;
        });
  });
  odd.define([&](Value x, Value n, Value acc) {
    return if_(
        n == 0.0, [&] { return -acc; },
        [&] {
          Value r = even(x, n - 1.0, sin(acc) * x);
          return r;
        });
  });
  gradDriver(m, even, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "even", {f64(0.9), i64(6), f64(0.3)}));
  CHECK_GRAD(gc.grad("main", "even", {f64(1.2), i64(5), f64(-0.4)}));
}

TEST_CASE("recursion whose depth depends on a float value",
          "[ad][conformance][recursion]") {
  // halve(x) = x < 1 ? x * x : halve(x / 2) + x
  Module m;
  Function halve = m.declare("halve", {S}, {S});
  halve.define([&](Value x) {
    return if_(
        x < 1.0, [&] { return x * x; },
        [&] {
          Value r = halve(x / 2.0);
          return r + x;
        });
  });
  gradDriver(m, halve, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "halve", {f64(0.6)}));
  CHECK_GRAD(gc.grad("main", "halve", {f64(5.3)}));
  CHECK_GRAD(gc.grad("main", "halve", {f64(37.0)}));
}

//===----------------------------------------------------------------------===//
// Conditionals
//===----------------------------------------------------------------------===//

TEST_CASE("conditionals: the sensitivity flows only through the branch taken",
          "[ad][conformance][conditionals]") {
  // Then uses only x, else only y: the other argument's gradient is zero.
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value r = if_(
        x > 0.0, [&] { return x * x * 3.0; }, [&] { return sin(y) * 2.0; });
    return r;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.5), f64(1.0)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(-0.5), f64(1.0)}));
  std::vector<double> thenBranch = runDoubles(gc, "main", {f64(0.5), f64(1)});
  CHECK(thenBranch == std::vector<double>{3.0, 0.0});
  std::vector<double> elseBranch = runDoubles(gc, "main", {f64(-0.5), f64(1)});
  REQUIRE(elseBranch.size() == 2);
  CHECK(elseBranch[0] == 0.0);
  CHECK(elseBranch[1] == Approx(2 * std::cos(1.0)).epsilon(1e-14));
}

TEST_CASE("conditionals with several results and values used in one branch",
          "[ad][conformance][conditionals]") {
  Module m;
  Function f = m.function("f", {S, S, S}, [&](Value x, Value y, Value z) {
    Value shared = x * y;
    Values r = if_(
        z > x,
        [&] { return Values{shared * z, exp(y)}; },
        [&] { return Values{shared + z, y * y * x}; });
    return r[0] * r[1] + shared;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.3), f64(1.2), f64(0.9)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(0.3), f64(1.2), f64(-0.9)}));
}

TEST_CASE("a branch that calls a closure", "[ad][conformance][conditionals]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value c = lambda(m, {S}, [&](Value v) { return v * y + cos(v * x); });
    Value r = if_(
        x < y,
        [&] {
          Value a = c(x);
          return a * x;
        },
        [&] { return x * y; });
    return r;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.4), f64(1.5)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(2.4), f64(1.5)}));
}

TEST_CASE("a conditional that chooses between closures",
          "[ad][conformance][conditionals][closures]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value g = if_(
        x > y,
        [&] { return lambda(m, {S}, [&](Value z) { return z * x; }); },
        [&] {
          return lambda(m, {S}, [&](Value z) { return z * z * y + x; });
        });
    Value r = g(y);
    return r;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(1.4), f64(0.6)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(-1.4), f64(0.6)}));
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

TEST_CASE("adj.for with carried values and free variables",
          "[ad][conformance][loops]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Values r = for_(0, 5, 1, {x, y}, [&](Value i, Value a, Value b) {
      Value fi = cast(i, DType::F64);
      Value a2 = a * x * 0.5 + b * sin(fi * y);
      Value b2 = b * cos(a) + fi * 0.1;
      return Values{a2, b2};
    });
    return r[0] + r[1] * r[1];
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.9), f64(0.6)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(-1.2), f64(1.1)}));
}

TEST_CASE("adj.for with bounds given at run time, including no iterations",
          "[ad][conformance][loops]") {
  Module m;
  Function f = m.function("f", {S, I64()}, [&](Value x, Value n) {
    Value zero = scalar(m, 0, DType::I64), one = scalar(m, 1, DType::I64);
    Value r = for_(zero, n, one, {x * 2.0}, [&](Value i, Value acc) {
      return acc * x + sin(acc);
    });
    return r * x;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.7), i64(4)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(0.7), i64(0)}));
  // With no iterations f = 2 x^2: f' = 4 x.
  std::vector<double> d = runDoubles(gc, "main", {f64(0.7), i64(0)});
  REQUIRE(d.size() == 2);
  CHECK(d[0] == Approx(2.8).epsilon(1e-14));
}

TEST_CASE("adj.while with a data-dependent trip count",
          "[ad][conformance][loops]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Values r = while_(
        {x, y}, [&](Value v, Value w) { return v < 20.0; },
        [&](Value v, Value w) {
          return Values{v * x + w, w * 0.5 + sin(v)};
        });
    return r[0] + r[1];
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(1.5), f64(0.8)}));
  CHECK_GRAD(gc.grad("main", "f", {f64(2.7), f64(-0.3)}));
  // A loop that never runs passes its inputs through.
  CHECK_GRAD(gc.grad("main", "f", {f64(25.0), f64(-0.3)}));
}

TEST_CASE("a loop whose body calls a closure", "[ad][conformance][loops]") {
  Module m;
  Function f = m.function("f", {S, S}, [&](Value x, Value y) {
    Value c = lambda(m, {S}, [&](Value v) { return v * x + sin(v); });
    Value r = for_(0, 4, 1, {y}, [&](Value i, Value acc) {
      Value next = c(acc);
      return next * 0.5 + y;
    });
    return r;
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.8), f64(1.3)}));
}

TEST_CASE("nested loops", "[ad][conformance][loops]") {
  Module m;
  Function f = m.function("f", {S, F64({3})}, [&](Value x, Value v) {
    Value r = for_(0, 3, 1, {v}, [&](Value i, Value acc) {
      Value inner = for_(0, 2, 1, {acc}, [&](Value j, Value a) {
        return tanh(a * x) + a * 0.5;
      });
      return inner * v;
    });
    return sum(r);
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.9), f64({3}, {0.5, -1.0, 1.5})}));
}

// Loops of more than 8 trips are not unrolled: -adj-reverse-loops stacks
// their residuals and runs their backward pass as one reverse loop.
// GradCheck requires first-order code after -adj-optimize for these
// (constant trip counts), so each test also checks that the pass fired.

TEST_CASE("adj.for with many trips as a reverse loop",
          "[ad][conformance][loops][reverse-loops]") {
  Module m;
  Function f = m.function("f", {S, F64({2})}, [&](Value x, Value y) {
    Values r = for_(0, 12, 1, {x, y}, [&](Value i, Value a, Value b) {
      Value fi = cast(i, DType::F64);
      Value a2 = sin(a * x) * 0.9 + sum(b * sin(fi * 0.3));
      Value b2 = b * cos(a) * 0.8 + fi * 0.05;
      return Values{a2, b2};
    });
    return r[0] + sum(r[1] * r[1]);
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.9), f64({2}, {0.6, -0.4})}));
  CHECK_GRAD(gc.grad("main", "f", {f64(-1.2), f64({2}, {1.1, 0.3})}));
}

TEST_CASE("a counted adj.while with zero, one and many trips",
          "[ad][conformance][loops][reverse-loops]") {
  for (int64_t trips : {0, 1, 2, 20}) {
    Module m;
    Function f = m.function("f", {S, S}, [&](Value x, Value y) {
      Value one = scalar(m, 1, DType::I64);
      Value bound = scalar(m, static_cast<double>(trips), DType::I64);
      Values r = while_(
          {scalar(m, 0, DType::I64), x, y},
          [&](Value i, Value a, Value b) { return i < bound; },
          [&](Value i, Value a, Value b) {
            Value fi = cast(i, DType::F64);
            return Values{i + one, tanh(a * y) + b * 0.5,
                          b * cos(a) + fi * x * 0.1};
          });
      return r[1] * x + r[2];
    });
    gradDriver(m, f, "main");
    GradCheck gc(m);
    REQUIRE_TRANSFORMED(gc);
    INFO("trips " << trips);
    CHECK_GRAD(gc.grad("main", "f", {f64(0.7), f64(0.4)}));
    CHECK_GRAD(gc.grad("main", "f", {f64(-0.5), f64(1.3)}));
  }
}

TEST_CASE("nested loops of many trips",
          "[ad][conformance][loops][reverse-loops]") {
  Module m;
  Function f = m.function("f", {S, F64({3})}, [&](Value x, Value v) {
    Value r = for_(0, 10, 1, {v}, [&](Value i, Value acc) {
      Value inner = for_(0, 9, 1, {acc}, [&](Value j, Value a) {
        return tanh(a * x) * 0.9 + a * 0.1;
      });
      return inner * 0.5 + v * 0.5;
    });
    return sum(r);
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.9), f64({3}, {0.5, -1.0, 1.5})}));
}

TEST_CASE("a loop of many trips in a function called twice",
          "[ad][conformance][loops][reverse-loops]") {
  Module m;
  Function g = m.function("g", {S, S}, [&](Value x, Value w) {
    return for_(0, 16, 1, {x}, [&](Value i, Value acc) {
      return sin(acc * w) + acc * 0.5;
    })[0];
  });
  Function f = m.function("f", {S, S}, [&](Value x, Value w) {
    Value first = g(x, w)[0];
    return g(first * w, x)[0];
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f", {f64(0.8), f64(1.1)}));
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

TEST_CASE("nested tuples built, read and passed through functions",
          "[ad][conformance][tuples]") {
  Module m;
  Type inner = Type::tuple({S, F64({3})});
  Type nested = Type::tuple({S, inner});
  // combine((a, (b, v))) = ((a * b, v * a), sum(v) * b)
  Function combine = m.function("combine", {nested}, [&](Value t) {
    Value a = get(t, 0), b = get(get(t, 1), 0), v = get(get(t, 1), 1);
    return make_tuple({make_tuple({a * b, v * a}), sum(v) * b});
  });
  Function f = m.function("f", {nested, S}, [&](Value t, Value y) {
    Value c = combine(t);
    Value again = combine(make_tuple({get(get(c, 0), 0), make_tuple({y, get(get(c, 0), 1)})}));
    return get(again, 1) + sum(get(get(again, 0), 1)) * get(c, 1);
  });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  // The sensitivity of the tuple argument is a tuple of the same shape.
  CHECK_GRAD(gc.grad("main", "f",
                     {tuple({f64(0.6), tuple({f64(-1.1), f64({3}, {0.2, 0.9, -0.4})})}),
                      f64(1.7)}));
}
