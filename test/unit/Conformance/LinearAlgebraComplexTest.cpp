//===- LinearAlgebraComplexTest.cpp - Complex decompositions and eig ------===//
//
// cholesky, triangular_solve, lu, qr, eigh and svd of complex matrices
// (c64 and c128) compiled for every target present against the
// interpreter (Eigen's complex solvers): LAPACK's c and z routines on the
// CPU, a library (LAPACK on the host where the device's solver takes only
// real matrices) on GPUs, which have no complex kernels. Hermitian
// operands, eigenvalues and singular values real, the vectors' phases
// fixed by the ops' convention, and the gradients of a real loss through
// every decomposition (the conjugating rules); eig of real and complex
// matrices (LAPACK's geev against Eigen's solvers: sorted eigenvalues,
// unit eigenvectors with the ops' phase) and its eigenvalues' gradient.
// Complex results are compared through their parts.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::conformance;

namespace {

/// The conjugate transpose of the last two axes.
api::Value adjointOf(api::Value z) {
  return api::conj(api::transpose(z, swapLast(z.rank())));
}

/// z @ z^H + n I: Hermitian positive definite, well conditioned.
api::Value hpd(api::Module &m, api::Value z) {
  int64_t n = z.shape().back();
  std::vector<std::complex<double>> eye(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    eye[i * n + i] = double(n);
  return api::matmul(z, adjointOf(z)) +
         api::complex_constant(m, eye, {n, n}, z.dtype());
}

} // namespace

TEST_CASE("linear algebra: complex matrices, c64 and c128",
          "[conformance][linalg][complex]") {
  for (DType real : {DType::F64, DType::F32}) {
    INFO("parts " << static_cast<int>(real));
    api::Module m;
    m.function(
        "decompose",
        {tensor(real, {2, 4, 4}), tensor(real, {2, 4, 4}),
         tensor(real, {2, 4, 2}), tensor(real, {5, 3}), tensor(real, {5, 3})},
        [&](api::Value re, api::Value im, api::Value rhs, api::Value tallRe,
            api::Value tallIm) {
          api::Value z = api::complex(re, im);
          api::Value tall = api::complex(tallRe, tallIm);
          api::Value wide = api::transpose(tall, {1, 0});
          api::Value b = api::complex(rhs, rhs * 0.5);
          api::Value a = hpd(m, z);
          api::Values out;
          api::Value l = api::cholesky(a);
          parts(out, l);
          for (bool lower : {true, false})
            for (bool transpose : {false, true}) {
              api::TriangularSolveOptions options;
              options.lower = lower;
              options.transpose_a = transpose;
              parts(out, api::triangular_solve(a, b, options));
            }
          for (api::Value y : {z, tall, wide}) {
            auto [lu, pivots, perm] = api::lu(y);
            parts(out, lu);
            out.push_back(pivots);
            out.push_back(perm);
          }
          for (api::Value y : {tall, wide}) {
            auto [q, r] = api::qr(y);
            parts(out, q);
            parts(out, r);
          }
          // Not Hermitian: only the triangle eigh reads counts.
          for (bool upper : {false, true}) {
            auto [w, v] = api::eigh(a + z, upper);
            out.push_back(w);
            parts(out, v);
          }
          for (api::Value y : {tall, wide}) {
            auto [u, s, vh] = api::svd(y);
            parts(out, u);
            out.push_back(s);
            parts(out, vh);
          }
          // Full vh of a tall matrix: square, every row paired with u.
          auto [u, s, vh] = api::svd(tall, true);
          parts(out, api::slice(u, {0, 0}, {5, 3}));
          parts(out, vh);
          return out;
        });
    checkOnAllTargets(m, "decompose", 97);
  }
}

TEST_CASE("linear algebra: gradients through complex decompositions",
          "[conformance][linalg][complex][gradients]") {
  api::Module m;
  api::Type square = tensor(DType::F64, {3, 3});
  m.function("loss", {square, square},
             [&m](api::Value re, api::Value im) {
               api::Value z = api::complex(re, im);
               api::Value a = hpd(m, z);
               api::Value l = api::cholesky(a);
               auto [w, v] = api::eigh(a);
               auto [u, s, vh] = api::svd(z);
               auto [q, r] = api::qr(z);
               auto [lu, pivots, perm] = api::lu(z);
               // Phase-free functions of the vectors.
               api::Value projector = api::matmul(v * api::conj(v), re);
               return api::sum(api::real(l) * re) + api::sum(w * w) +
                      api::sum(s) + api::sum(api::abs(r)) +
                      api::sum(api::real(projector)) +
                      api::sum(api::imag(lu) * im) +
                      api::sum(api::abs(api::matmul(u, vh)));
             });
  defineGradOfLoss(m, {square, square});
  checkOnAllTargets(m, "grad", 101);
}

TEST_CASE("linear algebra: eig of real and complex matrices",
          "[conformance][linalg][complex]") {
  for (DType real : {DType::F64, DType::F32}) {
    INFO("parts " << static_cast<int>(real));
    api::Module m;
    m.function(
        "eig", {tensor(real, {3, 5, 5}), tensor(real, {5, 5}),
                tensor(real, {2, 2})},
        [&](api::Value x, api::Value im, api::Value rotation) {
          api::Values out;
          // Real matrices: real eigenvalues and conjugate pairs.
          auto [w, v] = api::eig(x);
          parts(out, w);
          parts(out, v);
          api::Value first =
              api::reshape(api::slice(x, {0, 0, 0}, {1, 5, 5}), {5, 5});
          auto [wc, vc] = api::eig(api::complex(first, im));
          parts(out, wc);
          parts(out, vc);
          // [[a, b], [-b, a]]: the pair a -+ bi, equal real parts ordered
          // by their imaginary parts.
          api::Value a = api::slice(rotation, {0, 0}, {1, 1});
          api::Value b = api::slice(rotation, {0, 1}, {1, 2});
          api::Value pair = api::concat(
              {api::concat({a, b}, 1), api::concat({b * -1.0, a}, 1)}, 0);
          auto [wp, vp] = api::eig(pair);
          parts(out, wp);
          parts(out, vp);
          // Values only: the kernel skips the vectors.
          auto [values, unused] = api::eig(x * 2.0);
          parts(out, values);
          return out;
        });
    checkOnAllTargets(m, "eig", 103);
  }
}

TEST_CASE("linear algebra: the gradient of eig's eigenvalues",
          "[conformance][linalg][complex][gradients]") {
  api::Module m;
  api::Type square = tensor(DType::F64, {4, 4});
  m.function("loss", {square, square}, [](api::Value re, api::Value im) {
    auto [w, unused] = api::eig(re);
    auto [wc, unusedToo] = api::eig(api::complex(re, im));
    return api::sum(api::real(w) * api::imag(w)) +
           api::sum(api::abs(wc));
  });
  defineGradOfLoss(m, {square, square});
  checkOnAllTargets(m, "grad", 107);
}
