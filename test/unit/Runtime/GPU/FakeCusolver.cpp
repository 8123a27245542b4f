//===- FakeCusolver.cpp - cuSOLVER and cuBLAS's trsm on host memory -------===//
//
// Built twice, as libcusolver.so.12 and as libcublas.so.13, and put first
// on LD_LIBRARY_PATH by ctest for the cuda device's solver route (and
// cuBLAS's scal for its FFT route). The fake
// CUDA driver's device memory is host memory, so each routine computes at
// once with the system's LAPACK (FakeLapack.h) on the column-major
// matrices its arguments describe, checks what the real library checks
// (leading dimensions, workspace sizes, cuSOLVER's m >= n for gesvd) and
// records the call (FakeSolver.h). Nothing of NVIDIA's is copied: the
// types are the runtime's declarations (lib/Runtime/CUDA/Cusolver.h).
//
//===----------------------------------------------------------------------===//

#include "CUDA/Cusolver.h"
#include "FakeLapack.h"
#include "FakeSolver.h"

#include <algorithm>

using namespace adjoint::rt::cuda;

namespace adjoint::rt::cuda {
struct CusolverDnContext {
  cudaStream_t stream = nullptr;
};
struct CublasContext {
  cudaStream_t stream = nullptr;
};
} // namespace adjoint::rt::cuda

namespace {

constexpr cusolverStatus_t kNotInitialized = 1, kInvalidValue = 3;

FakeSolverJournal &journal() {
  static FakeSolverJournal instance;
  return instance;
}

template <typename T> const char *letter() { return fake::letterOf<T>(); }

/// The type of T's eigen- and singular values.
template <typename T> using Real = fake::RealOf<T>;

void record(std::string call) { journal().calls.push_back(std::move(call)); }

template <typename T>
std::string describe(const char *routine, std::initializer_list<int> sizes) {
  std::string call = std::string(routine) + " " + letter<T>();
  for (int size : sizes)
    call += " " + std::to_string(size);
  return call;
}

/// The workspace every routine asks for: more than LAPACK needs, so a
/// runtime that passes less is caught.
int workspaceFor(int m, int n) { return std::max(1, m * n + 64); }

/// What the real library answers for a bad handle or argument.
cusolverStatus_t check(cusolverDnHandle_t handle, bool valid) {
  if (!handle || !handle->stream)
    return kNotInitialized;
  return valid ? CUSOLVER_STATUS_SUCCESS : kInvalidValue;
}

const char *uploOf(cublasFillMode_t uplo) {
  return uplo == CUBLAS_FILL_MODE_UPPER ? "U" : "L";
}

template <typename T>
cusolverStatus_t potrfSize(cusolverDnHandle_t handle, cublasFillMode_t,
                           int n, T *, int lda, int *lwork) {
  *lwork = workspaceFor(n, n);
  return check(handle, lda >= std::max(1, n));
}

template <typename T>
cusolverStatus_t potrf(cusolverDnHandle_t handle, cublasFillMode_t uplo,
                       int n, T *a, int lda, T *work, int lwork, int *info) {
  if (cusolverStatus_t s = check(handle, lda >= std::max(1, n) && work &&
                                             lwork >= workspaceFor(n, n) &&
                                             info))
    return s;
  record(describe<T>("potrf", {n, lda}));
  fake::lapack<T>().potrf(uploOf(uplo), &n, a, &lda, info, 1);
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t getrfSize(cusolverDnHandle_t handle, int m, int n, T *,
                           int lda, int *lwork) {
  *lwork = workspaceFor(m, n);
  return check(handle, lda >= std::max(1, m));
}

template <typename T>
cusolverStatus_t getrf(cusolverDnHandle_t handle, int m, int n, T *a, int lda,
                       T *work, int *ipiv, int *info) {
  if (cusolverStatus_t s =
          check(handle, lda >= std::max(1, m) && work && ipiv && info))
    return s;
  record(describe<T>("getrf", {m, n, lda}));
  fake::lapack<T>().getrf(&m, &n, a, &lda, ipiv, info);
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t geqrfSize(cusolverDnHandle_t handle, int m, int n, T *,
                           int lda, int *lwork) {
  *lwork = workspaceFor(m, n);
  return check(handle, lda >= std::max(1, m));
}

template <typename T>
cusolverStatus_t geqrf(cusolverDnHandle_t handle, int m, int n, T *a, int lda,
                       T *tau, T *work, int lwork, int *info) {
  if (cusolverStatus_t s = check(handle, lda >= std::max(1, m) && tau &&
                                             work &&
                                             lwork >= workspaceFor(m, n) &&
                                             info))
    return s;
  record(describe<T>("geqrf", {m, n, lda}));
  fake::withWork<T>([&](T *w, int lw) {
    fake::lapack<T>().geqrf(&m, &n, a, &lda, tau, w, &lw, info);
  });
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t orgqrSize(cusolverDnHandle_t handle, int m, int n, int k,
                           const T *, int lda, const T *, int *lwork) {
  *lwork = workspaceFor(m, n);
  return check(handle, lda >= std::max(1, m) && n <= m && k <= n);
}

template <typename T>
cusolverStatus_t orgqr(cusolverDnHandle_t handle, int m, int n, int k, T *a,
                       int lda, const T *tau, T *work, int lwork, int *info) {
  if (cusolverStatus_t s = check(handle, lda >= std::max(1, m) && n <= m &&
                                             k <= n && tau && work &&
                                             lwork >= workspaceFor(m, n) &&
                                             info))
    return s;
  record(describe<T>("orgqr", {m, n, k, lda}));
  fake::withWork<T>([&](T *w, int lw) {
    fake::lapack<T>().orgqr(&m, &n, &k, a, &lda, tau, w, &lw, info);
  });
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t syevdSize(cusolverDnHandle_t handle, cusolverEigMode_t,
                           cublasFillMode_t, int n, const T *, int lda,
                           const Real<T> *, int *lwork) {
  *lwork = workspaceFor(n, n);
  return check(handle, lda >= std::max(1, n));
}

/// syevd, or heevd for complex T (with its real workspace).
template <typename T>
cusolverStatus_t syevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz,
                       cublasFillMode_t uplo, int n, T *a, int lda,
                       Real<T> *w, T *work, int lwork, int *info) {
  if (cusolverStatus_t s = check(handle, lda >= std::max(1, n) && w && work &&
                                             lwork >= workspaceFor(n, n) &&
                                             info))
    return s;
  const char *job = jobz == CUSOLVER_EIG_MODE_VECTOR ? "V" : "N";
  record(describe<T>("syevd", {n, lda, jobz, uplo}));
  fake::eigenSolve(job, uploOf(uplo), n, a, lda, w, info);
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cusolverStatus_t gesvdSize(cusolverDnHandle_t handle, int m, int n,
                           int *lwork) {
  *lwork = workspaceFor(m, n);
  return check(handle, m >= n);
}

template <typename T>
cusolverStatus_t gesvd(cusolverDnHandle_t handle, signed char jobu,
                       signed char jobvt, int m, int n, T *a, int lda,
                       Real<T> *s, T *u, int ldu, T *vt, int ldvt, T *work,
                       int lwork, Real<T> *, int *info) {
  auto known = [](signed char job) {
    return job == 'N' || job == 'S' || job == 'A';
  };
  int k = std::min(m, n);
  bool valid = m >= n && lda >= std::max(1, m) && known(jobu) &&
               known(jobvt) && s && work && lwork >= workspaceFor(m, n) &&
               info && (jobu == 'N' || (u && ldu >= std::max(1, m))) &&
               (jobvt == 'N' ||
                (vt && ldvt >= std::max(1, jobvt == 'A' ? n : k)));
  if (cusolverStatus_t status = check(handle, valid))
    return status;
  record(describe<T>("gesvd", {m, n, lda, ldu, ldvt, jobu}));
  char ju[2] = {char(jobu), 0}, jv[2] = {char(jobvt), 0};
  fake::singularSolve(ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, info);
  return CUSOLVER_STATUS_SUCCESS;
}

template <typename T>
cublasStatus_t trsm(cublasHandle_t handle, cublasSideMode_t side,
                    cublasFillMode_t uplo, cublasOperation_t trans,
                    cublasDiagType_t diag, int m, int n, const T *alpha,
                    const T *a, int lda, T *b, int ldb) {
  int k = side == CUBLAS_SIDE_LEFT ? m : n;
  if (!handle || !handle->stream)
    return 1; // CUBLAS_STATUS_NOT_INITIALIZED
  if (lda < std::max(1, k) || ldb < std::max(1, m) || !alpha)
    return 7; // CUBLAS_STATUS_INVALID_VALUE
  record(describe<T>("trsm", {m, n, lda, ldb, side, uplo, trans, diag}));
  fake::lapack<T>().trsm(side == CUBLAS_SIDE_LEFT ? "L" : "R", uploOf(uplo),
                         trans == CUBLAS_OP_T ? "T" : "N",
                         diag == CUBLAS_DIAG_UNIT ? "U" : "N", &m, &n, alpha,
                         a, &lda, b, &ldb, 1, 1, 1, 1);
  return CUBLAS_STATUS_SUCCESS;
}

template <typename T>
cublasStatus_t scal(cublasHandle_t handle, int n, const T *alpha, T *x,
                    int incx) {
  if (!handle || !handle->stream)
    return 1; // CUBLAS_STATUS_NOT_INITIALIZED
  if (n < 0 || incx < 1 || !alpha || !x)
    return 7; // CUBLAS_STATUS_INVALID_VALUE
  record(describe<T>("scal", {n, incx}));
  for (int i = 0; i < n; ++i)
    x[i * incx] *= *alpha;
  return CUBLAS_STATUS_SUCCESS;
}

} // namespace

// The entry points, for T = float (S), double (D), std::complex<float> (C)
// and std::complex<double> (Z), whose orgqr and syevd are named `qr` and
// `ev` (ungqr and heevd for complex T).
#define ADJ_FAKE_TYPED(letter, T, qr, ev)                                      \
  cusolverStatus_t cusolverDn##letter##potrf_bufferSize(                       \
      cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *a, int lda,       \
      int *lwork) {                                                            \
    return potrfSize<T>(h, uplo, n, a, lda, lwork);                            \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##potrf(                                  \
      cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *a, int lda,       \
      T *work, int lwork, int *info) {                                         \
    return potrf<T>(h, uplo, n, a, lda, work, lwork, info);                    \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##getrf_bufferSize(                       \
      cusolverDnHandle_t h, int m, int n, T *a, int lda, int *lwork) {         \
    return getrfSize<T>(h, m, n, a, lda, lwork);                               \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##getrf(cusolverDnHandle_t h, int m,      \
                                             int n, T *a, int lda, T *work,    \
                                             int *ipiv, int *info) {           \
    return getrf<T>(h, m, n, a, lda, work, ipiv, info);                        \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##geqrf_bufferSize(                       \
      cusolverDnHandle_t h, int m, int n, T *a, int lda, int *lwork) {         \
    return geqrfSize<T>(h, m, n, a, lda, lwork);                               \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##geqrf(cusolverDnHandle_t h, int m,      \
                                             int n, T *a, int lda, T *tau,     \
                                             T *work, int lwork, int *info) {  \
    return geqrf<T>(h, m, n, a, lda, tau, work, lwork, info);                  \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##qr##_bufferSize(                        \
      cusolverDnHandle_t h, int m, int n, int k, const T *a, int lda,          \
      const T *tau, int *lwork) {                                              \
    return orgqrSize<T>(h, m, n, k, a, lda, tau, lwork);                       \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##qr(                                     \
      cusolverDnHandle_t h, int m, int n, int k, T *a, int lda, const T *tau,  \
      T *work, int lwork, int *info) {                                         \
    return orgqr<T>(h, m, n, k, a, lda, tau, work, lwork, info);               \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##ev##_bufferSize(                        \
      cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo,     \
      int n, const T *a, int lda, const Real<T> *w, int *lwork) {              \
    return syevdSize<T>(h, jobz, uplo, n, a, lda, w, lwork);                   \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##ev(                                     \
      cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo,     \
      int n, T *a, int lda, Real<T> *w, T *work, int lwork, int *info) {       \
    return syevd<T>(h, jobz, uplo, n, a, lda, w, work, lwork, info);           \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##gesvd_bufferSize(                       \
      cusolverDnHandle_t h, int m, int n, int *lwork) {                        \
    return gesvdSize<T>(h, m, n, lwork);                                       \
  }                                                                            \
  cusolverStatus_t cusolverDn##letter##gesvd(                                  \
      cusolverDnHandle_t h, signed char jobu, signed char jobvt, int m, int n, \
      T *a, int lda, Real<T> *s, T *u, int ldu, T *vt, int ldvt, T *work,      \
      int lwork, Real<T> *rwork, int *info) {                                  \
    return gesvd<T>(h, jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work,   \
                    lwork, rwork, info);                                       \
  }                                                                            \
  cublasStatus_t cublas##letter##trsm_v2(                                      \
      cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,          \
      cublasOperation_t trans, cublasDiagType_t diag, int m, int n,            \
      const T *alpha, const T *a, int lda, T *b, int ldb) {                    \
    return trsm<T>(h, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);   \
  }

extern "C" {

__attribute__((visibility("default"))) void *fakeSolverJournal() {
  return &journal();
}

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle) {
  *handle = new CusolverDnContext;
  ++journal().handles;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle) {
  delete handle;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle,
                                     cudaStream_t stream) {
  handle->stream = stream;
  journal().stream = stream;
  return CUSOLVER_STATUS_SUCCESS;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  *handle = new CublasContext;
  ++journal().handles;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  handle->stream = stream;
  journal().stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

ADJ_FAKE_TYPED(S, float, orgqr, syevd)
ADJ_FAKE_TYPED(D, double, orgqr, syevd)
ADJ_FAKE_TYPED(C, std::complex<float>, ungqr, heevd)
ADJ_FAKE_TYPED(Z, std::complex<double>, ungqr, heevd)

// cuBLAS's scal, which scales cuFFT's inverse transforms.
cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float *alpha,
                              float *x, int incx) {
  return scal(h, n, alpha, x, incx);
}
cublasStatus_t cublasDscal_v2(cublasHandle_t h, int n, const double *alpha,
                              double *x, int incx) {
  return scal(h, n, alpha, x, incx);
}

} // extern "C"

#undef ADJ_FAKE_TYPED
