//===- LinearAlgebraTest.cpp - Compiled decompositions on LAPACK ----------===//
//
// The CPU lowering of cholesky, triangular_solve, lu, qr, eigh and svd
// (calls of the runtime's LAPACK kernels) against the reference
// interpreter, an independent implementation on Eigen whose results
// tests/unit/Interpreter/LinearAlgebraTest.cpp checks against the defining
// identities. Both must agree exactly in their conventions: pivots and the
// permutation, the signs of Householder reflectors, ascending eigenvalues,
// descending singular values and the sign of eigen- and singular vectors.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

using namespace adjoint;
using namespace adjoint::test;

namespace {

/// n I, shift * identity in `x`'s dtype.
api::Value scaledIdentity(api::Module &m, api::Value x, double shift) {
  int64_t n = x.shape().back();
  std::vector<double> eye(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    eye[i * n + i] = shift;
  return api::constant(m, eye, {n, n}, x.dtype());
}

/// x @ x^T + n I: symmetric positive definite, well conditioned.
api::Value spd(api::Module &m, api::Value x) {
  int64_t rank = x.rank();
  std::vector<int64_t> perm;
  for (int64_t i = 0; i + 2 < rank; ++i)
    perm.push_back(i);
  perm.push_back(rank - 1);
  perm.push_back(rank - 2);
  return api::matmul(x, api::transpose(x, perm)) +
         scaledIdentity(m, x, double(x.shape().back()));
}

} // namespace

TEST_CASE("compiled decompositions match the interpreter, f32 and f64") {
  for (DType dtype : {DType::F64, DType::F32}) {
    INFO("dtype " << static_cast<int>(dtype));
    api::Module m;
    m.function(
        "f",
        {tensorType(dtype, {3, 4, 4}), tensorType(dtype, {3, 4, 2}),
         tensorType(dtype, {3, 5, 3}), tensorType(dtype, {3, 3, 5})},
        [&m](api::Value x, api::Value b, api::Value tall, api::Value wide) {
          api::Value a = spd(m, x), l = api::cholesky(a);
          // Well conditioned, and not triangular: the triangle a solve
          // does not read holds other numbers.
          api::Value dominant = x + scaledIdentity(m, x, 2.0);
          api::Values out{l};
          for (bool lower : {true, false})
            for (bool transpose : {false, true}) {
              api::TriangularSolveOptions options;
              options.lower = lower;
              options.transpose_a = transpose;
              out.push_back(api::triangular_solve(dominant, b, options));
            }
          api::TriangularSolveOptions right;
          right.left_side = false;
          right.unit_diagonal = true;
          out.push_back(
              api::triangular_solve(dominant, api::transpose(b, {0, 2, 1}),
                                    right));
          // A transposed operand: the wrapper's argument is a copy in
          // row-major order whatever the view.
          auto [lu, pivots, perm] = api::lu(api::transpose(x, {0, 2, 1}));
          out.push_back(lu);
          out.push_back(pivots);
          out.push_back(perm);
          auto [lt, pt, qt] = api::lu(tall);
          out.push_back(lt);
          out.push_back(pt);
          out.push_back(qt);
          for (bool full : {false, true}) {
            auto [q, r] = api::qr(tall, full);
            out.push_back(q);
            out.push_back(r);
            auto [qw, rw] = api::qr(wide, full);
            out.push_back(qw);
            out.push_back(rw);
          }
          for (bool upper : {false, true}) {
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
          // Beyond k = 3 a full u (of tall) and vh (of wide) span the
          // complement of the others, whose basis is not unique when it
          // has two dimensions: the first k vectors and the complement's
          // projector are compared.
          auto [u, s, vh] = api::svd(tall, true);
          api::Value uc = api::slice(u, {0, 0, 3}, {3, 5, 5});
          out.push_back(api::slice(u, {0, 0, 0}, {3, 5, 3}));
          out.push_back(api::matmul(uc, api::transpose(uc, {0, 2, 1})));
          out.push_back(vh);
          auto [uw, sw, vhw] = api::svd(wide, true);
          api::Value vc = api::slice(vhw, {0, 3, 0}, {3, 5, 5});
          out.push_back(uw);
          out.push_back(api::slice(vhw, {0, 0, 0}, {3, 3, 5}));
          out.push_back(api::matmul(api::transpose(vc, {0, 2, 1}), vc));
          return out;
        });
    compareWithInterpreter(m, "f",
                           {sampleInput(dtype, {3, 4, 4}, 1),
                            sampleInput(dtype, {3, 4, 2}, 2),
                            sampleInput(dtype, {3, 5, 3}, 3),
                            sampleInput(dtype, {3, 3, 5}, 4)});
  }
}

TEST_CASE("compiled decompositions: NaNs, 1x1, empty batches, values only") {
  api::Module m;
  m.function("f", {f64({2, 3, 3}), f32({1, 1}), f64({0, 3, 3})},
             [&m](api::Value x, api::Value one, api::Value empty) {
               api::Value a = spd(m, x);
               // -a is not positive definite: NaNs, as JAX gives.
               api::Values out{api::cholesky(-a), api::cholesky(one * one)};
               auto [w, v] = api::eigh(one);
               out.push_back(w);
               out.push_back(v);
               auto [u, s, vh] = api::svd(one);
               out.push_back(u);
               out.push_back(s);
               out.push_back(vh);
               auto [le, pe, qe] = api::lu(empty);
               out.push_back(le);
               out.push_back(qe);
               auto [ue, se, vhe] = api::svd(empty);
               out.push_back(se);
               // Only the singular values and eigenvalues are used: the
               // kernels skip the vectors.
               auto [unused, values, unusedToo] = api::svd(x, true);
               out.push_back(values);
               auto [eigenvalues, unusedVectors] = api::eigh(a, true);
               out.push_back(eigenvalues);
               return out;
             });
  auto outputs = compareWithInterpreter(
      m, "f",
      {sampleInput(DType::F64, {2, 3, 3}, 5), sampleInput(DType::F32, {1, 1}, 6),
       sampleInput(DType::F64, {0, 3, 3}, 7)});
  REQUIRE(std::isnan(outputs[0].at(0)));
}
