//===- ConformanceTest.cpp - Every target equals the interpreter ----------===//
//
// The programs that test a backend: every elementwise op and dtype,
// broadcasting, every reduction over every kind of axis (with the composite
// reductions of models: softmax, layer norm, cross-entropy), data movement,
// products and convolutions of awkward and of tile-sized shapes, host
// control flow, and gradients of the programs AD must handle (models,
// closures, higher-order functions, second derivatives). Each runs compiled
// on every target present (Targets.h) against the reference interpreter.
// Shapes are chosen to hit the tails of GPU tiles (odd sizes, 1s) as well
// as whole tiles.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::conformance;

namespace {

api::Type f32(Shape shape) { return tensor(DType::F32, std::move(shape)); }
api::Type f64(Shape shape) { return tensor(DType::F64, std::move(shape)); }

} // namespace

TEST_CASE("elementwise: every unary op in f32 and f64",
          "[conformance][elementwise]") {
  for (DType dtype : {DType::F32, DType::F64}) {
    api::Module m;
    m.function("unary", {tensor(dtype, {7, 33})}, [](api::Value x) {
      api::Value positive = api::abs(x) + 0.125;
      return api::Values{api::exp(x),     api::log(positive),
                         api::tanh(x),    api::sigmoid(x * 4.0),
                         api::relu(x),    api::sqrt(positive),
                         api::rsqrt(positive), api::abs(x),
                         api::sign(x),    api::sin(x * 3.0),
                         api::cos(x * 3.0), api::erf(x * 2.0),
                         -x,              api::gelu(x),
                         api::log1p(api::abs(x) - 0.75), api::expm1(x)};
    });
    checkOnAllTargets(m, "unary", 3, -2.0, 2.0);
  }
}

TEST_CASE("elementwise: binary ops, comparisons and select",
          "[conformance][elementwise]") {
  for (DType dtype : {DType::F32, DType::F64}) {
    api::Module m;
    m.function("binary", {tensor(dtype, {5, 19}), tensor(dtype, {5, 19})},
               [](api::Value a, api::Value b) {
                 api::Value positive = api::abs(a) + 0.5;
                 return api::Values{a + b,
                                    a - b,
                                    a * b,
                                    a / (api::abs(b) + 0.25),
                                    api::pow(positive, b),
                                    api::maximum(a, b),
                                    api::minimum(a, b),
                                    api::atan2(a, b),
                                    a < b,
                                    a <= b,
                                    a > b,
                                    a >= b,
                                    a == a,
                                    a != b,
                                    api::select(a > b, a * 2.0, b)};
               });
    checkOnAllTargets(m, "binary", 5);
  }
}

TEST_CASE("elementwise: integers, booleans and casts",
          "[conformance][elementwise]") {
  for (DType dtype : {DType::I32, DType::I64}) {
    api::Module m;
    m.function("ints", {tensor(dtype, {4, 9}), tensor(dtype, {4, 9})},
               [](api::Value a, api::Value b) {
                 return api::Values{a + b, a - b, a * b,
                                    api::maximum(a, b), api::minimum(a, b),
                                    api::abs(a), -a, a > b, a == b};
               });
    checkOnAllTargets(m, "ints", 2, -50.0, 50.0);
  }
  api::Module m;
  m.function("casts", {f32({3, 11}), tensor(DType::I1, {3, 11})},
             [](api::Value x, api::Value c) {
               api::Value scaled = x * 40.0;
               return api::Values{
                   api::cast(scaled, DType::I32),
                   api::cast(scaled, DType::I64),
                   api::cast(scaled, DType::F64),
                   api::cast(api::cast(scaled, DType::I32),
                             DType::F32),
                   api::cast(c, DType::F32),
                   api::cast(x > 0.0, DType::I32),
                   api::select(c, x, -x),
                   c == (x > 0.0)};
             });
  checkOnAllTargets(m, "casts", 9);
}

TEST_CASE("elementwise: half precision", "[conformance][elementwise]") {
  api::Module m;
  m.function("half", {tensor(DType::F16, {6, 10}), tensor(DType::F16, {10})},
             [](api::Value a, api::Value b) {
               return api::Values{a * b + a, api::maximum(a, b), a > b,
                                  api::cast(a, DType::F32),
                                  api::sum(a * b, 1)};
             });
  checkOnAllTargets(m, "half", 4);
}

TEST_CASE("broadcasting: bias, scalars, outer products and broadcast_to",
          "[conformance][broadcasting]") {
  api::Module m;
  m.function("bcast", {f32({6, 1}), f32({1, 9}), f32({9}), f32({})},
             [](api::Value col, api::Value row, api::Value bias,
                api::Value s) {
               api::Value outer = col * row;
               return api::Values{outer + bias, outer * s, s * bias - col,
                                  api::broadcast_to(bias, {2, 6, 9}),
                                  api::broadcast_to(col, {3, 6, 9}) + row};
             });
  checkOnAllTargets(m, "bcast", 7);
}

TEST_CASE("reductions: sum, max and mean over every kind of axis",
          "[conformance][reductions]") {
  // Rows short and long, columns, middle axes, everything; the sizes are
  // not multiples of any subgroup or tile.
  for (Shape shape : {Shape{37, 53}, Shape{3, 1000}, Shape{1000, 3},
                      Shape{1, 1}, Shape{64, 256}}) {
    api::Module m;
    m.function("reduce", {f32(shape)}, [](api::Value x) {
      return api::Values{api::sum(x, 1),  api::sum(x, 0),
                         api::max(x, 1),  api::max(x, 0),
                         api::mean(x, 1), api::mean(x, 0),
                         api::sum(x),     api::max(x),
                         api::sum(x * x + 1.0, 1, /*keepdims=*/true)};
    });
    INFO("shape " << shape[0] << "x" << shape[1]);
    checkOnAllTargets(m, "reduce", 11);
  }
  api::Module m;
  m.function("reduce3", {f32({5, 17, 7}), f64({4, 33, 9})},
             [](api::Value x, api::Value y) {
               return api::Values{api::sum(x, 1), api::max(x, {0, 2}),
                                  api::mean(x, {1, 2}), api::sum(y, 1),
                                  api::max(y, 2, true)};
             });
  checkOnAllTargets(m, "reduce3", 13);
  api::Module ints;
  ints.function("isum", {tensor(DType::I32, {9, 21}),
                         tensor(DType::I64, {21, 4})},
                [](api::Value a, api::Value b) {
                  return api::Values{api::sum(a, 1), api::max(a, 0),
                                     api::sum(b, 0), api::max(b)};
                });
  checkOnAllTargets(ints, "isum", 3, -100.0, 100.0);
}

TEST_CASE("reductions: softmax, log-softmax, layer norm, cross-entropy",
          "[conformance][reductions]") {
  api::Module m;
  m.function("composites",
             {f32({13, 70}), f32({13, 70}), f32({70}), f32({70})},
             [](api::Value x, api::Value labels, api::Value gamma,
                api::Value beta) {
               api::Value p = api::softmax(labels * 3.0);
               return api::Values{api::softmax(x * 5.0),
                                  api::log_softmax(x * 5.0, 0),
                                  api::layer_norm(x, gamma, beta),
                                  api::cross_entropy(x * 2.0, p)};
             });
  checkOnAllTargets(m, "composites", 17);
}

TEST_CASE("movement: transpose, reshape, slice, concat, pad, gather, scatter",
          "[conformance][movement]") {
  api::Module m;
  m.function(
      "move",
      {f32({4, 6, 5}), f32({9, 3}), tensor(DType::I64, {7})},
      [](api::Value x, api::Value table, api::Value raw) {
        // Indices in range whatever the sample: |raw| mod 9.
        api::Value idx = api::cast(
            api::abs(raw) - api::cast(api::cast(api::abs(raw), DType::F32) /
                                          9.0,
                                      DType::I64) *
                                9.0,
            DType::I64);
        api::Value rows = api::gather(table, idx);
        return api::Values{
            api::transpose(x, {2, 0, 1}),
            api::reshape(x, {6, 20}) * 2.0,
            api::slice(x, {1, 0, 1}, {4, 6, 5}, {2, 3, 2}),
            api::concat({x, x * 2.0}, 1),
            api::pad(x, {1, 0, 2}, {0, 3, 1}, -1.5),
            rows,
            api::scatter_add(table, idx, rows * 3.0),
            // A scalar element at an offset (x[1, 2, 3]) broadcast into an
            // elementwise op: a rank-0 view that SPIR-V once read at [0].
            x * api::reshape(api::slice(x, {1, 2, 3}, {2, 3, 4}), {}),
            api::reshape(api::slice(table, {4, 1}, {5, 2}), {})};
      });
  checkOnAllTargets(m, "move", 19, -20.0, 20.0);
}

TEST_CASE("indexing: scatter modes, index arrays, dynamic and reversed "
          "slices, and their gradients",
          "[conformance][movement][indexing]") {
  api::Module m;
  // Indices in range whatever the sample: |raw| mod 6, repeats included.
  auto inRange = [](api::Value raw) {
    api::Value a = api::abs(raw);
    return a - api::cast(api::cast(a, DType::F32) / 6.0, DType::I64) * 6.0;
  };
  m.function(
      "index", {f32({6, 5}), f32({4, 5}), tensor(DType::I64, {4}),
                tensor(DType::I64, {})},
      [&](api::Value x, api::Value u, api::Value raw, api::Value start) {
        api::Value idx = inRange(raw);
        api::Value col = idx - 5.0; // -5..0: negative columns wrap
        return api::Values{
            api::scatter(api::Scatter::Set, x, idx, u),
            api::scatter(api::Scatter::Mul, x, idx, u * 0.1),
            api::scatter(api::Scatter::Min, x, idx, u),
            api::scatter(api::Scatter::Max, x, idx, u),
            api::index(x, {idx, col}),
            api::index_update(api::Scatter::Add, x, {idx, col},
                              api::sum(u, 1) * 2.5),
            api::dynamic_slice(x, {start, start}, {3, 2}),
            api::dynamic_update_slice(x, api::slice(u, {0, 0}, {2, 3}),
                                      {start, start}),
            api::reverse(x, {0, 1})};
      });
  // The same forms differentiated: gathers, scatters and their winners.
  m.function("loss",
             {f32({6, 5}), f32({4, 5}), tensor(DType::I64, {4}),
              tensor(DType::I64, {})},
             [&](api::Value x, api::Value u, api::Value raw,
                 api::Value start) {
               api::Value idx = inRange(raw);
               api::Value y = api::scatter(api::Scatter::Set, x, idx, u);
               api::Value z =
                   api::scatter(api::Scatter::Max, y, idx, u * 0.5);
               api::Value w = api::dynamic_slice(z * z, {start, start},
                                                 {3, 2});
               return api::sum(w) + api::sum(api::reverse(z, {1}) * x);
             });
  m.function("dloss",
             {f32({6, 5}), f32({4, 5}), tensor(DType::I64, {4}),
              tensor(DType::I64, {})},
             [&](std::vector<api::Value> args) {
               api::ADOptions wrt;
               wrt.wrt = std::vector<int64_t>{0, 1};
               return api::call(api::grad(m.lookup("loss").ref(), wrt), args);
             });
  checkOnAllTargets(m, "index", 53, -20.0, 20.0);
  checkOnAllTargets(m, "dloss", 59, -20.0, 20.0);
}

TEST_CASE("contraction: matmul and batched matmul of every tile situation",
          "[conformance][contraction]") {
  // (m, k, n): degenerate, odd, one full tile, several tiles with tails.
  for (auto [mm, k, n] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1},
                          {37, 53, 29}, {64, 64, 64}, {128, 96, 160},
                          {3, 300, 5}}) {
    api::Module m;
    m.function("mm", {f32({mm, k}), f32({k, n}), f64({n, k})},
               [](api::Value a, api::Value b, api::Value c) {
                 api::Value ab = api::matmul(a, b);
                 return api::Values{ab, api::matmul(api::transpose(b), api::transpose(a)),
                                    api::matmul(api::cast(a, DType::F64),
                                                api::transpose(c))};
               });
    INFO("m=" << mm << " k=" << k << " n=" << n);
    checkOnAllTargets(m, "mm", 23);
  }
  api::Module m;
  m.function("bmm", {f32({2, 3, 17, 9}), f32({3, 9, 21}), f32({5, 8})},
             [](api::Value a, api::Value b, api::Value v) {
               return api::Values{api::matmul(a, b),
                                  api::matmul(v, api::transpose(v))};
             });
  checkOnAllTargets(m, "bmm", 29);
}

TEST_CASE("convolution and pooling", "[conformance][convolution]") {
  api::Module m;
  m.function("conv", {f32({2, 3, 13, 11}), f32({8, 3, 3, 3}),
                      f32({4, 2, 5, 5})},
             [](api::Value x, api::Value w, api::Value g) {
               api::Conv2DOptions strided;
               strided.stride = {2, 2};
               strided.padding = {1, 1, 0, 2};
               api::Conv2DOptions grouped;
               grouped.groups = 2;
               grouped.padding = {2, 2, 2, 2};
               api::Value y = api::conv2d(x, w);
               return api::Values{
                   y, api::conv2d(x, w, strided),
                   api::conv2d(api::slice(y, {0, 0, 0, 0}, {2, 4, 11, 9}), g,
                               grouped),
                   api::max_pool2d(y, {2, 2}),
                   api::avg_pool2d(y, {3, 3}, {2, 2}, {1, 1, 1, 1}),
                   // Overlapping padded windows (a ResNet stem's pool).
                   api::max_pool2d(y, {3, 3}, {2, 2}, {1, 1, 1, 1})};
             });
  checkOnAllTargets(m, "conv", 31);
}

TEST_CASE("control flow on the host: if, for and while on computed values",
          "[conformance][control]") {
  api::Module m;
  m.function("control", {f32({8}), f32({})}, [](api::Value x, api::Value t) {
    api::Values branch = api::if_(
        api::sum(x) > t, [&] { return api::Values{x * 2.0, api::max(x)}; },
        [&] { return api::Values{x - 1.0, api::sum(x)}; });
    api::Values loop = api::for_(0, 5, 1, {branch[0]},
                                 [](api::Value i, api::Value acc) {
                                   return api::Values{api::tanh(acc) + 0.5};
                                 });
    // Doubles until the norm passes 100: a data-dependent trip count.
    api::Values grow = api::while_(
        {x + 0.01},
        [](api::Value v) { return api::sum(v * v) < 100.0; },
        [](api::Value v) { return api::Values{v * 2.0}; });
    return api::Values{branch[0], branch[1], loop[0], grow[0]};
  });
  checkOnAllTargets(m, "control", {interp::Value(sample(DType::F32, {8}, 1)),
                                   interp::Value(interp::Tensor::scalar(
                                       DType::F32, 0.0))});
  checkOnAllTargets(m, "control", {interp::Value(sample(DType::F32, {8}, 2)),
                                   interp::Value(interp::Tensor::scalar(
                                       DType::F32, 100.0))});
}

TEST_CASE("gradients: an MLP and a convolutional net",
          "[conformance][gradients]") {
  api::Module m;
  m.function("mlp_loss",
             {f32({16, 10}), f32({10, 32}), f32({32}), f32({32, 4}),
              f32({16, 4})},
             [](api::Value x, api::Value w1, api::Value b1, api::Value w2,
                api::Value y) {
               api::Value logits =
                   api::matmul(api::relu(api::linear(x, w1, b1)), w2);
               return api::cross_entropy(logits, api::softmax(y * 4.0));
             });
  m.function("mlp_step",
             {f32({16, 10}), f32({10, 32}), f32({32}), f32({32, 4}),
              f32({16, 4})},
             [&](std::vector<api::Value> args) {
               return api::call(
                   api::value_and_grad(m.lookup("mlp_loss").ref(),
                                       api::ADOptions{std::vector<int64_t>{
                                                          1, 2, 3},
                                                      false}),
                   args);
             });
  checkOnAllTargets(m, "mlp_step", 37);

  api::Module c;
  c.function("cnn_loss", {f32({2, 3, 9, 9}), f32({4, 3, 3, 3}), f32({16, 5})},
             [](api::Value x, api::Value w, api::Value v) {
               api::Value h = api::relu(api::conv2d(x, w));
               h = api::max_pool2d(h, {2, 2}, {2, 2}, {0, 1, 0, 1});
               api::Value flat = api::reshape(h, {2, 64});
               return api::mean(api::tanh(
                   api::matmul(api::slice(flat, {0, 0}, {2, 16}), v)));
             });
  c.function("cnn_grad", {f32({2, 3, 9, 9}), f32({4, 3, 3, 3}), f32({16, 5})},
             [&](std::vector<api::Value> args) {
               return api::call(api::grad(c.lookup("cnn_loss").ref(),
                                          api::ADOptions{
                                              std::vector<int64_t>{1, 2},
                                              false}),
                                args);
             });
  checkOnAllTargets(c, "cnn_grad", 41);

  // Strided, padded and grouped convolutions and a padded pooling: the
  // gradients read operands padded around (and windows of padded
  // buffers), which GPU kernels compute instead of reading padded copies.
  api::Module s;
  s.function("strided_loss",
             {f32({2, 4, 11, 9}), f32({6, 2, 3, 3}), f32({5, 6, 3, 2})},
             [](api::Value x, api::Value w, api::Value v) {
               api::Conv2DOptions strided;
               strided.stride = {2, 3};
               strided.padding = {1, 2, 0, 1};
               strided.groups = 2;
               api::Conv2DOptions padded;
               padded.padding = {1, 1, 1, 0};
               api::Value h = api::tanh(api::conv2d(x, w, strided));
               return api::sum(api::conv2d(h, v, padded) *
                               api::conv2d(h, v, padded)) +
                      api::sum(api::max_pool2d(h, {3, 3}, {2, 2},
                                               {1, 1, 1, 1}));
             });
  s.function("strided_grad",
             {f32({2, 4, 11, 9}), f32({6, 2, 3, 3}), f32({5, 6, 3, 2})},
             [&](std::vector<api::Value> args) {
               return api::call(api::grad(s.lookup("strided_loss").ref(),
                                          api::ADOptions{
                                              std::vector<int64_t>{0, 1, 2},
                                              false}),
                                args);
             });
  checkOnAllTargets(s, "strided_grad", 43);
}

TEST_CASE("gradients: closures, higher-order functions, grad of grad",
          "[conformance][gradients]") {
  api::Module m;
  // apply(f, x) = f(x); g(x, w) = apply(lambda y: tanh(y * w), x) summed,
  // with the closure capturing w: Myia's free-variable sensitivities.
  m.function("g", {f64({6}), f64({6})}, [&](api::Value x, api::Value w) {
    api::Value scale =
        api::lambda(m, {f64({6})}, [&](api::Value y) { return api::tanh(y * w); });
    api::Value twice = api::lambda(m, {f64({6})}, [&](api::Value y) {
      return api::call(scale, {api::call(scale, {y})[0]})[0];
    });
    return api::sum(api::call(twice, {x})[0] * x);
  });
  m.function("dg", {f64({6}), f64({6})}, [&](std::vector<api::Value> args) {
    return api::call(api::grad(m.lookup("g").ref()), args);
  });
  // Second derivative of a scalar function: d/dx (d/dx x^3 sin x).
  m.function("h", {f64({})},
             [](api::Value x) { return x * x * x * api::sin(x); });
  m.function("dh", {f64({})}, [&](api::Value x) {
    return api::call(api::grad(m.lookup("h").ref()), {x})[0];
  });
  m.function("ddh", {f64({})}, [&](api::Value x) {
    return api::call(api::grad(m.lookup("dh").ref()), {x});
  });
  checkOnAllTargets(m, "dg", 43);
  checkOnAllTargets(m, "ddh", 47);
}

TEST_CASE("gradients: backpropagators kept in boxes (a loop, recursion)",
          "[conformance][gradients][closures]") {
  api::Module m;
  // A recurrent cell run for a trip count given at run time: the loop is
  // not unrolled, so the forward pass boxes each trip's backpropagator in
  // the closure runtime and the backward pass calls them in reverse, as
  // the LSTM workload does. On a GPU the boxed tensors are device memory.
  m.function("rnn", {f32({5, 5}), f32({1, 5}), tensor(DType::I64, {})},
             [&](api::Value w, api::Value h0, api::Value n) {
               api::Value zero = api::scalar(m, 0, DType::I64);
               api::Value one = api::scalar(m, 1, DType::I64);
               api::Values h = api::for_(
                   zero, n, one, {h0}, [&](api::Value, api::Value h) {
                     return api::Values{api::tanh(api::matmul(h, w) + h0)};
                   });
               return api::sum(h[0] * h[0]);
             });
  m.function("drnn", {f32({5, 5}), f32({1, 5}), tensor(DType::I64, {})},
             [&](std::vector<api::Value> args) {
               return api::call(api::grad(m.lookup("rnn").ref()), args);
             });
  for (double trips : {4.0, 1.0, 0.0})
    checkOnAllTargets(m, "drnn",
                      {interp::Value(sample(DType::F32, {5, 5}, 51, -0.5, 0.5)),
                       interp::Value(sample(DType::F32, {1, 5}, 52)),
                       interp::Value(interp::Tensor::scalar(DType::I64,
                                                            trips))});

  // Recursion on tensors: halve(x) = sum|x| < 1 ? x * x
  //                                             : sin(halve(x / 2)) + x,
  // whose depth depends on the values; the recursive calls' backpropagators
  // and the sensitivities of their environments go through the runtime.
  api::Function halve = m.declare("halve", {f32({3})}, {f32({3})});
  halve.define([&](api::Value x) {
    return api::if_(
        api::sum(api::abs(x)) < 1.0, [&] { return api::Values{x * x}; },
        [&] {
          api::Value r = halve(x / 2.0)[0];
          return api::Values{api::sin(r) + x};
        })[0];
  });
  m.function("dhalve", {f32({3})}, [&](api::Value x) {
    return api::call(api::grad(halve.ref()), {x});
  });
  checkOnAllTargets(m, "dhalve", 53, -4.0, 4.0);
  checkOnAllTargets(m, "dhalve", 54, -0.3, 0.3);
}
