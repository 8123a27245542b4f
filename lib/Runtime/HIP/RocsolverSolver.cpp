//===- RocsolverSolver.cpp - A hip device's dense solver ------------------===//

#include "HIP/RocsolverSolver.h"
#include "GPU/DeviceScratch.h"
#include "HIP/HipDevice.h"

#include <algorithm>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
rocblas_fill fill(bool upper) {
  return upper ? rocblas_fill_upper : rocblas_fill_lower;
}
} // namespace

RocsolverSolver::~RocsolverSolver() {
  if (handle_)
    api_.rocblas_destroy_handle(handle_);
}

Status RocsolverSolver::withDevice(const std::function<Status()> &work) {
  return device_.withCurrent([&]() -> Status {
    if (Status status = ensureRocblasHandle(api_, device_.stream(), &handle_);
        !status.ok())
      return status;
    return work();
  });
}

template <typename Call> Status RocsolverSolver::typed(DType type, Call call) {
  return gpu::byElementType(type, api_, call);
}

Status RocsolverSolver::potrf(DType type, int n, void *a, int lda,
                              int *info) {
  return typed(type, [&](const auto &r, auto zero) {
    using T = decltype(zero);
    return check(r.potrf(handle_, rocblas_fill_upper, n, static_cast<T *>(a),
                         lda, info),
                 "rocsolver_Xpotrf");
  });
}

Status RocsolverSolver::trsm(DType type, gpu::TriangularSolveFlags flags,
                             int m, int n, const void *a, int lda, void *b,
                             int ldb) {
  return typed(type, [&](const auto &r, auto zero) {
    using T = decltype(zero);
    const T one = 1;
    return check(
        r.trsm(handle_, flags.left ? rocblas_side_left : rocblas_side_right,
               fill(flags.upper),
               flags.transpose ? rocblas_operation_transpose
                               : rocblas_operation_none,
               flags.unitDiagonal ? rocblas_diagonal_unit
                                  : rocblas_diagonal_non_unit,
               m, n, &one, static_cast<const T *>(a), lda, static_cast<T *>(b),
               ldb),
        "rocblas_Xtrsm");
  });
}

Status RocsolverSolver::getrf(DType type, int m, int n, void *a, int lda,
                              int *ipiv, int *info) {
  return typed(type, [&](const auto &r, auto zero) {
    using T = decltype(zero);
    return check(r.getrf(handle_, m, n, static_cast<T *>(a), lda, ipiv, info),
                 "rocsolver_Xgetrf");
  });
}

Status RocsolverSolver::geqrf(DType type, int m, int n, void *a, int lda,
                              void *tau, int *) {
  // rocSOLVER's geqrf reports nothing: the caller's zeroed info stays so.
  return typed(type, [&](const auto &r, auto zero) {
    using T = decltype(zero);
    return check(r.geqrf(handle_, m, n, static_cast<T *>(a), lda,
                         static_cast<T *>(tau)),
                 "rocsolver_Xgeqrf");
  });
}

Status RocsolverSolver::orgqr(DType type, int m, int n, int k, void *a,
                              int lda, const void *tau, int *) {
  return typed(type, [&](const auto &r, auto zero) {
    using T = decltype(zero);
    // rocSOLVER's declaration takes tau as non-const; it only reads it.
    return check(r.orgqr(handle_, m, n, k, static_cast<T *>(a), lda,
                         static_cast<T *>(const_cast<void *>(tau))),
                 "rocsolver_Xorgqr");
  });
}

Status RocsolverSolver::syevd(DType type, bool vectors, bool upper, int n,
                              void *a, int lda, void *w, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    using R = typename RocsolverReal<T>::type;
    gpu::DeviceScratch offDiagonal(device_);
    if (Status status = offDiagonal.allocate(uint64_t(n) * sizeof(R));
        !status.ok())
      return status;
    return check(r.syevd(handle_,
                         vectors ? rocblas_evect_original : rocblas_evect_none,
                         fill(upper), n, static_cast<T *>(a), lda,
                         static_cast<R *>(w), offDiagonal.as<R>(), info),
                 "rocsolver_Xsyevd");
  });
}

Status RocsolverSolver::gesvd(DType type, gpu::SingularVectors job, int m,
                              int n, void *a, int lda, void *s, void *u,
                              int ldu, void *vt, int ldvt, int *info) {
  return typed(type, [&](const auto &r, auto zero) -> Status {
    using T = decltype(zero);
    using R = typename RocsolverReal<T>::type;
    rocblas_svect svect = job == gpu::SingularVectors::None ? rocblas_svect_none
                          : job == gpu::SingularVectors::Reduced
                              ? rocblas_svect_singular
                              : rocblas_svect_all;
    gpu::DeviceScratch offDiagonal(device_);
    if (Status status = offDiagonal.allocate(
            uint64_t(std::max(1, std::min(m, n) - 1)) * sizeof(R));
        !status.ok())
      return status;
    return check(r.gesvd(handle_, svect, svect, m, n, static_cast<T *>(a), lda,
                         static_cast<R *>(s), static_cast<T *>(u), ldu,
                         static_cast<T *>(vt), ldvt, offDiagonal.as<R>(),
                         rocblas_outofplace, info),
                 "rocsolver_Xgesvd");
  });
}
