//===- CublasLt.h - libcublasLt through dlopen ------------------*- C++ -*-===//
//
// cuBLASLt, NVIDIA's GEMM library, is never linked: the few types and enum
// values the runtime uses are declared here with the values of cublasLt.h
// and cublas_api.h (CUDA 12 and 13; a stable C ABI), and the entry points
// are resolved at run time (CublasLt.def) from libcublasLt.so.13 (the
// nvidia-cublas wheel or a CUDA 13 install), else libcublasLt.so.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUBLASLT_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUBLASLT_H

#include "CUDA/CudaApi.h"
#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>

namespace adjoint::rt::cuda {

using cublasStatus_t = int32_t;
constexpr cublasStatus_t CUBLAS_STATUS_SUCCESS = 0;
constexpr cublasStatus_t CUBLAS_STATUS_ALLOC_FAILED = 3;

// Opaque handles.
using cublasLtHandle_t = struct CublasLtContext *;
using cublasLtMatmulDesc_t = struct CublasLtMatmulDescOpaque *;
using cublasLtMatrixLayout_t = struct CublasLtMatrixLayoutOpaque *;
using cublasLtMatmulPreference_t = struct CublasLtMatmulPreferenceOpaque *;
/// The runtime API's name of the driver's stream.
using cudaStream_t = CUstream;

enum cudaDataType_t : int32_t {
  CUDA_R_32F = 0,
  CUDA_R_64F = 1,
  CUDA_R_16F = 2,
};

enum cublasComputeType_t : int32_t {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_64F = 70,
  /// f32 with inputs rounded to TF32 on tensor cores.
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
};

enum cublasOperation_t : int32_t {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
};

enum cublasLtMatmulDescAttributes_t : int32_t {
  CUBLASLT_MATMUL_DESC_TRANSA = 3, // int32_t cublasOperation_t
  CUBLASLT_MATMUL_DESC_TRANSB = 4,
};

enum cublasLtMatrixLayoutAttribute_t : int32_t {
  CUBLASLT_MATRIX_LAYOUT_ORDER = 1,                // int32_t, column default
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,          // int32_t
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6, // int64_t, elements
};

enum cublasLtMatmulPreferenceAttributes_t : int32_t {
  CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1, // uint64_t
  /// The alignment the algorithm may assume of each matrix's address
  /// (uint32_t bytes, 256 by default).
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7,
  CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8,
};

struct cublasLtMatmulAlgo_t {
  uint64_t data[8];
};

struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int32_t reserved[4];
};

/// The resolved entry points.
struct CublasLtApi {
#define ADJ_CUBLASLT_FN(name, params) cublasStatus_t(*name) params = nullptr;
#include "CUDA/CublasLt.def"
#undef ADJ_CUBLASLT_FN
};

/// The entry points, loaded once per process; Unavailable naming both
/// libraries when neither opens or one lacks an entry point.
Status loadCublasLt(const CublasLtApi **api);

/// Success, or an error naming `call` and the status (OutOfMemory for
/// CUBLAS_STATUS_ALLOC_FAILED).
Status checkCublas(cublasStatus_t status, const char *call);

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUBLASLT_H
