//===- DenseSolver.h - A vendor's dense solver on device memory -*- C++ -*-===//
//
// The LAPACK routines the LinearAlgebra ops need, as a vendor library
// (cuSOLVER and cuBLAS, rocSOLVER and rocBLAS) computes them on a device's
// buffers: one column-major matrix per call, queued on the device's queue,
// LAPACK's conventions (1-based pivots; info > 0 for a matrix that is not
// positive definite or a decomposition that did not converge), the info in
// device memory. Each vendor folder implements it over its library;
// SolverLinearAlgebra.h turns it into the ops.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_DENSESOLVER_H
#define ADJOINT_LIB_RUNTIME_GPU_DENSESOLVER_H

#include "adjoint/Runtime/DType.h"
#include "adjoint/Runtime/Status.h"

#include <complex>
#include <functional>

namespace adjoint::rt::gpu {

/// What trsm solves: op(A) X = B (left) or X op(A) = B, A triangular.
struct TriangularSolveFlags {
  bool left, upper, transpose, unitDiagonal;
};

/// What gesvd computes of U and V^T (LAPACK's jobu = jobvt).
enum class SingularVectors { None, Reduced, Full };

/// Element types are F32 or F64, and C64 or C128 where takesComplex():
/// for complex matrices orgqr is ungqr, syevd heevd and gesvd's V^T is
/// V^H, eigen- and singular values real. Every pointer is device memory;
/// sizes fit 32-bit integers and are positive (callers route empty
/// problems elsewhere).
class DenseSolver {
public:
  virtual ~DenseSolver();
  /// "cuSOLVER", for messages.
  virtual const char *name() const = 0;
  /// Whether the routines take complex matrices (C64, C128).
  virtual bool takesComplex() const { return false; }
  /// Runs `work`, which makes the calls below, with the device ready for
  /// the library (its queue held, its context current on this thread).
  virtual Status withDevice(const std::function<Status()> &work) = 0;

  /// Cholesky factor U^T U of the upper triangle, in place.
  virtual Status potrf(DType type, int n, void *a, int lda, int *info) = 0;
  /// X over B, alpha = 1.
  virtual Status trsm(DType type, TriangularSolveFlags flags, int m, int n,
                      const void *a, int lda, void *b, int ldb) = 0;
  /// P A = L U with partial pivoting, in place.
  virtual Status getrf(DType type, int m, int n, void *a, int lda, int *ipiv,
                       int *info) = 0;
  /// Householder QR, in place, min(m, n) factors in tau.
  virtual Status geqrf(DType type, int m, int n, void *a, int lda, void *tau,
                       int *info) = 0;
  /// The first n columns of Q from geqrf's k reflectors, in place.
  virtual Status orgqr(DType type, int m, int n, int k, void *a, int lda,
                       const void *tau, int *info) = 0;
  /// Ascending eigenvalues of the symmetric matrix's `upper` or lower
  /// triangle, and its eigenvectors over A when `vectors`.
  virtual Status syevd(DType type, bool vectors, bool upper, int n, void *a,
                       int lda, void *w, int *info) = 0;
  /// A = U S V^T of an m x n matrix with m >= n (cuSOLVER's restriction),
  /// A destroyed; u and vt are unused for SingularVectors::None.
  virtual Status gesvd(DType type, SingularVectors job, int m, int n, void *a,
                       int lda, void *s, void *u, int ldu, void *vt, int ldvt,
                       int *info) = 0;
};

/// `call(api.s, float{})`, or with d, c and z for F64, C64 and C128: a
/// vendor's routine tables of each element type (its Api has s, d, c, z).
template <typename Api, typename Call>
Status byElementType(DType type, const Api &api, Call call) {
  switch (type) {
  case DType::F64:
    return call(api.d, double{});
  case DType::C64:
    return call(api.c, std::complex<float>{});
  case DType::C128:
    return call(api.z, std::complex<double>{});
  default:
    return call(api.s, float{});
  }
}

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_DENSESOLVER_H
