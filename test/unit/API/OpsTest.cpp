//===- OpsTest.cpp - Every tensor primitive of the builder API ------------===//
//
// Each builder function makes the op it names with the inferred type, and
// the module verifies; operators with numbers and broadcasting.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

using adjoint::DType;
using namespace adjoint::api;
using namespace adjoint::api::test;
using Catch::Matchers::Contains;

namespace {
using Args = const std::vector<Value> &;
} // namespace

TEST_CASE("binary primitives broadcast", "[api][ops]") {
  using Fn = Value (*)(Value, Value);
  std::vector<std::pair<std::string, Fn>> table = {
      {"adj.add", add},         {"adj.sub", sub},
      {"adj.mul", mul},         {"adj.div", div},
      {"adj.pow", [](Value a, Value b) { return pow(a, b); }},
      {"adj.maximum", [](Value a, Value b) { return maximum(a, b); }},
      {"adj.minimum", [](Value a, Value b) { return minimum(a, b); }},
      {"adj.atan2", atan2}};
  for (auto &[op, fn] : table) {
    INFO(op);
    Built b = build({f32({2, 1}), f32({3})},
                    [&](Module &, Args a) { return fn(a[0], a[1]); });
    CHECK(b.op == op);
    CHECK(b.type == "tensor<2x3xf32>");
    CHECK_THAT(b.ir, Contains(op + " %arg0, %arg1 : tensor<2x1xf32>, "
                                   "tensor<3xf32>"));
  }
}

TEST_CASE("unary primitives keep the type", "[api][ops]") {
  using Fn = Value (*)(Value);
  std::vector<std::pair<std::string, Fn>> table = {
      {"adj.neg", neg},     {"adj.exp", exp},         {"adj.log", log},
      {"adj.tanh", tanh},   {"adj.sigmoid", sigmoid}, {"adj.relu", relu},
      {"adj.sqrt", sqrt},   {"adj.rsqrt", rsqrt},     {"adj.abs", abs},
      {"adj.sign", sign},   {"adj.sin", sin},         {"adj.cos", cos},
      {"adj.erf", erf},     {"adj.log1p", log1p},     {"adj.expm1", expm1}};
  for (auto &[op, fn] : table) {
    INFO(op);
    Built b = build({f32({4})}, [&](Module &, Args a) { return fn(a[0]); });
    CHECK(b.op == op);
    CHECK(b.type == "tensor<4xf32>");
  }
}

TEST_CASE("operators build arithmetic and comparisons", "[api][ops]") {
  Built sum = build({f32({2, 3}), f32({3})},
                    [](Module &, Args a) { return a[0] + a[1]; });
  CHECK(sum.op == "adj.add");
  CHECK(sum.type == "tensor<2x3xf32>");
  CHECK(build({f32({2})}, [](Module &, Args a) { return a[0] - a[0]; }).op ==
        "adj.sub");
  CHECK(build({f32({2})}, [](Module &, Args a) { return a[0] * a[0]; }).op ==
        "adj.mul");
  CHECK(build({f32({2})}, [](Module &, Args a) { return a[0] / a[0]; }).op ==
        "adj.div");
  CHECK(build({f32({2})}, [](Module &, Args a) { return -a[0]; }).op ==
        "adj.neg");

  std::vector<std::pair<std::string, std::function<Value(Value, Value)>>>
      cmps = {{"lt", [](Value a, Value b) { return a < b; }},
              {"le", [](Value a, Value b) { return a <= b; }},
              {"gt", [](Value a, Value b) { return a > b; }},
              {"ge", [](Value a, Value b) { return a >= b; }},
              {"eq", [](Value a, Value b) { return a == b; }},
              {"ne", [](Value a, Value b) { return a != b; }}};
  for (auto &[pred, fn] : cmps) {
    INFO(pred);
    Built b = build({f32({2, 3}), f32({})},
                    [&](Module &, Args a) { return fn(a[0], a[1]); });
    CHECK(b.op == "adj.cmp");
    CHECK(b.type == "tensor<2x3xi1>");
    CHECK_THAT(b.ir, Contains("adj.cmp " + pred + ", %arg0, %arg1"));
  }
}

TEST_CASE("a number operand is a rank-0 constant of the element type",
          "[api][ops]") {
  Built b = build({f32({2, 3})}, [](Module &, Args a) { return a[0] * 2.0; });
  CHECK(b.op == "adj.mul");
  CHECK(b.type == "tensor<2x3xf32>");
  CHECK_THAT(b.ir, Contains("adj.constant dense<2.000000e+00> : tensor<f32>"));
  CHECK_THAT(b.ir, Contains("adj.mul %arg0, %"));

  Built r = build({f32({3})}, [](Module &, Args a) { return 1.0 - a[0]; });
  CHECK_THAT(r.ir, Contains("adj.constant dense<1.000000e+00> : tensor<f32>"));
  CHECK_THAT(r.ir, Contains(" : tensor<f32>, tensor<3xf32>"));

  Built i = build({i64({3})}, [](Module &, Args a) { return a[0] + 3.0; });
  CHECK_THAT(i.ir, Contains("adj.constant dense<3> : tensor<i64>"));
  CHECK(i.type == "tensor<3xi64>");

  Built h = build({Type::tensor(DType::F16, {2})},
                  [](Module &, Args a) { return a[0] / 4.0; });
  CHECK_THAT(h.ir, Contains("tensor<f16>"));

  CHECK(build({f32({2})}, [](Module &, Args a) { return a[0] < 0.0; }).type ==
        "tensor<2xi1>");
  for (auto fn : std::vector<std::function<Value(Value)>>{
           [](Value x) { return x + 1.0; }, [](Value x) { return x - 1.0; },
           [](Value x) { return x / 2.0; }, [](Value x) { return 2.0 * x; },
           [](Value x) { return 2.0 + x; }, [](Value x) { return 2.0 / x; },
           [](Value x) { return x <= 1.0; }, [](Value x) { return x > 1.0; },
           [](Value x) { return x >= 1.0; }, [](Value x) { return x == 1.0; },
           [](Value x) { return x != 1.0; },
           [](Value x) { return pow(x, 2.0); },
           [](Value x) { return maximum(x, 0.0); },
           [](Value x) { return minimum(x, 0.0); }})
    CHECK(build({f32({2})}, [&](Module &, Args a) { return fn(a[0]); })
              .type.find("tensor<2x") == 0);
}

TEST_CASE("select and cast", "[api][ops]") {
  Built s = build({f32({2, 3}), f32({3})}, [](Module &, Args a) {
    return select(a[0] > 0.0, a[0], a[1]);
  });
  CHECK(s.op == "adj.select");
  CHECK(s.type == "tensor<2x3xf32>");
  Built z = build({f32({4})}, [](Module &, Args a) {
    return select(a[0] > 0.0, a[0], 0.0);
  });
  CHECK(z.type == "tensor<4xf32>");
  CHECK(build({f32({4})}, [](Module &, Args a) {
          return select(a[0] > 0.0, 1.0, a[0]);
        }).op == "adj.select");
  Built c = build({f32({2, 3})},
                  [](Module &, Args a) { return cast(a[0], DType::BF16); });
  CHECK(c.op == "adj.cast");
  CHECK(c.type == "tensor<2x3xbf16>");
  CHECK_THAT(c.ir, Contains("adj.cast %arg0 : tensor<2x3xf32> to "
                            "tensor<2x3xbf16>"));
}

TEST_CASE("matmul batches and broadcasts", "[api][ops]") {
  Built m = build({f32({2, 3}), f32({3, 4})},
                  [](Module &, Args a) { return matmul(a[0], a[1]); });
  CHECK(m.op == "adj.matmul");
  CHECK(m.type == "tensor<2x4xf32>");
  CHECK(build({f32({5, 2, 3}), f32({3, 4})}, [](Module &, Args a) {
          return matmul(a[0], a[1]);
        }).type == "tensor<5x2x4xf32>");
}

TEST_CASE("reductions normalize axes and default to all", "[api][ops]") {
  Built all =
      build({f32({2, 3, 4})}, [](Module &, Args a) { return sum(a[0]); });
  CHECK(all.op == "adj.reduce_sum");
  CHECK(all.type == "tensor<f32>");
  CHECK_THAT(all.ir, Contains("axes = [0, 1, 2]"));

  Built neg = build({f32({2, 3, 4})},
                    [](Module &, Args a) { return max(a[0], -1, true); });
  CHECK(neg.op == "adj.reduce_max");
  CHECK(neg.type == "tensor<2x3x1xf32>");
  CHECK_THAT(neg.ir, Contains("axes = [2] keepdims"));

  Built two = build({f32({2, 3, 4})},
                    [](Module &, Args a) { return mean(a[0], {-1, 0}); });
  CHECK(two.op == "adj.reduce_mean");
  CHECK(two.type == "tensor<3xf32>");
  CHECK_THAT(two.ir, Contains("axes = [0, 2]"));

  CHECK(build({f32({2, 3})}, [](Module &, Args a) {
          return sum(a[0], Axes::all(), true);
        }).type == "tensor<1x1xf32>");
  CHECK(build({f32({2, 3})}, [](Module &, Args a) {
          return sum(a[0], std::vector<int64_t>{1});
        }).type == "tensor<2xf32>");
}

TEST_CASE("shape and data movement", "[api][ops]") {
  Built bc = build({f32({3})},
                   [](Module &, Args a) { return broadcast_to(a[0], {2, 3}); });
  CHECK(bc.op == "adj.broadcast_to");
  CHECK(bc.type == "tensor<2x3xf32>");

  Built rs = build({f32({2, 6})},
                   [](Module &, Args a) { return reshape(a[0], {3, -1}); });
  CHECK(rs.op == "adj.reshape");
  CHECK(rs.type == "tensor<3x4xf32>");

  Built tp = build({f32({2, 3, 4})}, [](Module &, Args a) {
    return transpose(a[0], {0, -1, 1});
  });
  CHECK(tp.op == "adj.transpose");
  CHECK(tp.type == "tensor<2x4x3xf32>");
  CHECK_THAT(tp.ir, Contains("perm = [0, 2, 1]"));
  CHECK(build({f32({2, 3, 4})}, [](Module &, Args a) {
          return transpose(a[0]);
        }).type == "tensor<4x3x2xf32>");

  Built sl = build({f32({6, 5})}, [](Module &, Args a) {
    return slice(a[0], {1, 0}, {5, 5}, {2, 1});
  });
  CHECK(sl.op == "adj.slice");
  CHECK(sl.type == "tensor<2x5xf32>");
  CHECK(build({f32({6, 5})}, [](Module &, Args a) {
          return slice(a[0], {0, 1}, {3, 4});
        }).type == "tensor<3x3xf32>");

  Built cc = build({f32({2, 3}), f32({2, 4})}, [](Module &, Args a) {
    return concat({a[0], a[1]}, -1);
  });
  CHECK(cc.op == "adj.concat");
  CHECK(cc.type == "tensor<2x7xf32>");
  CHECK_THAT(cc.ir, Contains("axis = 1"));

  Built pd = build({f32({2, 3})}, [](Module &, Args a) {
    return pad(a[0], {1, 0}, {0, 2}, -1.0);
  });
  CHECK(pd.op == "adj.pad");
  CHECK(pd.type == "tensor<3x5xf32>");
  CHECK_THAT(pd.ir, Contains("value = -1.000000e+00"));

  Built ga = build({f32({10, 4}), i64({2, 3})},
                   [](Module &, Args a) { return gather(a[0], a[1]); });
  CHECK(ga.op == "adj.gather");
  CHECK(ga.type == "tensor<2x3x4xf32>");
  CHECK(build({f32({4, 10}), i64({5})}, [](Module &, Args a) {
          return gather(a[0], a[1], -1);
        }).type == "tensor<4x5xf32>");

  Built sc = build({f32({10, 4}), i64({5}), f32({5, 4})}, [](Module &, Args a) {
    return scatter_add(a[0], a[1], a[2]);
  });
  CHECK(sc.op == "adj.scatter_add");
  CHECK(sc.type == "tensor<10x4xf32>");

  Built st = build({f32({10, 4}), i64({5}), f32({5, 4})}, [](Module &, Args a) {
    return scatter(Scatter::Max, a[0], a[1], a[2]);
  });
  CHECK(st.op == "adj.scatter");
  CHECK(st.type == "tensor<10x4xf32>");
  // Add is scatter_add's.
  CHECK(build({f32({10, 4}), i64({5}), f32({5, 4})}, [](Module &, Args a) {
          return scatter(Scatter::Add, a[0], a[1], a[2]);
        }).op == "adj.scatter_add");
}

TEST_CASE("convolution and pooling", "[api][ops]") {
  Built cv = build({f32({8, 3, 32, 32}), f32({16, 3, 3, 3})},
                   [](Module &, Args a) {
                     Conv2DOptions o;
                     o.padding = {1, 1, 1, 1};
                     return conv2d(a[0], a[1], o);
                   });
  CHECK(cv.op == "adj.conv2d");
  CHECK(cv.type == "tensor<8x16x32x32xf32>");
  CHECK(build({f32({1, 4, 9, 9}), f32({4, 1, 3, 3})}, [](Module &, Args a) {
          Conv2DOptions o;
          o.stride = {2, 2};
          o.groups = 4;
          return conv2d(a[0], a[1], o);
        }).type == "tensor<1x4x4x4xf32>");

  Built mp = build({f32({1, 2, 8, 8})},
                   [](Module &, Args a) { return max_pool2d(a[0], {2, 2}); });
  CHECK(mp.op == "adj.max_pool2d");
  CHECK(mp.type == "tensor<1x2x4x4xf32>");
  CHECK_THAT(mp.ir, Contains("stride = [2, 2]"));
  Built ap = build({f32({1, 2, 8, 8})}, [](Module &, Args a) {
    return avg_pool2d(a[0], {3, 3}, {1, 1}, {1, 1, 1, 1});
  });
  CHECK(ap.op == "adj.avg_pool2d");
  CHECK(ap.type == "tensor<1x2x8x8xf32>");
}

TEST_CASE("tensor creation", "[api][ops]") {
  Built c = build({}, [](Module &m, Args) {
    return constant(m, {1, 2, 3, 4, 5, 6}, {2, 3});
  });
  CHECK(c.op == "adj.constant");
  CHECK(c.type == "tensor<2x3xf32>");
  CHECK_THAT(c.ir, Contains("dense<[[1.000000e+00, 2.000000e+00, "
                            "3.000000e+00], [4.000000e+00, 5.000000e+00, "
                            "6.000000e+00]]> : tensor<2x3xf32>"));
  CHECK_THAT(build({}, [](Module &m, Args) {
               return constant(m, {1, 0, 1}, {3}, DType::I1);
             }).ir,
             Contains("dense<[true, false, true]> : tensor<3xi1>"));
  CHECK_THAT(build({}, [](Module &m, Args) {
               return constant(m, {-7, 8}, {2}, DType::I32);
             }).ir,
             Contains("dense<[-7, 8]> : tensor<2xi32>"));
  CHECK(build({}, [](Module &m, Args) { return scalar(m, 1.5, DType::F64); })
            .type == "tensor<f64>");
  // Integers keep all 64 bits (a double would round 2^53 + 1 and 2^63 - 1).
  CHECK_THAT(build({}, [](Module &m, Args) {
               return integer_constant(
                   m, {9007199254740993, INT64_MAX, INT64_MIN}, {3});
             }).ir,
             Contains("dense<[9007199254740993, 9223372036854775807, "
                      "-9223372036854775808]> : tensor<3xi64>"));
  CHECK_THAT(build({}, [](Module &m, Args) {
               return integer_scalar(m, 4611686018427387905);
             }).ir,
             Contains("dense<4611686018427387905> : tensor<i64>"));
  CHECK_THAT(build({}, [](Module &m, Args) {
               return integer_constant(m, {3, -4}, {2}, DType::F64);
             }).ir,
             Contains("dense<[3.000000e+00, -4.000000e+00]> : tensor<2xf64>"));
  CHECK_THROWS_WITH(
      build({}, [](Module &m, Args) {
        return integer_scalar(m, int64_t(1) << 40, DType::I32);
      }),
      Contains("1099511627776 is not a valid i32 value"));

  Built f = build({}, [](Module &m, Args) { return fill(m, 0.5, {2, 2}); });
  CHECK(f.op == "adj.fill");
  CHECK(f.type == "tensor<2x2xf32>");
  CHECK_THAT(build({}, [](Module &m, Args) { return zeros(m, {3}); }).ir,
             Contains("adj.fill 0.000000e+00 : tensor<3xf32>"));
  CHECK_THAT(build({}, [](Module &m, Args) {
               return ones(m, {3}, DType::F64);
             }).ir,
             Contains("adj.fill 1.000000e+00 : tensor<3xf64>"));

  Built io = build({}, [](Module &m, Args) { return iota(m, {2, 5}, -1); });
  CHECK(io.op == "adj.iota");
  CHECK(io.type == "tensor<2x5xi64>");
  CHECK_THAT(io.ir, Contains("axis = 1"));

  Built rn = build({}, [](Module &m, Args) {
    return random_normal(scalar(m, 42, DType::I64), {4, 4}, DType::F32, 0.0,
                         0.1);
  });
  // The seeded functions are built on keys: the hash, then the scaling by
  // std (mean 0 adds nothing).
  CHECK(rn.op == "adj.mul");
  CHECK(rn.type == "tensor<4x4xf32>");
  CHECK_THAT(rn.ir, Contains("adj.threefry2x32"));
  Built ru = build({i64({})}, [](Module &, Args a) {
    return random_uniform(a[0], {3}, DType::F64, -1.0, 1.0);
  });
  CHECK(ru.op == "adj.maximum");
  CHECK(ru.type == "tensor<3xf64>");
  CHECK_THAT(ru.ir, Contains("adj.threefry2x32"));
}

TEST_CASE("complex numbers: parts, promotion and real operands",
          "[api][ops]") {
  Type c64 = Type::tensor(DType::C64, {3});
  Type f64 = Type::tensor(DType::F64, {3});
  // complex(re, im) promotes its parts: f32 with f64 is c128; integers
  // become f32 parts.
  Built b = build({f32({3}), f64}, [](Module &, Args a) {
    return complex(a[0], a[1]);
  });
  CHECK(b.op == "adj.complex");
  CHECK(b.type == "tensor<3xc128>");
  b = build({i64({3}), i64({3})},
            [](Module &, Args a) { return complex(a[0], a[1]); });
  CHECK(b.type == "tensor<3xc64>");
  // The parts of a complex tensor; conj and angle compose them.
  b = build({c64}, [](Module &, Args a) { return real(a[0]); });
  CHECK(b.op == "adj.real");
  CHECK(b.type == "tensor<3xf32>");
  b = build({c64}, [](Module &, Args a) { return imag(a[0]); });
  CHECK(b.op == "adj.imag");
  b = build({c64}, [](Module &, Args a) { return conj(a[0]); });
  CHECK(b.op == "adj.complex");
  CHECK(b.type == "tensor<3xc64>");
  b = build({c64}, [](Module &, Args a) { return angle(a[0]); });
  CHECK(b.op == "adj.atan2");
  CHECK(b.type == "tensor<3xf32>");
  b = build({c64}, [](Module &, Args a) { return abs(a[0]); });
  CHECK(b.type == "tensor<3xf32>");
  // A real operand is a complex number with a zero imaginary part.
  b = build({f32({3})}, [](Module &, Args a) { return real(a[0]); });
  CHECK(b.op == "<argument>");
  b = build({f32({3})}, [](Module &, Args a) { return imag(a[0]); });
  CHECK(b.op == "adj.zeros_like");
  b = build({f32({3})}, [](Module &, Args a) { return conj(a[0]); });
  CHECK(b.op == "<argument>");
  // A complex tensor with a real one or a number promotes to complex.
  b = build({c64, f64}, [](Module &, Args a) { return a[0] * a[1]; });
  CHECK(b.type == "tensor<3xc128>");
  b = build({c64}, [](Module &, Args a) { return a[0] * 2.0; });
  CHECK(b.type == "tensor<3xc64>");
  CHECK_THAT(b.ir, Contains("dense<(2.000000e+00,0.000000e+00)> : "
                            "tensor<complex<f32>>"));
  b = build({}, [](Module &m, Args) {
    return complex_constant(m, {{1, -2}, {0.5, 3}}, {2}, DType::C64);
  });
  CHECK(b.type == "tensor<2xc64>");
  CHECK_THAT(b.ir, Contains("dense<[(1.000000e+00,-2.000000e+00), "
                            "(5.000000e-01,3.000000e+00)]>"));
  CHECK_THAT(errorOf([] {
               Module m;
               m.function("f", {}, [&](Args) {
                 return complex_constant(m, {{1, 0}}, {1}, DType::F32);
               });
             }),
             Contains("complex values need a complex dtype"));
}
