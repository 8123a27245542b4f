//===- StructureTest.cpp - Closures, calls, control flow, envs ------------===//

#include "TestUtil.h"

using namespace adjoint;
using namespace adjoint::test;

static const char *kClosures = R"(
  adj.func @adder(%x: tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>> {
    %f = adj.lambda (%y: tensor<f32>) -> tensor<f32> {
      %s = adj.add %x, %y : tensor<f32>, tensor<f32>
      adj.return %s : tensor<f32>
    }
    adj.return %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  }
  adj.func @use_adder(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
    %mk = adj.func_ref @adder : !adj.fn<(tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>>
    %f = adj.call %mk(%a) : !adj.fn<(tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>>
    %r = adj.call %f(%b) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    adj.return %r : tensor<f32>
  }
  // Three nested lambdas: the innermost uses %a (two levels out) and %b.
  adj.func @nested(%a: tensor<f32>) -> tensor<f32> {
    %f1 = adj.lambda (%b: tensor<f32>) -> tensor<f32> {
      %f2 = adj.lambda (%c: tensor<f32>) -> tensor<f32> {
        %f3 = adj.lambda (%d: tensor<f32>) -> tensor<f32> {
          %s1 = adj.mul %a, %b : tensor<f32>, tensor<f32>
          %s2 = adj.add %s1, %c : tensor<f32>, tensor<f32>
          %s3 = adj.sub %s2, %d : tensor<f32>, tensor<f32>
          adj.return %s3 : tensor<f32>
        }
        %r3 = adj.call %f3(%c) : !adj.fn<(tensor<f32>) -> tensor<f32>>
        %r4 = adj.add %r3, %b : tensor<f32>, tensor<f32>
        adj.return %r4 : tensor<f32>
      }
      %ten = adj.constant dense<10.0> : tensor<f32>
      %r2 = adj.call %f2(%ten) : !adj.fn<(tensor<f32>) -> tensor<f32>>
      adj.return %r2 : tensor<f32>
    }
    %three = adj.constant dense<3.0> : tensor<f32>
    %r1 = adj.call %f1(%three) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    adj.return %r1 : tensor<f32>
  }
  // Closures stored in a tuple, taken out and applied by a higher-order fn.
  adj.func @apply_twice(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
    %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %z = adj.call %f(%y) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    adj.return %z : tensor<f32>
  }
  adj.func @tuples(%x: tensor<f32>) -> tensor<f32> {
    %one = adj.constant dense<1.0> : tensor<f32>
    %two = adj.constant dense<2.0> : tensor<f32>
    %mk = adj.func_ref @adder : !adj.fn<(tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>>
    %inc = adj.call %mk(%one) : !adj.fn<(tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>>
    %dbl = adj.lambda (%v: tensor<f32>) -> tensor<f32> {
      %m = adj.mul %v, %two : tensor<f32>, tensor<f32>
      adj.return %m : tensor<f32>
    }
    %t = adj.tuple %inc, %dbl : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>) -> tensor<f32>>
    %g0 = adj.get %t[0] : !adj.tuple<!adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>) -> tensor<f32>>>
    %g1 = adj.get %t[1] : !adj.tuple<!adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>) -> tensor<f32>>>
    %tw = adj.func_ref @apply_twice : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
    %a = adj.call %tw(%g0, %x) : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
    %b = adj.call %tw(%g1, %a) : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
    adj.return %b : tensor<f32>
  }
  adj.func @make_pair() -> !adj.tuple<tensor<f32>, !adj.fn<() -> tensor<f32>>> {
    %c = adj.constant dense<5.0> : tensor<f32>
    %f = adj.lambda () -> tensor<f32> {
      adj.return %c : tensor<f32>
    }
    %t = adj.tuple %c, %f : tensor<f32>, !adj.fn<() -> tensor<f32>>
    adj.return %t : !adj.tuple<tensor<f32>, !adj.fn<() -> tensor<f32>>>
  }
)";

TEST_CASE("closures capture values, nest, are returned and stored in tuples") {
  Program p(kClosures);
  requireClose(p.run("use_adder", {f32({}, {2}), f32({}, {5})}), DType::F32,
               {}, {7});
  // f3(10) = 3*a + 10 - 10 = 3a; + b = 3a + 3.
  requireClose(p.run("nested", {f32({}, {4})}), DType::F32, {}, {15});
  // ((x + 2) * 4.
  requireClose(p.run("tuples", {f32({}, {1})}), DType::F32, {}, {12});
  // A closure returned to C++ can be called through the public API.
  auto adder = p.call("adder", {f32({}, {100})});
  REQUIRE(adder[0].isFunction());
  requireClose(p.interpreter().call(adder[0], {f32({}, {1})})[0].tensor(),
               DType::F32, {}, {101});
  auto pair = p.call("make_pair");
  REQUIRE(pair[0].isTuple());
  const RValue &fn = pair[0].elements()[1];
  CHECK(fn.toString().find("<closure at test.mlir:") == 0);
  requireClose(p.interpreter().call(fn, {})[0].tensor(), DType::F32, {}, {5});
}

static const char *kRecursion = R"(
  adj.func @fact(%n: tensor<i64>) -> tensor<i64> {
    %one = adj.constant dense<1> : tensor<i64>
    %c = adj.cmp le, %n, %one : tensor<i64>, tensor<i64>
    %r = adj.if %c : tensor<i1> -> (tensor<i64>) {
      adj.yield %one : tensor<i64>
    } else {
      %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
      %f = adj.func_ref @fact : !adj.fn<(tensor<i64>) -> tensor<i64>>
      %r1 = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i64>>
      %p = adj.mul %n, %r1 : tensor<i64>, tensor<i64>
      adj.yield %p : tensor<i64>
    }
    adj.return %r : tensor<i64>
  }
  adj.func @even(%n: tensor<i64>) -> tensor<i1> {
    %zero = adj.constant dense<0> : tensor<i64>
    %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
    %r = adj.if %c : tensor<i1> -> (tensor<i1>) {
      %t = adj.constant dense<true> : tensor<i1>
      adj.yield %t : tensor<i1>
    } else {
      %one = adj.constant dense<1> : tensor<i64>
      %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
      %f = adj.func_ref @odd : !adj.fn<(tensor<i64>) -> tensor<i1>>
      %r1 = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i1>>
      adj.yield %r1 : tensor<i1>
    }
    adj.return %r : tensor<i1>
  }
  adj.func @odd(%n: tensor<i64>) -> tensor<i1> {
    %zero = adj.constant dense<0> : tensor<i64>
    %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
    %r = adj.if %c : tensor<i1> -> (tensor<i1>) {
      %f = adj.constant dense<false> : tensor<i1>
      adj.yield %f : tensor<i1>
    } else {
      %one = adj.constant dense<1> : tensor<i64>
      %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
      %f = adj.func_ref @even : !adj.fn<(tensor<i64>) -> tensor<i1>>
      %r1 = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i1>>
      adj.yield %r1 : tensor<i1>
    }
    adj.return %r : tensor<i1>
  }
  adj.func @forever(%n: tensor<i64>) -> tensor<i64> {
    %f = adj.func_ref @forever : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %r = adj.call %f(%n) : !adj.fn<(tensor<i64>) -> tensor<i64>>
    adj.return %r : tensor<i64>
  }
)";

TEST_CASE("recursion: factorial, mutual recursion, only the taken branch runs") {
  Program p(kRecursion);
  requireClose(p.run("fact", {i64({}, {10})}), DType::I64, {}, {3628800});
  requireClose(p.run("even", {i64({}, {7})}), DType::I1, {}, {0});
  requireClose(p.run("odd", {i64({}, {7})}), DType::I1, {}, {1});
  // 5000 levels deep succeeds with the default limit of 10000.
  requireClose(p.run("even", {i64({}, {5000})}), DType::I1, {}, {1});
}

TEST_CASE("the call depth limit is an error, never a stack overflow") {
  SECTION("default limit") {
    Program p(kRecursion);
    requireError([&] { p.run("forever", {i64({}, {1})}); },
                 {"call depth limit of 10000 exceeded at test.mlir:",
                  "adj.call"});
    // The interpreter is usable again afterwards.
    requireClose(p.run("fact", {i64({}, {5})}), DType::I64, {}, {120});
  }
  SECTION("small limit") {
    interp::Options options;
    options.maxCallDepth = 50;
    Program p(kRecursion, options);
    requireError([&] { p.run("even", {i64({}, {100})}); },
                 {"call depth limit of 50 exceeded"});
    requireClose(p.run("even", {i64({}, {40})}), DType::I1, {}, {1});
  }
  SECTION("a million levels") {
    interp::Options options;
    options.maxCallDepth = 1'000'000;
    Program p(kRecursion, options);
    requireError([&] { p.run("forever", {i64({}, {1})}); },
                 {"exceeded", "test.mlir:"});
  }
}

static const char *kLoops = R"(
  adj.func @sum_to(%n: tensor<i64>) -> tensor<i64> {
    %zero = adj.constant dense<0> : tensor<i64>
    %one = adj.constant dense<1> : tensor<i64>
    %r = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64>
           iter_args(%zero : tensor<i64>) -> tensor<i64> {
    ^bb0(%i: tensor<i64>, %acc: tensor<i64>):
      %s = adj.add %acc, %i : tensor<i64>, tensor<i64>
      adj.yield %s : tensor<i64>
    }
    adj.return %r : tensor<i64>
  }
  adj.func @strided(%lb: tensor<i64>, %ub: tensor<i64>, %step: tensor<i64>) -> (tensor<i64>, tensor<f32>) {
    %zero = adj.constant dense<0> : tensor<i64>
    %x = adj.constant dense<1.0> : tensor<f32>
    %r:2 = adj.for %lb to %ub step %step : tensor<i64>, tensor<i64>, tensor<i64>
           iter_args(%zero, %x : tensor<i64>, tensor<f32>) -> tensor<i64>, tensor<f32> {
    ^bb0(%i: tensor<i64>, %n: tensor<i64>, %y: tensor<f32>):
      %one = adj.constant dense<1> : tensor<i64>
      %n1 = adj.add %n, %one : tensor<i64>, tensor<i64>
      %y1 = adj.add %y, %y : tensor<f32>, tensor<f32>
      adj.yield %n1, %y1 : tensor<i64>, tensor<f32>
    }
    adj.return %r#0, %r#1 : tensor<i64>, tensor<f32>
  }
  adj.func @doubling(%x: tensor<f32>) -> tensor<f32> {
    %ten = adj.constant dense<100.0> : tensor<f32>
    %r = adj.while (%x : tensor<f32>) -> tensor<f32> cond {
    ^bb0(%v: tensor<f32>):
      %c = adj.cmp lt, %v, %ten : tensor<f32>, tensor<f32>
      adj.yield %c : tensor<i1>
    } do {
    ^bb0(%v: tensor<f32>):
      %y = adj.add %v, %v : tensor<f32>, tensor<f32>
      adj.yield %y : tensor<f32>
    }
    adj.return %r : tensor<f32>
  }
  // Closures made in a loop capture that iteration's value.
  adj.func @closures_in_loop() -> tensor<f32> {
    %zero = adj.constant dense<0> : tensor<i64>
    %three = adj.constant dense<3> : tensor<i64>
    %one = adj.constant dense<1> : tensor<i64>
    %c0 = adj.constant dense<0.0> : tensor<f32>
    %f0 = adj.lambda () -> tensor<f32> {
      adj.return %c0 : tensor<f32>
    }
    %r = adj.for %zero to %three step %one : tensor<i64>, tensor<i64>, tensor<i64>
           iter_args(%f0 : !adj.fn<() -> tensor<f32>>) -> !adj.fn<() -> tensor<f32>> {
    ^bb0(%i: tensor<i64>, %prev: !adj.fn<() -> tensor<f32>>):
      %fi = adj.cast %i : tensor<i64> to tensor<f32>
      %g = adj.lambda () -> tensor<f32> {
        %p = adj.call %prev() : !adj.fn<() -> tensor<f32>>
        %t = adj.constant dense<10.0> : tensor<f32>
        %m = adj.mul %p, %t : tensor<f32>, tensor<f32>
        %s = adj.add %m, %fi : tensor<f32>, tensor<f32>
        adj.return %s : tensor<f32>
      }
      adj.yield %g : !adj.fn<() -> tensor<f32>>
    }
    %v = adj.call %r() : !adj.fn<() -> tensor<f32>>
    adj.return %v : tensor<f32>
  }
)";

TEST_CASE("for and while loops") {
  Program p(kLoops);
  requireClose(p.run("sum_to", {i64({}, {101})}), DType::I64, {}, {5050});
  requireClose(p.run("sum_to", {i64({}, {0})}), DType::I64, {}, {0});
  auto r = p.call("strided", {i64({}, {2}), i64({}, {11}), i64({}, {3})});
  requireClose(r[0].tensor(), DType::I64, {}, {3}); // i = 2, 5, 8
  requireClose(r[1].tensor(), DType::F32, {}, {8});
  requireError([&] { p.call("strided", {i64({}, {0}), i64({}, {3}), i64({}, {0})}); },
               {"test.mlir:16:", "adj.for", "step must be positive"});
  requireClose(p.run("doubling", {f32({}, {3})}), DType::F32, {}, {192});
  requireClose(p.run("closures_in_loop"), DType::F32, {}, {12});
}

static const char *kEnvs = R"(
  adj.func @envs(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<3xf32>, !adj.env) {
    %e0 = adj.env_new
    %e1 = adj.env_set %e0[1], %a : !adj.env, tensor<2xf32>
    %e2 = adj.env_set %e0[1], %b : !adj.env, tensor<2xf32>
    %e3 = adj.env_set %e2[2], %b : !adj.env, tensor<2xf32>
    %sum = adj.env_add %e1, %e3 : !adj.env, !adj.env
    %g1 = adj.env_get %sum[1] : !adj.env -> tensor<2xf32>
    %g2 = adj.env_get %sum[2] : !adj.env -> tensor<2xf32>
    %g9 = adj.env_get %sum[9] : !adj.env -> tensor<3xf32>
    adj.return %g1, %g2, %g9, %e1 : tensor<2xf32>, tensor<2xf32>, tensor<3xf32>, !adj.env
  }
  adj.func @absent_untyped() -> !adj.any {
    %e0 = adj.env_new
    %g = adj.env_get %e0[3] : !adj.env -> !adj.any
    adj.return %g : !adj.any
  }
  adj.func @zeros(%x: !adj.any, %f: !adj.fn<(tensor<f32>) -> tensor<f32>>) -> !adj.any {
    %t = adj.tuple %x, %f : !adj.any, !adj.fn<(tensor<f32>) -> tensor<f32>>
    %z = adj.zeros_like %t : !adj.tuple<!adj.any, !adj.fn<(tensor<f32>) -> tensor<f32>>>
    %u = adj.zeros_like %x : !adj.any
    %r = adj.tuple %z, %u : !adj.tuple<!adj.any, !adj.env>, !adj.any
    adj.return %r : !adj.tuple<!adj.tuple<!adj.any, !adj.env>, !adj.any>
  }
  adj.func @grad_add_tuples(%a: !adj.tuple<tensor<f32>, !adj.env>, %b: !adj.tuple<tensor<f32>, !adj.env>) -> !adj.tuple<tensor<f32>, !adj.env> {
    %s = adj.grad_add %a, %b : !adj.tuple<tensor<f32>, !adj.env>, !adj.tuple<tensor<f32>, !adj.env>
    adj.return %s : !adj.tuple<tensor<f32>, !adj.env>
  }
  adj.func @sq(%x: tensor<f32>) -> tensor<f32> {
    %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
    adj.return %y : tensor<f32>
  }
  adj.func @get_sq() -> !adj.fn<(tensor<f32>) -> tensor<f32>> {
    %f = adj.func_ref @sq : !adj.fn<(tensor<f32>) -> tensor<f32>>
    adj.return %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  }
  adj.func @ad_request(%x: tensor<f32>) -> tensor<f32> {
    %f = adj.func_ref @sq : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %g = adj.grad %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %r = adj.call %g(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    adj.return %r : tensor<f32>
  }
)";

TEST_CASE("environments, zeros_like and grad_add") {
  Program p(kEnvs);
  auto r = p.call("envs", {f32({2}, {1, 2}), f32({2}, {10, 20})});
  requireClose(r[0].tensor(), DType::F32, {2}, {11, 22});
  requireClose(r[1].tensor(), DType::F32, {2}, {10, 20});
  requireClose(r[2].tensor(), DType::F32, {3}, {0, 0, 0});
  // env_set leaves its input unchanged: %e1 holds only key 1.
  CHECK(r[3].env().entries.size() == 1);
  requireError([&] { p.call("absent_untyped"); },
               {"test.mlir:15:", "adj.env_get", "no known zero"});

  RValue sq = p.call("get_sq")[0];
  CHECK(sq.toString() == "<function @sq>");
  auto z = p.call("zeros", {tensor(DType::I32, {2}, {4, 5}), sq})[0];
  REQUIRE(z.elements().size() == 2);
  const RValue &zt = z.elements()[0];
  requireClose(zt.elements()[0].tensor(), DType::I32, {2}, {0, 0});
  CHECK(zt.elements()[1].isEnv());
  CHECK(zt.elements()[1].env().entries.empty());
  requireClose(z.elements()[1].tensor(), DType::I32, {2}, {0, 0});

  interp::EnvValue ea, eb;
  ea.entries[1] = f32({}, {1});
  eb.entries[1] = f32({}, {2});
  eb.entries[4] = RValue::tuple({f32({}, {7})});
  auto s = p.call("grad_add_tuples",
                  {RValue::tuple({f32({}, {1}), RValue::env(ea)}),
                   RValue::tuple({f32({}, {5}), RValue::env(eb)})})[0];
  requireClose(s.elements()[0].tensor(), DType::F32, {}, {6});
  const auto &entries = s.elements()[1].env().entries;
  REQUIRE(entries.size() == 2);
  requireClose(entries.at(1).tensor(), DType::F32, {}, {3});
  requireClose(entries.at(4).elements()[0].tensor(), DType::F32, {}, {7});
  CHECK(s.toString() == "(tensor<f32> 6, env{1: tensor<f32> 3, 4: (tensor<f32> 7)})");

  requireError([&] {
    p.call("grad_add_tuples", {RValue::tuple({f32({}, {1}), RValue::env(ea)}),
                               RValue::tuple({f32({2}, {5, 6}), RValue::env(eb)})});
  }, {"argument #1", "tensor<f32>"});
  requireError([&] { p.call("ad_request", {f32({}, {1})}); },
               {"test.mlir:", "adj.grad", "-adj-grad"});
}

TEST_CASE("untyped programs run from run-time values") {
  Program p(R"(
    adj.func @f(%x: !adj.any, %g: !adj.any) -> !adj.any {
      %y = adj.call %g(%x) : !adj.any (!adj.any) -> (!adj.any)
      %t = adj.tuple %y, %x : !adj.any, !adj.any
      %a = adj.get %t[0] : !adj.tuple<!adj.any, !adj.any>
      %s = adj.grad_add %a, %a : !adj.any, !adj.any
      adj.return %s : !adj.any
    }
    adj.func @neg(%x: !adj.any) -> !adj.any {
      %y = adj.neg %x : !adj.any
      adj.return %y : !adj.any
    }
    adj.func @get_neg() -> !adj.any {
      %f = adj.func_ref @neg : !adj.any
      adj.return %f : !adj.any
    })");
  RValue neg = p.call("get_neg")[0];
  requireClose(p.run("f", {f64({2}, {1, -2}), neg}), DType::F64, {2}, {-2, 4});
  requireError([&] { p.call("f", {f64({2}, {1, -2}), f64({}, {1})}); },
               {"test.mlir:3:", "adj.call", "not a function"});
  requireError([&] { p.call("f", {f64({1}, {1})}); },
               {"expects 2 arguments, got 1"});
  requireError([&] { p.call("nope", {}); }, {"no adj.func named 'nope'"});
}
