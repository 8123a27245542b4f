//===- ConformanceTensorTest.cpp - Gradients of tensor programs -----------===//
//
// Small but complete models built with the builder API in f64: an MLP with
// softmax cross-entropy, a convolution and pooling net, layer norm,
// multi-head attention, an LSTM unrolled in a loop, an embedding lookup with
// repeated indices, and broadcasting. Every parameter's gradient is compared
// with finite differences.
//
//===----------------------------------------------------------------------===//

#include "GradCheck.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::test;

TEST_CASE("an MLP with softmax cross-entropy", "[ad][conformance][tensor]") {
  Module m;
  Function loss = m.function(
      "loss", {F64({4, 5}), F64({5, 6}), F64({6}), F64({6, 3}), F64({3}),
               I64({4})},
      [&](Value x, Value w1, Value b1, Value w2, Value b2, Value labels) {
        Value h = gelu(linear(x, w1, b1));
        Value h2 = tanh(h) + h * 0.1;
        Value logits = linear(h2, w2, b2);
        return cross_entropy(logits, labels) + sum(softmax(logits) * logits);
      });
  gradDriver(m, loss, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({4, 5}),      gc.random({5, 6}),
                  gc.random({6}, -.1, .1), gc.random({6, 3}),
                  gc.random({3}, -.1, .1), i64({4}, {2, 0, 1, 2})};
  CHECK_GRAD(gc.grad("main", "loss", args));
}

TEST_CASE("an MLP with one-hot labels and log_softmax",
          "[ad][conformance][tensor]") {
  Module m;
  Function loss = m.function(
      "loss", {F64({3, 4}), F64({4, 2}), F64({3, 2})},
      [&](Value x, Value w, Value onehot) {
        Value logits = matmul(sigmoid(x), w);
        return cross_entropy(logits, onehot) +
               sum(log_softmax(logits, 0)) * 0.01;
      });
  gradDriver(m, loss, "main", {.wrt = std::vector<int64_t>{0, 1}});
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({3, 4}), gc.random({4, 2}),
                  f64({3, 2}, {1, 0, 0, 1, 1, 0})};
  CHECK_GRAD(gc.grad("main", "loss", args, {.wrt = std::vector<int64_t>{0, 1}}));
}

TEST_CASE("a convolution and pooling net", "[ad][conformance][tensor]") {
  Module m;
  Function net = m.function(
      "net", {F64({2, 2, 6, 6}), F64({3, 2, 3, 3}), F64({3, 2, 2, 2}),
              F64({2, 1, 2, 2})},
      [&](Value x, Value w1, Value w2, Value w3) {
        // Stride 2 with symmetric padding, then a 2x2 max pool, stride 1.
        Value y1 = tanh(conv2d(x, w1, {.stride = {2, 2},
                                       .padding = {1, 1, 1, 1}}));
        Value p1 = max_pool2d(y1, {2, 2}, {1, 1});
        // Asymmetric padding; overlapping average and max pools with
        // padding.
        Value y2 = conv2d(x, w2, {.padding = {1, 0, 0, 1}});
        Value p2 = avg_pool2d(y2, {3, 3}, {2, 2}, {1, 1, 1, 1});
        Value p3 = max_pool2d(y2, {2, 2}, {2, 2}, {1, 1, 1, 1});
        // Dilation and groups.
        Value y3 = conv2d(x, w3, {.dilation = {2, 2}, .groups = 2});
        return sum(p1 * p1) + sum(p2 * y1) + sum(sin(p3)) + sum(y3 * y3);
      });
  gradDriver(m, net, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({2, 2, 6, 6}), gc.random({3, 2, 3, 3}),
                  gc.random({3, 2, 2, 2}), gc.random({2, 1, 2, 2})};
  CHECK_GRAD(gc.grad("main", "net", args));
}

TEST_CASE("layer norm", "[ad][conformance][tensor]") {
  Module m;
  Function f = m.function("f", {F64({3, 5}), F64({5}), F64({5})},
                          [&](Value x, Value gamma, Value beta) {
                            Value y = layer_norm(x, gamma, beta, 1e-5);
                            return sum(sin(y) * x);
                          });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f",
                     {gc.random({3, 5}, -2, 2), gc.random({5}, 0.5, 1.5),
                      gc.random({5})}));
}

TEST_CASE("a multi-head attention block", "[ad][conformance][tensor]") {
  // Two heads of width 4 over a sequence of 4 tokens of width 8.
  const int64_t seq = 4, model = 8, heads = 2, width = 4;
  Module m;
  Function block = m.function(
      "block", {F64({seq, model}), F64({model, model}), F64({model, model}),
                F64({model, model}), F64({model, model})},
      [&](Value x, Value wq, Value wk, Value wv, Value wo) {
        auto split = [&](Value t) { // [seq, model] -> [heads, seq, width]
          return transpose(reshape(t, {seq, heads, width}), {1, 0, 2});
        };
        Value q = split(matmul(x, wq));
        Value k = split(matmul(x, wk));
        Value v = split(matmul(x, wv));
        Value scores = matmul(q, transpose(k, {0, 2, 1})) / std::sqrt(4.0);
        Value attn = softmax(scores, -1);
        Value o = matmul(attn, v); // [heads, seq, width]
        Value merged = reshape(transpose(o, {1, 0, 2}), {seq, model});
        Value out = matmul(merged, wo) + x;
        return sum(tanh(out));
      });
  gradDriver(m, block, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({seq, model}), gc.random({model, model}),
                  gc.random({model, model}), gc.random({model, model}),
                  gc.random({model, model})};
  CHECK_GRAD(gc.grad("main", "block", args));
}

TEST_CASE("an LSTM cell unrolled in an adj.for loop",
          "[ad][conformance][tensor][loops]") {
  const int64_t steps = 3, in = 2, hidden = 3;
  Module m;
  Function lstm = m.function(
      "lstm", {F64({steps, 1, in}), F64({in, 4 * hidden}),
               F64({hidden, 4 * hidden}), F64({4 * hidden}), F64({1, hidden}),
               F64({1, hidden})},
      [&](Value xs, Value w, Value u, Value b, Value h0, Value c0) {
        Values hc = for_(
            0, steps, 1, {h0, c0}, [&](Value t, Value h, Value c) {
              Value xt = gather(xs, t, 0); // [1, in]
              Value z = matmul(xt, w) + matmul(h, u) + b;
              auto gate = [&](int64_t g) {
                return slice(z, {0, g * hidden}, {1, (g + 1) * hidden});
              };
              Value i = sigmoid(gate(0)), f = sigmoid(gate(1));
              Value g = tanh(gate(2)), o = sigmoid(gate(3));
              Value c2 = f * c + i * g;
              Value h2 = o * tanh(c2);
              return Values{h2, c2};
            });
        return sum(hc[0]) + sum(hc[1] * 0.5);
      });
  gradDriver(m, lstm, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValues args = {gc.random({steps, 1, in}), gc.random({in, 4 * hidden}),
                  gc.random({hidden, 4 * hidden}), gc.random({4 * hidden}),
                  gc.random({1, hidden}), gc.random({1, hidden})};
  CHECK_GRAD(gc.grad("main", "lstm", args));
}

TEST_CASE("an embedding lookup with repeated indices (scatter-add)",
          "[ad][conformance][tensor]") {
  Module m;
  Function embed = m.function(
      "embed", {F64({5, 3}), I64({6}), F64({6, 3})},
      [&](Value table, Value ids, Value w) {
        Value e = gather(table, ids, 0); // [6, 3]
        return sum(tanh(e) * w) + sum(e * e);
      });
  Function linearLookup = m.function(
      "lookup", {F64({5, 3}), I64({6}), F64({6, 3})},
      [&](Value table, Value ids, Value w) {
        return sum(gather(table, ids, 0) * w);
      });
  Function columns = m.function(
      "columns", {F64({3, 5}), I64({2, 2})}, [&](Value table, Value ids) {
        Value e = gather(table, ids, 1); // [3, 2, 2]
        return sum(e * e * e);
      });
  gradDriver(m, embed, "main");
  gradDriver(m, linearLookup, "lookup_grad", {.wrt = std::vector<int64_t>{0}});
  gradDriver(m, columns, "columns_grad");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  RValue ids = i64({6}, {1, 3, 1, 4, 1, 0});
  RValue w = gc.random({6, 3});
  CHECK_GRAD(gc.grad("main", "embed", {gc.random({5, 3}), ids, w}));
  CHECK_GRAD(gc.grad("columns_grad", "columns",
                     {gc.random({3, 5}), i64({2, 2}, {4, 4, 0, 4})}));
  // Row 1 is looked up three times: its gradient is the sum of three rows
  // of w; row 2 is never looked up.
  std::vector<RValue> g = gc.run("lookup_grad", {gc.random({5, 3}), ids, w});
  REQUIRE(g.size() == 1);
  std::vector<double> dt = g[0].tensor().toDoubles();
  std::vector<double> wd = w.tensor().toDoubles();
  for (int c = 0; c < 3; ++c) {
    CHECK(dt[3 * 1 + c] ==
          Approx(wd[3 * 0 + c] + wd[3 * 2 + c] + wd[3 * 4 + c]).epsilon(1e-14));
    CHECK(dt[3 * 2 + c] == 0.0);
    CHECK(dt[3 * 3 + c] == wd[3 * 1 + c]);
  }
}

TEST_CASE("broadcasting: bias add and scalar times tensor",
          "[ad][conformance][tensor][broadcast]") {
  Module m;
  Function f = m.function(
      "f", {F64({2, 3}), F64({3}), F64(), F64({2, 1}), F64({1, 3})},
      [&](Value x, Value bias, Value s, Value col, Value row) {
        Value a = tanh(x + bias) * s;       // [2,3] + [3], scalar * tensor
        Value b = x * col - bias / (s * s + 1.0);
        Value outer = col * row;            // [2,1] * [1,3] -> [2,3]
        return sum(a * b) + sum(outer * x) + sum(s * row) + sum(exp(col - s));
      });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f",
                     {gc.random({2, 3}), gc.random({3}), f64(0.8),
                      gc.random({2, 1}), gc.random({1, 3})}));
}

TEST_CASE("batched matmul with broadcast batch dimensions",
          "[ad][conformance][tensor][broadcast]") {
  Module m;
  Function f = m.function(
      "f", {F64({2, 3, 4}), F64({4, 5}), F64({1, 5, 2})},
      [&](Value a, Value b, Value c) {
        Value ab = matmul(a, b);   // [2,3,5]
        Value abc = matmul(ab, c); // [2,3,2] (c broadcast over the batch)
        return sum(sin(abc)) + sum(mean(ab, {0, 2}) * 0.3);
      });
  gradDriver(m, f, "main");
  GradCheck gc(m);
  REQUIRE_TRANSFORMED(gc);
  CHECK_GRAD(gc.grad("main", "f",
                     {gc.random({2, 3, 4}), gc.random({4, 5}),
                      gc.random({1, 5, 2})}));
}
