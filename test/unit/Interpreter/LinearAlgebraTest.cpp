//===- LinearAlgebraTest.cpp - The decompositions in the interpreter ------===//
//
// Each decomposition against its defining identities (l l^T = a, p a = l u,
// q^T q = 1 and q r = a, v diag(w) v^T = a, u diag(s) vh = a, residuals of
// triangular solves), in f32 and f64, batched; LAPACK's pivots and
// Householder signs; the sign convention of eigen- and singular vectors;
// NaNs for a matrix that is not positive definite.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <Eigen/Dense>

#include <limits>
#include <random>

using namespace adjoint;
using namespace adjoint::test;

namespace {

using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic,
                          Eigen::RowMajor>;

/// Matrix `i` of a batch of row-major matrices.
Mat matrix(const Tensor &t, int64_t i) {
  int64_t rows = t.shape()[t.rank() - 2], cols = t.shape().back();
  std::vector<double> v = t.toDoubles();
  return Eigen::Map<const Mat>(v.data() + i * rows * cols, rows, cols);
}

Eigen::VectorXd vectorAt(const Tensor &t, int64_t i) {
  int64_t n = t.shape().back();
  std::vector<double> v = t.toDoubles();
  return Eigen::Map<const Eigen::VectorXd>(v.data() + i * n, n);
}

std::vector<double> randomValues(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> out(n);
  for (double &x : out)
    x = normal(rng);
  return out;
}

/// Batches of well-conditioned symmetric positive definite matrices.
std::vector<double> spd(int64_t batch, int64_t n, uint32_t seed) {
  std::vector<double> out;
  std::vector<double> r = randomValues(batch * n * n, seed);
  for (int64_t b = 0; b < batch; ++b) {
    Mat m = Eigen::Map<Mat>(r.data() + b * n * n, n, n);
    Mat a = m * m.transpose() + double(n) * Mat::Identity(n, n);
    out.insert(out.end(), a.data(), a.data() + n * n);
  }
  return out;
}

std::string type(const std::vector<int64_t> &shape, const std::string &elt) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + elt + ">";
}

const char *kElements[] = {"f64", "f32"};

} // namespace

TEST_CASE("linear algebra: cholesky and triangular solves") {
  for (const char *elt : kElements) {
    DType dtype = std::string(elt) == "f64" ? DType::F64 : DType::F32;
    double tol = dtype == DType::F64 ? 1e-10 : 2e-4;
    std::string a = type({2, 4, 4}, elt), b = type({2, 4, 3}, elt),
                bt = type({2, 3, 4}, elt);
    std::string src = R"(
      adj.func @f(%a: TA, %b: TB, %c: TC) -> (TA, TB, TB, TC, TB) {
        %l = adj.cholesky %a : TA
        %x = adj.triangular_solve %l, %b left_side lower : TA, TB
        %y = adj.triangular_solve %l, %b left_side lower transpose_a : TA, TB
        %z = adj.triangular_solve %l, %c lower : TA, TC
        %u = adj.triangular_solve %l, %b left_side lower unit_diagonal : TA, TB
        adj.return %l, %x, %y, %z, %u : TA, TB, TB, TC, TB
      })";
    for (auto [key, value] : {std::pair{"TA", a}, {"TB", b}, {"TC", bt}})
      for (size_t at; (at = src.find(key)) != std::string::npos;)
        src.replace(at, 2, value);
    Program q(src);
    Tensor ta = tensor(dtype, {2, 4, 4}, spd(2, 4, 1));
    Tensor tb = tensor(dtype, {2, 4, 3}, randomValues(24, 2));
    Tensor tc = tensor(dtype, {2, 3, 4}, randomValues(24, 3));
    std::vector<RValue> r = q.call("f", {ta, tb, tc});
    for (int64_t i = 0; i < 2; ++i) {
      Mat l = matrix(r[0].tensor(), i), am = matrix(ta, i),
          bm = matrix(tb, i), cm = matrix(tc, i);
      CHECK((l * l.transpose() - am).norm() < tol * am.norm());
      CHECK(l.isLowerTriangular());
      CHECK((l * matrix(r[1].tensor(), i) - bm).norm() < tol * bm.norm());
      CHECK((l.transpose() * matrix(r[2].tensor(), i) - bm).norm() <
            tol * bm.norm());
      CHECK((matrix(r[3].tensor(), i) * l - cm).norm() < tol * cm.norm());
      Mat unit = l;
      unit.diagonal().setOnes();
      CHECK((unit * matrix(r[4].tensor(), i) - bm).norm() < tol * bm.norm());
    }
  }
}

TEST_CASE("linear algebra: cholesky of a matrix that is not positive "
          "definite is NaN") {
  Program p(R"(
    adj.func @f(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
      %l = adj.cholesky %a : tensor<2x2xf64>
      adj.return %l : tensor<2x2xf64>
    })");
  for (double x : p.run("f", {f64({2, 2}, {1, 2, 2, 1})}).toDoubles())
    CHECK(std::isnan(x));
  // A NaN pivot stops potrf too: all NaN, not the factor's first column
  // (a NaN below the diagonal reaches its row's pivot).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::vector<double> a : {std::vector<double>{4, 0, 2, nan},
                                std::vector<double>{4, 0, nan, 2}})
    for (double x : p.run("f", {f64({2, 2}, a)}).toDoubles())
      CHECK(std::isnan(x));
  // Only the lower triangle is read.
  requireClose(p.run("f", {f64({2, 2}, {4, 99, 2, 2})}), DType::F64, {2, 2},
               {2, 0, 1, 1});
  requireClose(p.run("f", {f64({2, 2}, {4, nan, 2, 2})}), DType::F64, {2, 2},
               {2, 0, 1, 1});
}

TEST_CASE("linear algebra: lu with LAPACK's pivots, square and rectangular") {
  Program p(R"(
    adj.func @f(%a: tensor<4x3xf64>) -> (tensor<4x3xf64>, tensor<3xi32>, tensor<4xi32>) {
      %lu, %p, %perm = adj.lu %a : tensor<4x3xf64>
      adj.return %lu, %p, %perm : tensor<4x3xf64>, tensor<3xi32>, tensor<4xi32>
    })");
  std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8, 10, 0, 1, 0};
  std::vector<RValue> r = p.call("f", {f64({4, 3}, a)});
  // scipy.linalg.lu_factor's pivots (0-based) for this matrix.
  CHECK(r[1].tensor().toDoubles() == std::vector<double>{2, 3, 2});
  CHECK(r[2].tensor().toDoubles() == std::vector<double>{2, 3, 0, 1});
  Mat lu = matrix(r[0].tensor(), 0);
  // l: the unit lower trapezoid; u: the upper triangle.
  Mat l = Mat::Identity(4, 3), u = Mat::Zero(3, 3);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      if (i > j)
        l(i, j) = lu(i, j);
      else if (i < 3)
        u(i, j) = lu(i, j);
    }
  Mat am = Eigen::Map<Mat>(a.data(), 4, 3), pa(4, 3);
  std::vector<double> perm = r[2].tensor().toDoubles();
  for (int i = 0; i < 4; ++i)
    pa.row(i) = am.row(int(perm[i]));
  CHECK((l * u - pa).norm() < 1e-12);

  // A singular matrix: a zero pivot, no error.
  Program q(R"(
    adj.func @f(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>) {
      %lu, %p, %perm = adj.lu %a : tensor<2x2xf32>
      adj.return %lu, %p, %perm : tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>
    })");
  std::vector<RValue> s = q.call("f", {f32({2, 2}, {1, 2, 2, 4})});
  CHECK(s[0].tensor().toDoubles() == std::vector<double>{2, 4, 0.5, 0});
}

TEST_CASE("linear algebra: qr reduced and complete, LAPACK's signs") {
  Program p(R"(
    adj.func @f(%a: tensor<4x3xf64>) -> (tensor<4x3xf64>, tensor<3x3xf64>, tensor<4x4xf64>, tensor<4x3xf64>) {
      %q, %r = adj.qr %a : tensor<4x3xf64>
      %fq, %fr = adj.qr %a full_matrices : tensor<4x3xf64>
      adj.return %q, %r, %fq, %fr : tensor<4x3xf64>, tensor<3x3xf64>, tensor<4x4xf64>, tensor<4x3xf64>
    })");
  std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8, 10, 0, 1, 0};
  std::vector<RValue> r = p.call("f", {f64({4, 3}, a)});
  Mat am = Eigen::Map<Mat>(a.data(), 4, 3);
  for (int full = 0; full < 2; ++full) {
    Mat q = matrix(r[2 * full].tensor(), 0), rm = matrix(r[2 * full + 1].tensor(), 0);
    CHECK((q.transpose() * q - Mat::Identity(q.cols(), q.cols())).norm() <
          1e-12);
    CHECK((q * rm - am).norm() < 1e-12);
    CHECK(rm.isUpperTriangular());
  }
  // numpy's (LAPACK's geqrf) R for this matrix: a negative diagonal.
  requireClose(r[1].tensor(), DType::F64, {3, 3},
               {-8.12403840463596, -9.601136296387953, -11.939874624995275, 0,
                1.3483997249264827, 1.0112997936948602, 0, 0,
                1.190238071423808});
}

TEST_CASE("linear algebra: eigh and svd reconstruct, ordered and signed") {
  for (const char *elt : kElements) {
    DType dtype = std::string(elt) == "f64" ? DType::F64 : DType::F32;
    double tol = dtype == DType::F64 ? 1e-10 : 2e-4;
    std::string src = R"(
      adj.func @f(%a: TA, %m: TM) -> (TW, TA, TA, TW2, TMM, TMF, TS, TNF) {
        %w, %v = adj.eigh %a : TA
        %wu, %vu = adj.eigh %a upper : TA
        %u, %s, %vh = adj.svd %m : TM
        %fu, %fs, %fvh = adj.svd %m full_matrices : TM
        adj.return %w, %v, %vu, %s, %u, %fu, %vh, %fvh : TW, TA, TA, TW2, TMM, TMF, TS, TNF
      })";
    std::vector<std::pair<std::string, std::string>> types = {
        {"TMM", type({2, 5, 3}, elt)}, {"TMF", type({2, 5, 5}, elt)},
        {"TNF", type({2, 3, 3}, elt)}, {"TW2", type({2, 3}, elt)},
        {"TA", type({2, 4, 4}, elt)},  {"TM", type({2, 5, 3}, elt)},
        {"TW", type({2, 4}, elt)},     {"TS", type({2, 3, 3}, elt)}};
    for (auto &[key, value] : types)
      for (size_t at; (at = src.find(key)) != std::string::npos;)
        src.replace(at, key.size(), value);
    Program p(src);
    Tensor ta = tensor(dtype, {2, 4, 4}, spd(2, 4, 7));
    Tensor tm = tensor(dtype, {2, 5, 3}, randomValues(30, 8));
    std::vector<RValue> r = p.call("f", {ta, tm});
    for (int64_t i = 0; i < 2; ++i) {
      Mat am = matrix(ta, i), mm = matrix(tm, i);
      Eigen::VectorXd w = vectorAt(r[0].tensor(), i);
      Mat v = matrix(r[1].tensor(), i);
      CHECK((v * w.asDiagonal() * v.transpose() - am).norm() <
            tol * am.norm());
      for (int j = 0; j + 1 < 4; ++j)
        CHECK(w(j) <= w(j + 1));
      // The upper triangle of a symmetric matrix gives the same vectors.
      CHECK((matrix(r[2].tensor(), i) - v).norm() < tol * 10);
      Eigen::VectorXd s = vectorAt(r[3].tensor(), i);
      Mat u = matrix(r[4].tensor(), i), vh = matrix(r[6].tensor(), i);
      CHECK((u * s.asDiagonal() * vh - mm).norm() < tol * mm.norm());
      for (int j = 0; j + 1 < 3; ++j)
        CHECK(s(j) >= s(j + 1));
      Mat fu = matrix(r[5].tensor(), i);
      CHECK((fu.transpose() * fu - Mat::Identity(5, 5)).norm() < tol * 10);
      CHECK((fu.leftCols(3) - u).norm() < tol * 10);
      // The sign convention: each vector's largest entry is positive.
      for (const Mat *vectors : {&v, &u, &fu})
        for (int j = 0; j < vectors->cols(); ++j) {
          Eigen::Index at;
          vectors->col(j).cwiseAbs().maxCoeff(&at);
          CHECK((*vectors)(at, j) > 0);
        }
    }
  }
}
