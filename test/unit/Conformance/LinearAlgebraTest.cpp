//===- LinearAlgebraTest.cpp - Decompositions on every target -------------===//
//
// cholesky, triangular_solve, lu, qr, eigh and svd compiled for every
// target present (LAPACK on the CPU, the matrix kernels of
// -adj-gpu-linear-algebra on GPUs) against the interpreter: every flag,
// tall and wide matrices, batches, sizes past one workgroup's items (so
// that work items loop), failures, and the gradients the AD rules build
// from them. Outputs that the op leaves to the implementation (a basis of
// a complement with more than one dimension) are compared through what is
// unique about them.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::conformance;

namespace {

/// shift times the identity, in `x`'s dtype and of its matrix size.
api::Value scaledIdentity(api::Module &m, api::Value x, double shift) {
  int64_t n = x.shape().back();
  std::vector<double> eye(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    eye[i * n + i] = shift;
  return api::constant(m, eye, {n, n}, x.dtype());
}

/// The orthogonal projector onto the span of `basis`'s columns (of its
/// rows): what is unique about a basis of a subspace (a complement that
/// svd completes).
api::Value columnProjector(api::Value basis) {
  return api::matmul(basis, api::transpose(basis, swapLast(basis.rank())));
}

api::Value rowProjector(api::Value basis) {
  return api::matmul(api::transpose(basis, swapLast(basis.rank())), basis);
}

/// x @ x^T + n I: symmetric positive definite, well conditioned.
api::Value spd(api::Module &m, api::Value x) {
  return api::matmul(x, api::transpose(x, swapLast(x.rank()))) +
         scaledIdentity(m, x, double(x.shape().back()));
}

/// Solves (l l^T) x = b for a lower-triangular l: two triangular solves.
api::Value choSolve(api::Value l, api::Value b) {
  api::TriangularSolveOptions lower;
  lower.lower = true;
  api::TriangularSolveOptions transposed = lower;
  transposed.transpose_a = true;
  return api::triangular_solve(l, api::triangular_solve(l, b, lower),
                               transposed);
}

} // namespace

TEST_CASE("linear algebra: every decomposition and flag, f32 and f64",
          "[conformance][linalg]") {
  for (DType dtype : {DType::F64, DType::F32}) {
    INFO("dtype " << static_cast<int>(dtype));
    // Every flag combination in f64; in f32 (the same kernels in another
    // type) the default flags, which keeps the suite's compile time down.
    bool everyFlag = dtype == DType::F64;
    auto flags = [&](std::initializer_list<bool> all) {
      return everyFlag ? std::vector<bool>(all)
                       : std::vector<bool>{*all.begin()};
    };
    api::Module m;
    m.function(
        "decompose",
        {tensor(dtype, {3, 4, 4}), tensor(dtype, {3, 4, 2}),
         tensor(dtype, {2, 6, 3}), tensor(dtype, {2, 3, 6})},
        [&](api::Value x, api::Value b, api::Value tall, api::Value wide) {
          api::Value a = spd(m, x);
          // Well conditioned and not triangular: the triangle a solve does
          // not read holds other numbers.
          api::Value dominant = x + scaledIdentity(m, x, 3.0);
          api::Values out{api::cholesky(a)};
          for (bool lower : flags({true, false}))
            for (bool transpose : flags({false, true}))
              for (bool unit : flags({false, true})) {
                api::TriangularSolveOptions left;
                left.lower = lower;
                left.transpose_a = transpose;
                left.unit_diagonal = unit;
                out.push_back(api::triangular_solve(dominant, b, left));
                api::TriangularSolveOptions right = left;
                right.left_side = false;
                out.push_back(api::triangular_solve(
                    dominant, api::transpose(b, {0, 2, 1}), right));
              }
          // A transposed operand: the wrapper's argument is a row-major
          // copy whatever the view.
          for (api::Value y : {x, api::transpose(x, {0, 2, 1}), tall, wide}) {
            auto [lu, pivots, perm] = api::lu(y);
            out.push_back(lu);
            out.push_back(pivots);
            out.push_back(perm);
          }
          for (bool full : flags({false, true}))
            for (api::Value y : {tall, wide}) {
              auto [q, r] = api::qr(y, full);
              out.push_back(q);
              out.push_back(r);
            }
          for (bool upper : flags({false, true})) {
            // Not symmetric: only the triangle eigh reads counts.
            auto [w, v] = api::eigh(a + x, upper);
            out.push_back(w);
            out.push_back(v);
          }
          for (api::Value y : {tall, wide}) {
            auto [u, s, vh] = api::svd(y);
            out.push_back(u);
            out.push_back(s);
            out.push_back(vh);
          }
          // Full: u of tall (and vh of wide) gain a complement of three
          // dimensions, whose basis is not unique: the first vectors and
          // the complement's projector are compared.
          auto [u, s, vh] = api::svd(tall, true);
          api::Value uc = api::slice(u, {0, 0, 3}, {2, 6, 6});
          out.push_back(api::slice(u, {0, 0, 0}, {2, 6, 3}));
          out.push_back(columnProjector(uc));
          out.push_back(vh);
          // A complement of many dimensions: u's first columns and the
          // complement's projector.
          api::Value longer =
              api::reshape(api::concat({tall, tall * 2.0, tall}, 2),
                           {2, 18, 3});
          auto [ul, sl, vhl] = api::svd(longer, true);
          api::Value ulc = api::slice(ul, {0, 0, 3}, {2, 18, 18});
          out.push_back(api::slice(ul, {0, 0, 0}, {2, 18, 3}));
          out.push_back(columnProjector(ulc));
          auto [uw, sw, vhw] = api::svd(wide, true);
          api::Value vc = api::slice(vhw, {0, 3, 0}, {2, 6, 6});
          out.push_back(uw);
          out.push_back(api::slice(vhw, {0, 0, 0}, {2, 3, 6}));
          out.push_back(rowProjector(vc));
          return out;
        });
    checkOnAllTargets(m, "decompose", 71);
  }
}

TEST_CASE("linear algebra: matrices larger than a workgroup",
          "[conformance][linalg]") {
  // 70 rows: past the 64 work items of the kernels' workgroups for this
  // size, and odd, so the Jacobi orderings have an idle player.
  api::Module m;
  m.function(
      "large",
      {tensor(DType::F64, {70, 70}), tensor(DType::F64, {70, 3}),
       tensor(DType::F64, {70, 33})},
      [&m](api::Value x, api::Value b, api::Value tall) {
        api::Value a = spd(m, x) * (1.0 / 70.0);
        api::Value l = api::cholesky(a);
        api::Values out{l, choSolve(l, b)};
        auto [lu, pivots, perm] = api::lu(x);
        out.push_back(lu);
        out.push_back(perm);
        auto [q, r] = api::qr(tall);
        out.push_back(q);
        out.push_back(r);
        auto [w, v] = api::eigh(a + x * 0.05);
        out.push_back(w);
        out.push_back(v);
        auto [u, s, vh] = api::svd(tall);
        out.push_back(u);
        out.push_back(s);
        out.push_back(vh);
        return out;
      });
  checkOnAllTargets(m, "large", 73);
}

TEST_CASE("linear algebra: failures, 1x1, empty batches and values only",
          "[conformance][linalg]") {
  api::Module m;
  m.function("edges",
             {tensor(DType::F64, {2, 3, 3}), tensor(DType::F32, {1, 1}),
              tensor(DType::F32, {5, 5}), tensor(DType::F64, {0, 3, 3})},
             [&m](api::Value x, api::Value one, api::Value square,
                  api::Value empty) {
               api::Value a = spd(m, x);
               // -a is not positive definite: NaNs.
               api::Values out{api::cholesky(-a), api::cholesky(one * one)};
               auto [w, v] = api::eigh(one);
               out.push_back(w);
               out.push_back(v);
               auto [u, s, vh] = api::svd(one);
               out.push_back(u);
               out.push_back(s);
               out.push_back(vh);
               // A singular matrix: row 4 = 2 row 0 + row 1, so a zero
               // singular value whose vectors span a complement of one
               // dimension (unique up to the sign the op fixes), and a
               // zero pivot.
               api::Value singular = api::concat(
                   {api::slice(square, {0, 0}, {4, 5}),
                    api::slice(square, {0, 0}, {1, 5}) * 2.0 +
                        api::slice(square, {1, 0}, {2, 5})},
                   0);
               auto [lu, pivots, perm] = api::lu(singular);
               out.push_back(perm);
               auto [us, ss, vhs] = api::svd(singular);
               out.push_back(us);
               out.push_back(ss);
               // The sign pairing of u's column and vh's row means
               // nothing for a zero singular value: vh's row goes in as
               // its projector.
               api::Value nullRow = api::slice(vhs, {4, 0}, {5, 5});
               out.push_back(api::slice(vhs, {0, 0}, {4, 5}));
               out.push_back(rowProjector(nullRow));
               auto [le, pe, qe] = api::lu(empty);
               out.push_back(le);
               out.push_back(qe);
               auto [ue, se, vhe] = api::svd(empty);
               out.push_back(se);
               // Magnitudes whose squares overflow or underflow f32: the
               // kernels scale first, as Eigen and LAPACK do.
               for (double scale : {1e20, 1e-25}) {
                 auto [ub, sb, vhb] = api::svd(square * scale);
                 out.push_back(ub);
                 out.push_back(sb);
                 out.push_back(vhb);
               }
               // NaNs: every value and vector NaN, as LAPACK's refusal.
               api::Value nan = (x - x) / (x - x);
               auto [wn, vn] = api::eigh(nan);
               out.push_back(wn);
               out.push_back(vn);
               auto [un, sn, vhn] = api::svd(nan);
               out.push_back(un);
               out.push_back(sn);
               out.push_back(vhn);
               // Only the values used: the kernels skip the vectors.
               auto [unused, values, unusedToo] = api::svd(x, true);
               out.push_back(values);
               auto [eigenvalues, unusedVectors] = api::eigh(a, true);
               out.push_back(eigenvalues);
               return out;
             });
  checkOnAllTargets(m, "edges", 79);
}

TEST_CASE("linear algebra: gradients through the decompositions",
          "[conformance][linalg][gradients]") {
  api::Module m;
  m.function("loss", {tensor(DType::F64, {4, 4}), tensor(DType::F64, {4, 2})},
             [&m](api::Value x, api::Value b) {
               api::Value a = spd(m, x);
               api::Value l = api::cholesky(a);
               auto [w, v] = api::eigh(a);
               auto [u, s, vh] = api::svd(x + scaledIdentity(m, x, 2.0));
               auto [q, r] = api::qr(x);
               return api::sum(choSolve(l, b)) + api::sum(w * w) +
                      api::sum(s) + api::sum(api::abs(r) * 0.5) +
                      api::sum(api::matmul(v, b) * api::matmul(v, b));
             });
  defineGradOfLoss(m,
                   {tensor(DType::F64, {4, 4}), tensor(DType::F64, {4, 2})});
  checkOnAllTargets(m, "grad", 83);
}
