//===- RulesTestConvolution.cpp - Rules of conv2d and pooling -------------===//
//
// The windows below exercise every branch of the transposed convolution:
// strides that leave input rows unread, asymmetric padding, padding wider
// than the dilated window (the sensitivity is cropped), dilation and
// groups; pools have overlapping windows.
//
//===----------------------------------------------------------------------===//

#include "RulesTestUtil.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::test::rules;

namespace {

std::string list(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// Output size of a window op along one dimension.
int64_t outSize(int64_t size, int64_t k, int64_t s, int64_t d, int64_t lo,
                int64_t hi) {
  return (size + lo + hi - d * (k - 1) - 1) / s + 1;
}

struct Conv {
  std::vector<int64_t> x, w, stride = {1, 1}, padding = {0, 0, 0, 0},
                             dilation = {1, 1};
  int64_t groups = 1;

  std::string source() const {
    std::vector<int64_t> y = {
        x[0], w[0],
        outSize(x[2], w[2], stride[0], dilation[0], padding[0], padding[1]),
        outSize(x[3], w[3], stride[1], dilation[1], padding[2], padding[3])};
    return function("%x: " + f64(x) + ", %w: " + f64(w), f64(y),
                    "adj.conv2d %x, %w stride = " + list(stride) +
                        " padding = " + list(padding) +
                        " dilation = " + list(dilation) +
                        " groups = " + std::to_string(groups) + " : " +
                        f64(x) + ", " + f64(w));
  }
};

struct Pool {
  std::string op;
  std::vector<int64_t> x, kernel, stride, padding;

  std::string source() const {
    std::vector<int64_t> y = {
        x[0], x[1],
        outSize(x[2], kernel[0], stride[0], 1, padding[0], padding[1]),
        outSize(x[3], kernel[1], stride[1], 1, padding[2], padding[3])};
    return function("%x: " + f64(x), f64(y),
                    "adj." + op + " %x kernel = " + list(kernel) +
                        " stride = " + list(stride) +
                        " padding = " + list(padding) + " : " + f64(x));
  }
};

} // namespace

TEST_CASE("rules: conv2d padded with stride 1") {
  check({.source = Conv{.x = {2, 3, 5, 5},
                        .w = {4, 3, 3, 3},
                        .padding = {1, 1, 1, 1}}
                       .source()});
}

TEST_CASE("rules: conv2d with stride 2 and unread rows and columns") {
  // (7 + 1 - 3) % 2 and (6 + 3 - 2) % 2 are 1: the last row and column of
  // the padded input are never read.
  check({.source = Conv{.x = {1, 2, 7, 6},
                        .w = {3, 2, 3, 2},
                        .stride = {2, 2},
                        .padding = {1, 0, 2, 1}}
                       .source()});
  // Stride 3 over 9 rows with a 2-row kernel: row 8 is never read.
  check({.source = Conv{.x = {1, 1, 9, 9}, .w = {2, 1, 2, 2}, .stride = {3, 3}}
                       .source()});
}

TEST_CASE("rules: conv2d whose unread rows are not all padding") {
  // ResNet's strided 1x1 projection: the last row and column of x are never
  // read, and there is no padding to take them from (the filter gradient
  // crops x itself).
  check({.source = Conv{.x = {2, 2, 8, 8}, .w = {3, 2, 1, 1}, .stride = {2, 2}}
                       .source()});
  // The 7x7/2 stem padded by 3 on an even size: one padding row unread.
  check({.source = Conv{.x = {1, 2, 10, 10},
                        .w = {2, 2, 7, 7},
                        .stride = {2, 2},
                        .padding = {3, 3, 3, 3}}
                       .source()});
}

TEST_CASE("rules: conv2d with dilation 2") {
  check({.source = Conv{.x = {1, 2, 7, 7},
                        .w = {2, 2, 2, 3},
                        .dilation = {2, 2}}
                       .source()});
}

TEST_CASE("rules: conv2d with groups and stride and padding and dilation") {
  check({.source = Conv{.x = {2, 4, 5, 5},
                        .w = {6, 2, 3, 3},
                        .stride = {2, 1},
                        .padding = {1, 1, 0, 2},
                        .dilation = {1, 2},
                        .groups = 2}
                       .source()});
  // Depthwise: groups = channels.
  check({.source = Conv{.x = {1, 3, 4, 4},
                        .w = {3, 1, 2, 2},
                        .padding = {0, 1, 1, 0},
                        .groups = 3}
                       .source()});
}

TEST_CASE("rules: conv2d with padding wider than the window") {
  // A 1x1 kernel padded by 2: the transposed convolution crops.
  check({.source = Conv{.x = {1, 2, 3, 3},
                        .w = {2, 2, 1, 1},
                        .stride = {2, 1},
                        .padding = {2, 1, 1, 2}}
                       .source()});
}

TEST_CASE("rules: avg_pool2d") {
  // Overlapping 3x3 windows, zero padding counted.
  check({.source = Pool{"avg_pool2d", {2, 3, 5, 5}, {3, 3}, {1, 1},
                        {1, 1, 1, 1}}
                       .source()});
  // Stride 2 leaving a row unread, asymmetric padding.
  check({.source = Pool{"avg_pool2d", {1, 2, 6, 5}, {2, 3}, {2, 1},
                        {0, 1, 1, 0}}
                       .source()});
}

TEST_CASE("rules: max_pool2d") {
  check({.source = Pool{"max_pool2d", {2, 2, 5, 5}, {3, 3}, {1, 1},
                        {1, 1, 1, 1}}
                       .source()});
  check({.source = Pool{"max_pool2d", {1, 2, 5, 6}, {2, 2}, {2, 2},
                        {0, 0, 0, 0}}
                       .source()});
  check({.source = Pool{"max_pool2d", {1, 1, 6, 5}, {3, 2}, {2, 1},
                        {1, 0, 0, 1}}
                       .source()});
  // ResNet's 3x3/2 pool padded by 1 on an even size; stride 3 over a
  // 2-wide window leaves a phase that no window element reaches.
  check({.source = Pool{"max_pool2d", {2, 2, 8, 8}, {3, 3}, {2, 2},
                        {1, 1, 1, 1}}
                       .source()});
  check({.source = Pool{"max_pool2d", {1, 2, 8, 7}, {2, 2}, {3, 3},
                        {0, 1, 1, 0}}
                       .source()});
}

TEST_CASE("rules: conv2d and pooling chained") {
  check({.source = R"(
    adj.func @f(%x: tensor<1x2x6x6xf64>, %w: tensor<2x2x3x3xf64>) -> tensor<1x2x2x2xf64> {
      %c = adj.conv2d %x, %w stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : tensor<1x2x6x6xf64>, tensor<2x2x3x3xf64>
      %t = adj.tanh %c : tensor<1x2x6x6xf64>
      %m = adj.max_pool2d %t kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x6x6xf64>
      %0 = adj.avg_pool2d %m kernel = [2, 2] stride = [1, 1] padding = [0, 0, 0, 0] : tensor<1x2x3x3xf64>
      adj.return %0 : tensor<1x2x2x2xf64>
    })"});
}
