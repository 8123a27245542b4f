//===- Cufft.h - libcufft through dlopen ------------------------*- C++ -*-===//
//
// NVIDIA's FFTs: cuFFT's cufftPlanMany and its execute functions, never
// linked: the types and enum values used are declared here with the
// values of cufft.h (a stable C ABI since CUDA 10), the entry points
// resolved on a cuda device's first FFT from the path in ADJOINT_CUFFT
// (the Python package sets it to the nvidia-cufft wheel's copy) or
// libcufft.so.12 (CUDA 12 and 13), else libcufft.so.11. cuFFT does not
// normalize inverse transforms: cuBLAS's scal (ADJOINT_CUBLAS, Cusolver.h's
// library) divides by the number of points.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUFFT_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUFFT_H

#include "CUDA/Cusolver.h"

namespace adjoint::rt::cuda {

using cufftResult = int32_t;
constexpr cufftResult CUFFT_SUCCESS = 0;
constexpr cufftResult CUFFT_ALLOC_FAILED = 2;
using cufftHandle = int;

enum cufftType : int32_t {
  CUFFT_R2C = 0x2a,
  CUFFT_C2R = 0x2c,
  CUFFT_C2C = 0x29,
  CUFFT_D2Z = 0x6a,
  CUFFT_Z2D = 0x6c,
  CUFFT_Z2Z = 0x69,
};
constexpr int CUFFT_FORWARD = -1, CUFFT_INVERSE = 1;

struct CufftApi {
  /// inembed and onembed null: the basic layout, contiguous transforms one
  /// after the other (istride, idist, ostride and odist are ignored).
  cufftResult (*cufftPlanMany)(cufftHandle *plan, int rank, int *n,
                               int *inembed, int istride, int idist,
                               int *onembed, int ostride, int odist,
                               cufftType type, int batch) = nullptr;
  cufftResult (*cufftSetStream)(cufftHandle plan,
                                cudaStream_t stream) = nullptr;
  cufftResult (*cufftDestroy)(cufftHandle plan) = nullptr;
  /// C2C and Z2Z take a direction; the real ones do not.
  cufftResult (*cufftExecC2C)(cufftHandle plan, void *in, void *out,
                              int direction) = nullptr;
  cufftResult (*cufftExecZ2Z)(cufftHandle plan, void *in, void *out,
                              int direction) = nullptr;
  cufftResult (*cufftExecR2C)(cufftHandle plan, void *in,
                              void *out) = nullptr;
  cufftResult (*cufftExecD2Z)(cufftHandle plan, void *in,
                              void *out) = nullptr;
  /// C2R and Z2D overwrite their input.
  cufftResult (*cufftExecC2R)(cufftHandle plan, void *in,
                              void *out) = nullptr;
  cufftResult (*cufftExecZ2D)(cufftHandle plan, void *in,
                              void *out) = nullptr;
  cublasStatus_t (*cublasCreate_v2)(cublasHandle_t *handle) = nullptr;
  cublasStatus_t (*cublasDestroy_v2)(cublasHandle_t handle) = nullptr;
  cublasStatus_t (*cublasSetStream_v2)(cublasHandle_t handle,
                                       cudaStream_t stream) = nullptr;
  cublasStatus_t (*cublasSscal_v2)(cublasHandle_t handle, int n,
                                   const float *alpha, float *x,
                                   int incx) = nullptr;
  cublasStatus_t (*cublasDscal_v2)(cublasHandle_t handle, int n,
                                   const double *alpha, double *x,
                                   int incx) = nullptr;
};

/// The entry points, loaded once per process; Unavailable naming the
/// libraries when either does not open or lacks an entry point.
Status loadCufft(const CufftApi **api);

/// Success, or an error naming `call` and the result (OutOfMemory for
/// CUFFT_ALLOC_FAILED).
Status checkCufft(cufftResult result, const char *call);

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUFFT_H
