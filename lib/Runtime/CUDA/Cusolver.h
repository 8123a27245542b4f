//===- Cusolver.h - libcusolver and libcublas through dlopen ----*- C++ -*-===//
//
// NVIDIA's dense solvers: cuSOLVER's potrf, getrf, geqrf, orgqr, syevd and
// gesvd (ungqr and heevd for complex matrices), and cuBLAS's trsm (the
// triangular solve cuSOLVER leaves to it), for f32, f64, c64 and c128,
// never linked: the types and enum values used are declared here with the
// values of cusolver_common.h and cublas_api.h (a stable C ABI since CUDA
// 10), the entry points (Cusolver.def) resolved on a cuda device's first
// decomposition from the path in ADJOINT_CUSOLVER (ADJOINT_CUBLAS) or
// libcusolver.so.12 (libcublas.so.13), CUDA 13's, else CUDA 12's .so.11
// (.so.12).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUSOLVER_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUSOLVER_H

#include "CUDA/CublasLt.h"

#include <complex>

namespace adjoint::rt::cuda {

using cusolverStatus_t = int32_t;
constexpr cusolverStatus_t CUSOLVER_STATUS_SUCCESS = 0;
constexpr cusolverStatus_t CUSOLVER_STATUS_ALLOC_FAILED = 2;

using cusolverDnHandle_t = struct CusolverDnContext *;
using cublasHandle_t = struct CublasContext *;

enum cublasFillMode_t : int32_t {
  CUBLAS_FILL_MODE_LOWER = 0,
  CUBLAS_FILL_MODE_UPPER = 1,
};
enum cublasSideMode_t : int32_t {
  CUBLAS_SIDE_LEFT = 0,
  CUBLAS_SIDE_RIGHT = 1,
};
enum cublasDiagType_t : int32_t {
  CUBLAS_DIAG_NON_UNIT = 0,
  CUBLAS_DIAG_UNIT = 1,
};
enum cusolverEigMode_t : int32_t {
  CUSOLVER_EIG_MODE_NOVECTOR = 0,
  CUSOLVER_EIG_MODE_VECTOR = 1,
};

/// R for std::complex<R>, else T: the type of eigen- and singular values.
template <typename T> struct SolverReal { using type = T; };
template <typename R> struct SolverReal<std::complex<R>> { using type = R; };

/// The routines of Cusolver.def, and cuBLAS's trsm, for one element type.
template <typename T> struct CusolverRoutines {
  using R = typename SolverReal<T>::type;
#define ADJ_CUSOLVER_FN(name, params) cusolverStatus_t(*name) params = nullptr;
#include "CUDA/Cusolver.def"
  /// cublas<S|D|C|Z>trsm_v2: op(A) X = alpha B or X op(A) = alpha B, X
  /// over B.
  cublasStatus_t (*trsm)(cublasHandle_t handle, cublasSideMode_t side,
                         cublasFillMode_t uplo, cublasOperation_t trans,
                         cublasDiagType_t diag, int m, int n, const T *alpha,
                         const T *a, int lda, T *b, int ldb) = nullptr;
};

struct CusolverApi {
  cusolverStatus_t (*cusolverDnCreate)(cusolverDnHandle_t *handle) = nullptr;
  cusolverStatus_t (*cusolverDnDestroy)(cusolverDnHandle_t handle) = nullptr;
  cusolverStatus_t (*cusolverDnSetStream)(cusolverDnHandle_t handle,
                                          cudaStream_t stream) = nullptr;
  cublasStatus_t (*cublasCreate_v2)(cublasHandle_t *handle) = nullptr;
  cublasStatus_t (*cublasDestroy_v2)(cublasHandle_t handle) = nullptr;
  cublasStatus_t (*cublasSetStream_v2)(cublasHandle_t handle,
                                       cudaStream_t stream) = nullptr;
  CusolverRoutines<float> s;
  CusolverRoutines<double> d;
  CusolverRoutines<std::complex<float>> c;
  CusolverRoutines<std::complex<double>> z;
};

/// The entry points, loaded once per process; Unavailable naming the
/// libraries when either does not open or lacks an entry point.
Status loadCusolver(const CusolverApi **api);

/// Success, or an error naming `call` and the status (OutOfMemory for
/// CUSOLVER_STATUS_ALLOC_FAILED).
Status checkCusolver(cusolverStatus_t status, const char *call);

/// Makes `*handle` with `api`'s cuBLAS entry points (a table with
/// cublasCreate_v2 and cublasSetStream_v2) and binds it to `stream`,
/// unless it is made already.
template <typename Api>
Status ensureCublasHandle(const Api &api, cudaStream_t stream,
                          cublasHandle_t *handle) {
  if (*handle)
    return Status::success();
  if (Status status =
          checkCublas(api.cublasCreate_v2(handle), "cublasCreate_v2");
      !status.ok())
    return status;
  return checkCublas(api.cublasSetStream_v2(*handle, stream),
                     "cublasSetStream_v2");
}

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUSOLVER_H
