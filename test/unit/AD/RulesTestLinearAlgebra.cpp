//===- RulesTestLinearAlgebra.cpp - Rules of the decompositions -----------===//
//
// cholesky, triangular_solve and eigh against central finite differences,
// both modes and second order, batched. Their operands are shifted to be
// well conditioned (diagonally dominant, eigenvalues apart), so that the
// finite differences are accurate. cholesky and eigh read one triangle but,
// as JAX's, take the tangent of the whole operand: they are checked on a
// symmetrized input, x + x^T, where both agree with finite differences.
//
//===----------------------------------------------------------------------===//

#include "RulesTestUtil.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::test::rules;

namespace {

/// A constant [2, 3, 3] f64 batch of diag(d0, d1, d2).
std::string shift(double d0, double d1, double d2) {
  auto row = [](double a, double b, double c) {
    return "[" + std::to_string(a) + ", " + std::to_string(b) + ", " +
           std::to_string(c) + "]";
  };
  std::string m = "[" + row(d0, 0, 0) + ", " + row(0, d1, 0) + ", " +
                  row(0, 0, d2) + "]";
  return "adj.constant dense<[" + m + ", " + m + "]> : " + f64({2, 3, 3});
}

/// `%a = x + x^T + shift` for [2, 3, 3] `t`.
std::string symmetrized(const std::string &t, const std::string &shifted) {
  return "  %xt = adj.transpose %x perm = [0, 2, 1] : " + t + "\n"
         "  %y = adj.add %x, %xt : " + t + ", " + t + "\n"
         "  %s = " + shifted + "\n"
         "  %a = adj.add %y, %s : " + t + ", " + t + "\n";
}

} // namespace

TEST_CASE("rules: cholesky") {
  std::string t = f64({2, 3, 3});
  check({.source = "adj.func @f(%x: " + t + ") -> " + t + " {\n" +
                   symmetrized(t, shift(8, 8, 8)) +
                   "  %l = adj.cholesky %a : " + t + "\n"
                   "  adj.return %l : " + t + "\n}\n"});
}

TEST_CASE("rules: triangular_solve, every side, triangle and flag") {
  std::string a = f64({2, 3, 3}), left = f64({2, 3, 2}), right = f64({2, 2, 3});
  for (std::string flags : {"left_side lower", "left_side",
                            "left_side lower transpose_a",
                            "left_side transpose_a unit_diagonal", "lower",
                            "transpose_a", "lower transpose_a unit_diagonal"}) {
    bool isLeft = flags.find("left_side") != std::string::npos;
    std::string b = isLeft ? left : right;
    INFO(flags);
    check({.source = "adj.func @f(%x: " + a + ", %b: " + b + ") -> " + b +
                     " {\n  %s = " + shift(4, 4, 4) + "\n"
                     "  %a = adj.add %x, %s : " + a + ", " + a + "\n"
                     "  %r = adj.triangular_solve %a, %b " + flags + " : " +
                     a + ", " + b + "\n  adj.return %r : " + b + "\n}\n"});
  }
}

TEST_CASE("rules: eigh, lower and upper") {
  std::string t = f64({2, 3, 3}), w = f64({2, 3});
  for (std::string upper : {"", " upper"})
    check({.source = "adj.func @f(%x: " + t + ") -> (" + w + ", " + t +
                     ") {\n" + symmetrized(t, shift(0, 6, 12)) +
                     "  %w, %v = adj.eigh %a" + upper + " : " + t + "\n"
                     "  adj.return %w, %v : " + w + ", " + t + "\n}\n"});
}

TEST_CASE("rules: lu of a square matrix") {
  std::string t = f64({2, 3, 3});
  check({.source = "adj.func @f(%x: " + t + ") -> " + t + " {\n"
                   "  %s = " + shift(4, 4, 4) + "\n"
                   "  %a = adj.add %x, %s : " + t + ", " + t + "\n"
                   "  %lu, %p, %q = adj.lu %a : " + t + "\n"
                   "  adj.return %lu : " + t + "\n}\n"});
}

TEST_CASE("rules: qr, tall and square") {
  for (auto [m, n] : {std::pair<int64_t, int64_t>{4, 3}, {3, 3}}) {
    std::string a = f64({2, m, n}), q = f64({2, m, n}), r = f64({2, n, n});
    check({.source = "adj.func @f(%a: " + a + ") -> (" + q + ", " + r +
                     ") {\n  %q, %r = adj.qr %a : " + a + "\n"
                     "  adj.return %q, %r : " + q + ", " + r + "\n}\n"});
  }
}

TEST_CASE("rules: svd, tall, wide and square") {
  for (auto [m, n] : {std::pair<int64_t, int64_t>{4, 2}, {2, 4}, {3, 3}}) {
    int64_t k = std::min(m, n);
    std::string a = f64({2, m, n}), u = f64({2, m, k}), s = f64({2, k}),
                vh = f64({2, k, n});
    check({.source = "adj.func @f(%a: " + a + ") -> (" + u + ", " + s + ", " +
                     vh + ") {\n  %u, %s, %vh = adj.svd %a : " + a + "\n"
                     "  adj.return %u, %s, %vh : " + u + ", " + s + ", " + vh +
                     "\n}\n"});
  }
}
