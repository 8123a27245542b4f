//===- ConvolutionTest.cpp - conv2d and pooling against naive loops -------===//

#include "TestUtil.h"

#include <random>

using namespace adjoint;
using namespace adjoint::test;

static std::string nchw(int64_t a, int64_t b, int64_t c, int64_t d,
                        const std::string &e = "f64") {
  return "tensor<" + std::to_string(a) + "x" + std::to_string(b) + "x" +
         std::to_string(c) + "x" + std::to_string(d) + "x" + e + ">";
}

static Tensor random4(std::mt19937 &rng, std::vector<int64_t> shape) {
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<double> v(shape[0] * shape[1] * shape[2] * shape[3]);
  for (double &x : v)
    x = dist(rng);
  return f64(std::move(shape), v);
}

TEST_CASE("conv2d by hand") {
  Program p(R"(
    adj.func @f(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
      %0 = adj.conv2d %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>
      adj.return %0 : tensor<1x1x2x2xf32>
    })");
  requireClose(p.run("f", {f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
                           f32({1, 1, 2, 2}, {1, 0, 0, -1})}),
               DType::F32, {1, 1, 2, 2}, {-4, -4, -4, -4});
}

TEST_CASE("conv2d property: stride, padding, dilation, groups") {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int64_t> small(1, 3), pad(0, 2);
  for (int trial = 0; trial < 30; ++trial) {
    int64_t groups = small(rng), n = small(rng);
    int64_t c = groups * small(rng), o = groups * small(rng);
    int64_t kh = small(rng), kw = small(rng), sh = small(rng), sw = small(rng);
    int64_t dh = small(rng), dw = small(rng);
    int64_t pt = pad(rng), pb = pad(rng), pl = pad(rng), pr = pad(rng);
    int64_t h = dh * (kh - 1) + 1 + small(rng), w = dw * (kw - 1) + 1 + small(rng);
    int64_t oh = (h + pt + pb - dh * (kh - 1) - 1) / sh + 1;
    int64_t ow = (w + pl + pr - dw * (kw - 1) - 1) / sw + 1;
    int64_t cg = c / groups, og = o / groups;
    Tensor x = random4(rng, {n, c, h, w}), f = random4(rng, {o, cg, kh, kw});
    std::vector<double> xv = x.toDoubles(), fv = f.toDoubles(), want;
    for (int64_t b = 0; b < n; ++b)
      for (int64_t oc = 0; oc < o; ++oc)
        for (int64_t i = 0; i < oh; ++i)
          for (int64_t j = 0; j < ow; ++j) {
            double s = 0;
            int64_t g = oc / og;
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t u = 0; u < kh; ++u)
                for (int64_t v = 0; v < kw; ++v) {
                  int64_t y = i * sh - pt + u * dh, z = j * sw - pl + v * dw;
                  if (y < 0 || y >= h || z < 0 || z >= w)
                    continue;
                  s += xv[((b * c + g * cg + ci) * h + y) * w + z] *
                       fv[((oc * cg + ci) * kh + u) * kw + v];
                }
            want.push_back(s);
          }
    auto str = [](int64_t a, int64_t b) {
      return "[" + std::to_string(a) + ", " + std::to_string(b) + "]";
    };
    std::string src =
        "adj.func @f(%x: " + nchw(n, c, h, w) + ", %w: " + nchw(o, cg, kh, kw) +
        ") -> " + nchw(n, o, oh, ow) + " {\n %0 = adj.conv2d %x, %w stride = " +
        str(sh, sw) + " padding = [" + std::to_string(pt) + ", " +
        std::to_string(pb) + ", " + std::to_string(pl) + ", " +
        std::to_string(pr) + "] dilation = " + str(dh, dw) +
        " groups = " + std::to_string(groups) + " : " + nchw(n, c, h, w) +
        ", " + nchw(o, cg, kh, kw) + "\n adj.return %0 : " + nchw(n, o, oh, ow) +
        "\n}";
    INFO(src);
    Program p(src);
    requireClose(p.run("f", {x, f}), DType::F64, {n, o, oh, ow}, want, 1e-12);
  }
}

TEST_CASE("pooling property against naive loops") {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int64_t> small(1, 3), pad(0, 1);
  for (int trial = 0; trial < 30; ++trial) {
    int64_t n = small(rng), c = small(rng), kh = small(rng), kw = small(rng);
    int64_t sh = small(rng), sw = small(rng);
    int64_t pt = pad(rng), pb = pad(rng), pl = pad(rng), pr = pad(rng);
    int64_t h = kh + small(rng), w = kw + small(rng);
    int64_t oh = (h + pt + pb - kh) / sh + 1, ow = (w + pl + pr - kw) / sw + 1;
    Tensor x = random4(rng, {n, c, h, w});
    std::vector<double> xv = x.toDoubles(), maxWant, avgWant;
    for (int64_t pl_ = 0; pl_ < n * c; ++pl_)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double m = -INFINITY, s = 0;
          for (int64_t u = 0; u < kh; ++u)
            for (int64_t v = 0; v < kw; ++v) {
              int64_t y = i * sh - pt + u, z = j * sw - pl + v;
              if (y < 0 || y >= h || z < 0 || z >= w)
                continue;
              m = std::max(m, xv[(pl_ * h + y) * w + z]);
              s += xv[(pl_ * h + y) * w + z];
            }
          maxWant.push_back(m);
          avgWant.push_back(s / (kh * kw));
        }
    std::string attrs = " kernel = [" + std::to_string(kh) + ", " +
                        std::to_string(kw) + "] stride = [" +
                        std::to_string(sh) + ", " + std::to_string(sw) +
                        "] padding = [" + std::to_string(pt) + ", " +
                        std::to_string(pb) + ", " + std::to_string(pl) + ", " +
                        std::to_string(pr) + "] : " + nchw(n, c, h, w);
    std::string out = nchw(n, c, oh, ow);
    Program p("adj.func @f(%x: " + nchw(n, c, h, w) + ") -> (" + out + ", " +
              out + ") {\n %0 = adj.max_pool2d %x" + attrs +
              "\n %1 = adj.avg_pool2d %x" + attrs + "\n adj.return %0, %1 : " +
              out + ", " + out + "\n}");
    auto r = p.call("f", {x});
    requireClose(r[0].tensor(), DType::F64, {n, c, oh, ow}, maxWant);
    requireClose(r[1].tensor(), DType::F64, {n, c, oh, ow}, avgWant);
  }
}

TEST_CASE("max_pool2d pads with -inf, avg_pool2d counts the padding") {
  Program p(R"(
    adj.func @f(%x: tensor<1x1x2x2xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
      %0 = adj.max_pool2d %x kernel = [2, 2] stride = [1, 1] padding = [1, 0, 1, 0] : tensor<1x1x2x2xf32>
      %1 = adj.avg_pool2d %x kernel = [2, 2] stride = [1, 1] padding = [1, 0, 1, 0] : tensor<1x1x2x2xf32>
      adj.return %0, %1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
    })");
  auto r = p.call("f", {f32({1, 1, 2, 2}, {-1, -2, -3, -4})});
  requireClose(r[0].tensor(), DType::F32, {1, 1, 2, 2}, {-1, -1, -1, -1});
  requireClose(r[1].tensor(), DType::F32, {1, 1, 2, 2},
               {-0.25, -0.75, -1, -2.5});
}
