//===- ElementwiseTest.cpp - Arithmetic, math, cmp, select, cast ----------===//

#include "TestUtil.h"

using namespace adjoint;
using namespace adjoint::test;

static const std::vector<std::pair<std::string, DType>> kNumeric = {
    {"f64", DType::F64}, {"f32", DType::F32}, {"f16", DType::F16},
    {"bf16", DType::BF16}, {"i64", DType::I64}, {"i32", DType::I32}};
static const std::vector<std::pair<std::string, DType>> kAll = {
    {"f64", DType::F64}, {"f32", DType::F32}, {"f16", DType::F16},
    {"bf16", DType::BF16}, {"i64", DType::I64}, {"i32", DType::I32},
    {"i1", DType::I1}};

TEST_CASE("binary arithmetic in every numeric dtype, with broadcasting") {
  for (auto [name, dtype] : kNumeric) {
    DYNAMIC_SECTION(name) {
      Program p(subst(R"(
        adj.func @f(%a: tensor<2x2x$T>, %b: tensor<2x$T>)
            -> (tensor<2x2x$T>, tensor<2x2x$T>, tensor<2x2x$T>, tensor<2x2x$T>,
                tensor<2x2x$T>, tensor<2x2x$T>) {
          %0 = adj.add %a, %b : tensor<2x2x$T>, tensor<2x$T>
          %1 = adj.sub %a, %b : tensor<2x2x$T>, tensor<2x$T>
          %2 = adj.mul %a, %b : tensor<2x2x$T>, tensor<2x$T>
          %3 = adj.div %a, %b : tensor<2x2x$T>, tensor<2x$T>
          %4 = adj.maximum %a, %b : tensor<2x2x$T>, tensor<2x$T>
          %5 = adj.minimum %a, %b : tensor<2x2x$T>, tensor<2x$T>
          adj.return %0, %1, %2, %3, %4, %5 : tensor<2x2x$T>, tensor<2x2x$T>,
            tensor<2x2x$T>, tensor<2x2x$T>, tensor<2x2x$T>, tensor<2x2x$T>
        })", name));
      auto r = p.call("f", {tensor(dtype, {2, 2}, {1, -6, 7, 8}),
                            tensor(dtype, {2}, {2, 4})});
      bool isInt = !isFloat(dtype);
      requireClose(r[0].tensor(), dtype, {2, 2}, {3, -2, 9, 12});
      requireClose(r[1].tensor(), dtype, {2, 2}, {-1, -10, 5, 4});
      requireClose(r[2].tensor(), dtype, {2, 2}, {2, -24, 14, 32});
      requireClose(r[3].tensor(), dtype, {2, 2},
                   isInt ? std::vector<double>{0, -1, 3, 2}
                         : std::vector<double>{0.5, -1.5, 3.5, 2});
      requireClose(r[4].tensor(), dtype, {2, 2}, {2, 4, 7, 8});
      requireClose(r[5].tensor(), dtype, {2, 2}, {1, -6, 2, 4});
    }
  }
}

TEST_CASE("pow, maximum and minimum of i1, float rounding") {
  Program p(R"(
    adj.func @pow(%a: tensor<3xf32>, %b: tensor<f32>) -> tensor<3xf32> {
      %0 = adj.pow %a, %b : tensor<3xf32>, tensor<f32>
      adj.return %0 : tensor<3xf32>
    }
    adj.func @bool(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
      %0 = adj.maximum %a, %b : tensor<4xi1>, tensor<4xi1>
      %1 = adj.minimum %a, %b : tensor<4xi1>, tensor<4xi1>
      adj.return %0, %1 : tensor<4xi1>, tensor<4xi1>
    }
    adj.func @third(%a: tensor<f16>, %b: tensor<f16>) -> tensor<f16> {
      %0 = adj.div %a, %b : tensor<f16>, tensor<f16>
      adj.return %0 : tensor<f16>
    })");
  requireClose(p.run("pow", {f32({3}, {2, 3, 4}), f32({}, {2})}), DType::F32,
               {3}, {4, 9, 16});
  auto r = p.call("bool", {tensor(DType::I1, {4}, {0, 0, 1, 1}),
                           tensor(DType::I1, {4}, {0, 1, 0, 1})});
  requireClose(r[0].tensor(), DType::I1, {4}, {0, 1, 1, 1});
  requireClose(r[1].tensor(), DType::I1, {4}, {0, 0, 0, 1});
  // 1/3 in f16 is 0x3555 (0.333251953125): one correct rounding.
  Tensor third = p.run("third", {tensor(DType::F16, {}, {1}),
                                 tensor(DType::F16, {}, {3})});
  uint16_t bits;
  std::memcpy(&bits, third.data(), 2);
  CHECK(bits == 0x3555);
}

TEST_CASE("integer division truncates and division by zero is an error") {
  for (std::string type : {"i64", "i32"}) {
    Program p(subst(R"(
      adj.func @f(%a: tensor<4x$T>, %b: tensor<4x$T>) -> tensor<4x$T> {
        %0 = adj.div %a, %b : tensor<4x$T>, tensor<4x$T>
        adj.return %0 : tensor<4x$T>
      })", type));
    DType dt = type == "i64" ? DType::I64 : DType::I32;
    requireClose(p.run("f", {tensor(dt, {4}, {7, -7, 7, -7}),
                             tensor(dt, {4}, {2, 2, -2, -2})}),
                 dt, {4}, {3, -3, -3, 3});
    requireError([&] {
      p.run("f", {tensor(dt, {4}, {1, 2, 3, 4}), tensor(dt, {4}, {1, 0, 1, 1})});
    }, {"test.mlir:3:", "adj.div", "division by zero"});
  }
}

TEST_CASE("unary math in every float dtype") {
  std::vector<std::pair<std::string, double (*)(double)>> fns = {
      {"neg", [](double x) { return -x; }},
      {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }},
      {"relu", [](double x) { return x > 0 ? x : 0; }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", [](double x) { return 1 / std::sqrt(x); }},
      {"abs", [](double x) { return std::fabs(x); }},
      {"sign", [](double x) { return double((x > 0) - (x < 0)); }},
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"erf", [](double x) { return std::erf(x); }},
      {"log1p", [](double x) { return std::log1p(x); }},
      {"expm1", [](double x) { return std::expm1(x); }}};
  for (auto [name, dtype] : kAll) {
    if (!isFloat(dtype))
      continue;
    for (auto &[op, fn] : fns) {
      DYNAMIC_SECTION(name << " " << op) {
        Program p(subst("adj.func @f(%x: tensor<3x$T>) -> tensor<3x$T> {\n"
                        "  %0 = adj." + op + " %x : tensor<3x$T>\n"
                        "  adj.return %0 : tensor<3x$T>\n}", name));
        // Positive inputs for log/log1p/sqrt/rsqrt, mixed signs otherwise.
        bool positive = op == "log" || op == "log1p" || op == "sqrt" ||
                        op == "rsqrt";
        std::vector<double> in = positive ? std::vector<double>{0.5, 1.5, 2}
                                          : std::vector<double>{0.5, -1.5, 0};
        Tensor x = tensor(dtype, {3}, in);
        std::vector<double> expected;
        for (double v : x.toDoubles())
          expected.push_back(fn(v));
        requireClose(p.run("f", {x}), dtype, {3}, expected);
      }
    }
  }
}

TEST_CASE("integer unary ops, and float-only ops reject integers at run time") {
  for (std::string type : {"i64", "i32"}) {
    DType dt = type == "i64" ? DType::I64 : DType::I32;
    Program p(subst(R"(
      adj.func @f(%x: tensor<3x$T>) -> (tensor<3x$T>, tensor<3x$T>, tensor<3x$T>, tensor<3x$T>) {
        %0 = adj.neg %x : tensor<3x$T>
        %1 = adj.abs %x : tensor<3x$T>
        %2 = adj.relu %x : tensor<3x$T>
        %3 = adj.sign %x : tensor<3x$T>
        adj.return %0, %1, %2, %3 : tensor<3x$T>, tensor<3x$T>, tensor<3x$T>, tensor<3x$T>
      }
      adj.func @untyped(%x: !adj.any) -> !adj.any {
        %0 = adj.exp %x : !adj.any
        adj.return %0 : !adj.any
      })", type));
    auto r = p.call("f", {tensor(dt, {3}, {-3, 0, 5})});
    requireClose(r[0].tensor(), dt, {3}, {3, 0, -5});
    requireClose(r[1].tensor(), dt, {3}, {3, 0, 5});
    requireClose(r[2].tensor(), dt, {3}, {0, 0, 5});
    requireClose(r[3].tensor(), dt, {3}, {-1, 0, 1});
    requireError([&] { p.call("untyped", {tensor(dt, {3}, {1, 2, 3})}); },
                 {"test.mlir:10:", "adj.exp", "floating-point"});
  }
}

TEST_CASE("cmp with every predicate in every dtype") {
  const char *preds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  std::vector<std::vector<double>> expected = {
      {0, 1, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 0}, {0, 0, 1}, {0, 1, 1}};
  for (auto [name, dtype] : kAll) {
    for (int k = 0; k < 6; ++k) {
      DYNAMIC_SECTION(name << " " << preds[k]) {
        Program p(subst(std::string("adj.func @f(%a: tensor<3x$T>, %b: tensor<$T>) -> tensor<3xi1> {\n"
                                    "  %0 = adj.cmp ") + preds[k] +
                            ", %a, %b : tensor<3x$T>, tensor<$T>\n"
                            "  adj.return %0 : tensor<3xi1>\n}",
                        name));
        // For i1 the operands are 0, 1, 1 against 1: shift expectations.
        bool isBool = dtype == DType::I1;
        Tensor a = tensor(dtype, {3}, isBool ? std::vector<double>{0, 1, 1}
                                             : std::vector<double>{1, 2, 3});
        Tensor b = tensor(dtype, {}, {isBool ? 1.0 : 2.0});
        std::vector<double> want = expected[k];
        if (isBool) // 0 vs 1, 1 vs 1, 1 vs 1.
          want = {want[0], want[1], want[1]};
        requireClose(p.run("f", {a, b}), DType::I1, {3}, want);
      }
    }
  }
}

TEST_CASE("cmp with NaN is false except ne") {
  Program p(R"(
    adj.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xi1>, tensor<2xi1>) {
      %0 = adj.cmp eq, %a, %b : tensor<2xf32>, tensor<2xf32>
      %1 = adj.cmp ne, %a, %b : tensor<2xf32>, tensor<2xf32>
      adj.return %0, %1 : tensor<2xi1>, tensor<2xi1>
    })");
  double nan = std::nan("");
  auto r = p.call("f", {f32({2}, {nan, 1}), f32({2}, {nan, 1})});
  requireClose(r[0].tensor(), DType::I1, {2}, {0, 1});
  requireClose(r[1].tensor(), DType::I1, {2}, {1, 0});
}

TEST_CASE("select in every dtype, broadcasting the three operands") {
  for (auto [name, dtype] : kAll) {
    DYNAMIC_SECTION(name) {
      Program p(subst(R"(
        adj.func @f(%c: tensor<2x1xi1>, %a: tensor<3x$T>, %b: tensor<$T>) -> tensor<2x3x$T> {
          %0 = adj.select %c, %a, %b : tensor<2x1xi1>, tensor<3x$T>, tensor<$T>
          adj.return %0 : tensor<2x3x$T>
        })", name));
      bool isBool = dtype == DType::I1;
      Tensor a = tensor(dtype, {3}, isBool ? std::vector<double>{1, 1, 1}
                                           : std::vector<double>{1, 2, 3});
      Tensor b = tensor(dtype, {}, {isBool ? 0.0 : 9.0});
      std::vector<double> want =
          isBool ? std::vector<double>{1, 1, 1, 0, 0, 0}
                 : std::vector<double>{1, 2, 3, 9, 9, 9};
      requireClose(p.run("f", {tensor(DType::I1, {2, 1}, {1, 0}), a, b}),
                   dtype, {2, 3}, want);
    }
  }
}

TEST_CASE("cast between every pair of dtypes") {
  for (auto [from, fromType] : kAll) {
    for (auto [to, toType] : kAll) {
      DYNAMIC_SECTION(from << " to " << to) {
        Program p("adj.func @f(%x: tensor<4x" + from + ">) -> tensor<4x" + to +
                  "> {\n  %0 = adj.cast %x : tensor<4x" + from +
                  "> to tensor<4x" + to + ">\n  adj.return %0 : tensor<4x" +
                  to + ">\n}");
        std::vector<double> in = fromType == DType::I1
                                     ? std::vector<double>{1, 0, 1, 1}
                                     : std::vector<double>{-2, 0, 1, 3};
        std::vector<double> want = in;
        if (toType == DType::I1)
          for (double &v : want)
            v = v != 0;
        requireClose(p.run("f", {tensor(fromType, {4}, in)}), toType, {4},
                     want);
      }
    }
  }
}

TEST_CASE("cast float to int truncates toward zero, to i1 tests non-zero") {
  Program p(R"(
    adj.func @f(%x: tensor<5xf32>) -> (tensor<5xi32>, tensor<5xi1>, tensor<5xf16>) {
      %0 = adj.cast %x : tensor<5xf32> to tensor<5xi32>
      %1 = adj.cast %x : tensor<5xf32> to tensor<5xi1>
      %2 = adj.cast %x : tensor<5xf32> to tensor<5xf16>
      adj.return %0, %1, %2 : tensor<5xi32>, tensor<5xi1>, tensor<5xf16>
    })");
  auto r = p.call("f", {f32({5}, {-2.7, 2.7, 0, 0.25, 1e10})});
  requireClose(r[0].tensor(), DType::I32, {5}, {-2, 2, 0, 0, 2147483647});
  requireClose(r[1].tensor(), DType::I1, {5}, {1, 1, 0, 1, 1});
  requireClose(r[2].tensor(), DType::F16, {5},
               {-2.69921875, 2.69921875, 0, 0.25, INFINITY}, 0);
}

TEST_CASE("broadcasting follows NumPy and mismatches are errors") {
  Program p(R"(
    adj.func @f(%a: tensor<3x1xf64>, %b: tensor<1x4xf64>) -> tensor<3x4xf64> {
      %0 = adj.mul %a, %b : tensor<3x1xf64>, tensor<1x4xf64>
      adj.return %0 : tensor<3x4xf64>
    }
    adj.func @g(%a: !adj.any, %b: !adj.any) -> !adj.any {
      %0 = adj.add %a, %b : !adj.any, !adj.any
      adj.return %0 : !adj.any
    })");
  requireClose(p.run("f", {f64({3, 1}, {1, 2, 3}), f64({1, 4}, {1, 10, 100, 1000})}),
               DType::F64, {3, 4},
               {1, 10, 100, 1000, 2, 20, 200, 2000, 3, 30, 300, 3000});
  // Untyped: shapes known only at run time.
  requireClose(p.run("g", {f64({2, 1, 3}, {1, 2, 3, 4, 5, 6}), f64({2, 1}, {10, 20})}),
               DType::F64, {2, 2, 3},
               {11, 12, 13, 21, 22, 23, 14, 15, 16, 24, 25, 26});
  requireError([&] { p.run("g", {f64({3}, {1, 2, 3}), f64({2}, {1, 2})}); },
               {"test.mlir:7:", "adj.add", "[3] and [2] do not broadcast"});
}
