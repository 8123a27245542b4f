//===- CompositesTest.cpp - Structure of the composite builders -----------===//
//
// Composites are built from primitives (no ops of their own) with the
// expected result types; bad inputs throw before anything is built.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;
using Catch::Matchers::Contains;

namespace {
using Args = const std::vector<Value> &;

/// The number of occurrences of `needle` in `haystack`.
size_t count(const std::string &haystack, const std::string &needle) {
  size_t n = 0;
  for (size_t pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + 1))
    ++n;
  return n;
}
} // namespace

TEST_CASE("softmax subtracts the max and normalizes", "[api][composites]") {
  Built b =
      build({f32({2, 5})}, [](Module &, Args a) { return softmax(a[0]); });
  CHECK(b.type == "tensor<2x5xf32>");
  CHECK(b.op == "adj.div");
  CHECK_THAT(b.ir, Contains("adj.reduce_max %arg0 axes = [1] keepdims"));
  CHECK_THAT(b.ir, Contains("adj.sub %arg0, %"));
  CHECK(count(b.ir, "adj.exp") == 1);
  CHECK_THAT(b.ir, Contains("adj.reduce_sum"));
  Built axis0 =
      build({f32({2, 5})}, [](Module &, Args a) { return softmax(a[0], 0); });
  CHECK_THAT(axis0.ir, Contains("axes = [0] keepdims"));
}

TEST_CASE("log_softmax is shifted by the max", "[api][composites]") {
  Built b =
      build({f32({3, 4})}, [](Module &, Args a) { return log_softmax(a[0]); });
  CHECK(b.type == "tensor<3x4xf32>");
  CHECK(b.op == "adj.sub");
  CHECK_THAT(b.ir, Contains("adj.reduce_max %arg0 axes = [1] keepdims"));
  CHECK(count(b.ir, "adj.log ") == 1);
  CHECK(count(b.ir, "adj.exp ") == 1);
}

TEST_CASE("cross_entropy with class indices and with probabilities",
          "[api][composites]") {
  Built idx = build({f32({4, 3}), i64({4})}, [](Module &, Args a) {
    return cross_entropy(a[0], a[1]);
  });
  CHECK(idx.type == "tensor<f32>");
  CHECK(idx.op == "adj.neg");
  CHECK_THAT(idx.ir, Contains("adj.iota axis = 1 : tensor<4x3xi64>"));
  CHECK_THAT(idx.ir, Contains("adj.reshape %arg1 : tensor<4xi64> to "
                              "tensor<4x1xi64>"));
  CHECK_THAT(idx.ir, Contains("adj.cmp eq"));
  CHECK_THAT(idx.ir, Contains("adj.select"));
  CHECK_THAT(idx.ir, Contains("adj.reduce_mean"));

  Built i32 = build({f32({2, 5, 3}), Type::tensor(DType::I32, {2, 5})},
                    [](Module &, Args a) { return cross_entropy(a[0], a[1]); });
  CHECK(i32.type == "tensor<f32>");

  Built soft = build({f32({4, 3}), f32({4, 3})}, [](Module &, Args a) {
    return cross_entropy(a[0], a[1]);
  });
  CHECK(soft.type == "tensor<f32>");
  CHECK(soft.op == "adj.reduce_mean");
  CHECK(soft.ir.find("adj.iota") == std::string::npos);
  CHECK_THAT(soft.ir, Contains("adj.mul %arg1, %"));
}

TEST_CASE("layer_norm, gelu and linear", "[api][composites]") {
  Built ln = build({f32({2, 8}), f32({8}), f32({8})}, [](Module &, Args a) {
    return layer_norm(a[0], a[1], a[2]);
  });
  CHECK(ln.type == "tensor<2x8xf32>");
  CHECK(ln.op == "adj.add");
  CHECK(count(ln.ir, "adj.reduce_mean") == 2);
  CHECK_THAT(ln.ir, Contains("adj.rsqrt"));
  CHECK_THAT(ln.ir, Contains("dense<9.99999974E-6> : tensor<f32>"));

  Built g = build({f32({5})}, [](Module &, Args a) { return gelu(a[0]); });
  CHECK(g.type == "tensor<5xf32>");
  CHECK_THAT(g.ir, Contains("adj.erf"));
  CHECK_THAT(g.ir, Contains("dense<0.707106769> : tensor<f32>"));
  CHECK(build({Type::scalar(DType::F64)}, [](Module &, Args a) {
          return gelu(a[0]);
        }).type == "tensor<f64>");

  Built lin = build({f32({4, 3}), f32({3, 2}), f32({2})}, [](Module &, Args a) {
    return linear(a[0], a[1], a[2]);
  });
  CHECK(lin.type == "tensor<4x2xf32>");
  CHECK(lin.op == "adj.add");
  CHECK_THAT(lin.ir, Contains("adj.matmul %arg0, %arg1"));
  CHECK(build({f32({4, 3}), f32({3, 2})}, [](Module &, Args a) {
          return linear(a[0], a[1]);
        }).op == "adj.matmul");
}

TEST_CASE("composites check their inputs first", "[api][composites]") {
  Module m;
  m.function("f", {i64({3}), f32({2, 3}), i64({3}), f32({3}), f32({4})},
             [&](Value ints, Value x, Value labels, Value v3, Value v4) {
               CHECK_THAT(errorOf([&] { softmax(ints); }),
                          Contains("softmax: the input must be a "
                                   "floating-point tensor"));
               CHECK_THAT(errorOf([&] { softmax(x, 2); }),
                          Contains("softmax: axis 2 is out of range for "
                                   "shape [2, 3]"));
               CHECK_THAT(errorOf([&] { log_softmax(x, -3); }),
                          Contains("log_softmax: axis -3"));
               CHECK_THAT(errorOf([&] { cross_entropy(x, labels); }),
                          Contains("cross_entropy: class indices must be an "
                                   "i32 or i64 tensor of shape [2]"));
               CHECK_THAT(errorOf([&] { cross_entropy(x, v3); }),
                          Contains("cross_entropy: target probabilities"));
               CHECK_THAT(errorOf([&] { layer_norm(x, v4, v3); }),
                          Contains("layer_norm: gamma must be tensor<3xf32>"));
               CHECK_THAT(errorOf([&] { gelu(ints); }), Contains("gelu"));
               CHECK_THAT(errorOf([&] { linear(x, v3, v3); }),
                          Contains("adj.matmul"));
               return x;
             });
  m.verify();
  // Nothing was built by the failing calls.
  CHECK(m.str().find("adj.reduce") == std::string::npos);
}
