//===- CusolverSolver.cpp - A cuda device's dense solver ------------------===//

#include "CUDA/CusolverSolver.h"
#include "CUDA/CudaDevice.h"
#include "GPU/DeviceScratch.h"

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {

cublasFillMode_t fill(bool upper) {
  return upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

/// A routine's workspace of `elements` T from the device's pool, then the
/// routine on it (`run(workspace)`).
template <typename T, typename Run>
Status withWorkspace(Device &device, int elements, Run run) {
  gpu::DeviceScratch work(device);
  if (Status status = work.allocate(uint64_t(elements) * sizeof(T));
      !status.ok())
    return status;
  return run(work.as<T>());
}

} // namespace

CusolverSolver::~CusolverSolver() {
  if (solver_)
    api_.cusolverDnDestroy(solver_);
  if (blas_)
    api_.cublasDestroy_v2(blas_);
}

Status CusolverSolver::withDevice(const std::function<Status()> &work) {
  return device_.withCurrent([&]() -> Status {
    if (!solver_) {
      if (Status status = checkCusolver(api_.cusolverDnCreate(&solver_),
                                        "cusolverDnCreate");
          !status.ok())
        return status;
      if (Status status = checkCusolver(
              api_.cusolverDnSetStream(solver_, device_.stream()),
              "cusolverDnSetStream");
          !status.ok())
        return status;
    }
    if (Status status = ensureCublasHandle(api_, device_.stream(), &blas_);
        !status.ok())
      return status;
    return work();
  });
}

template <typename Call> Status CusolverSolver::typed(DType type, Call call) {
  return gpu::byElementType(type, api_, call);
}

Status CusolverSolver::potrf(DType type, int n, void *a, int lda, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    T *matrix = static_cast<T *>(a);
    int lwork = 0;
    if (Status status = checkCusolver(
            r.potrf_bufferSize(solver_, CUBLAS_FILL_MODE_UPPER, n, matrix, lda,
                               &lwork),
            "cusolverDnXpotrf_bufferSize");
        !status.ok())
      return status;
    return withWorkspace<T>(device_, lwork, [&](T *work) {
      return checkCusolver(r.potrf(solver_, CUBLAS_FILL_MODE_UPPER, n, matrix,
                                   lda, work, lwork, info),
                           "cusolverDnXpotrf");
    });
  });
}

Status CusolverSolver::trsm(DType type, gpu::TriangularSolveFlags flags,
                            int m, int n, const void *a, int lda, void *b,
                            int ldb) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    const T one = 1;
    return checkCublas(
        r.trsm(blas_, flags.left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
               fill(flags.upper), flags.transpose ? CUBLAS_OP_T : CUBLAS_OP_N,
               flags.unitDiagonal ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, m,
               n, &one, static_cast<const T *>(a), lda, static_cast<T *>(b),
               ldb),
        "cublasXtrsm_v2");
  });
}

Status CusolverSolver::getrf(DType type, int m, int n, void *a, int lda,
                             int *ipiv, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    T *matrix = static_cast<T *>(a);
    int lwork = 0;
    if (Status status =
            checkCusolver(r.getrf_bufferSize(solver_, m, n, matrix, lda,
                                             &lwork),
                          "cusolverDnXgetrf_bufferSize");
        !status.ok())
      return status;
    return withWorkspace<T>(device_, lwork, [&](T *work) {
      return checkCusolver(
          r.getrf(solver_, m, n, matrix, lda, work, ipiv, info),
          "cusolverDnXgetrf");
    });
  });
}

Status CusolverSolver::geqrf(DType type, int m, int n, void *a, int lda,
                             void *tau, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    T *matrix = static_cast<T *>(a);
    int lwork = 0;
    if (Status status =
            checkCusolver(r.geqrf_bufferSize(solver_, m, n, matrix, lda,
                                             &lwork),
                          "cusolverDnXgeqrf_bufferSize");
        !status.ok())
      return status;
    return withWorkspace<T>(device_, lwork, [&](T *work) {
      return checkCusolver(r.geqrf(solver_, m, n, matrix, lda,
                                   static_cast<T *>(tau), work, lwork, info),
                           "cusolverDnXgeqrf");
    });
  });
}

Status CusolverSolver::orgqr(DType type, int m, int n, int k, void *a,
                             int lda, const void *tau, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    T *matrix = static_cast<T *>(a);
    const T *factors = static_cast<const T *>(tau);
    int lwork = 0;
    if (Status status =
            checkCusolver(r.orgqr_bufferSize(solver_, m, n, k, matrix, lda,
                                             factors, &lwork),
                          "cusolverDnXorgqr_bufferSize");
        !status.ok())
      return status;
    return withWorkspace<T>(device_, lwork, [&](T *work) {
      return checkCusolver(r.orgqr(solver_, m, n, k, matrix, lda, factors,
                                   work, lwork, info),
                           "cusolverDnXorgqr");
    });
  });
}

Status CusolverSolver::syevd(DType type, bool vectors, bool upper, int n,
                             void *a, int lda, void *w, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    using R = typename SolverReal<T>::type;
    T *matrix = static_cast<T *>(a);
    R *values = static_cast<R *>(w);
    cusolverEigMode_t jobz =
        vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    int lwork = 0;
    if (Status status = checkCusolver(
            r.syevd_bufferSize(solver_, jobz, fill(upper), n, matrix, lda,
                               values, &lwork),
            "cusolverDnXsyevd_bufferSize");
        !status.ok())
      return status;
    return withWorkspace<T>(device_, lwork, [&](T *work) {
      return checkCusolver(r.syevd(solver_, jobz, fill(upper), n, matrix, lda,
                                   values, work, lwork, info),
                           "cusolverDnXsyevd");
    });
  });
}

Status CusolverSolver::gesvd(DType type, gpu::SingularVectors job, int m,
                             int n, void *a, int lda, void *s, void *u,
                             int ldu, void *vt, int ldvt, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    signed char letter = job == gpu::SingularVectors::None      ? 'N'
                         : job == gpu::SingularVectors::Reduced ? 'S'
                                                                : 'A';
    int lwork = 0;
    if (Status status = checkCusolver(r.gesvd_bufferSize(solver_, m, n,
                                                         &lwork),
                                      "cusolverDnXgesvd_bufferSize");
        !status.ok())
      return status;
    return withWorkspace<T>(device_, lwork, [&](T *work) {
      return checkCusolver(
          r.gesvd(solver_, letter, letter, m, n, static_cast<T *>(a), lda,
                  static_cast<typename SolverReal<T>::type *>(s),
                  static_cast<T *>(u), ldu, static_cast<T *>(vt), ldvt, work,
                  lwork, nullptr, info),
          "cusolverDnXgesvd");
    });
  });
}
