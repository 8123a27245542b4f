//===- Rocblas.h - librocblas through dlopen --------------------*- C++ -*-===//
//
// AMD's GEMMs: rocBLAS's rocblas_gemm_strided_batched_ex, whose C ABI has
// stayed the same from ROCm 5 to 6 (hipBLASLt's compute-type enums and
// heuristic structures changed between ROCm 6 releases, so it is not used).
// The types and constants used are declared here with rocblas-types.h's
// values; the entry points (Rocblas.def) are resolved from librocblas on
// the first GEMM of a HIP device.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_ROCBLAS_H
#define ADJOINT_LIB_RUNTIME_HIP_ROCBLAS_H

#include "HIP/HipApi.h"

namespace adjoint::rt::hip {

using rocblas_status = int;
constexpr rocblas_status rocblas_status_success = 0;
using rocblas_handle = struct _rocblas_handle *;

enum rocblas_operation : int {
  rocblas_operation_none = 111,
  rocblas_operation_transpose = 112,
};

enum rocblas_datatype : int {
  rocblas_datatype_f16_r = 150,
  rocblas_datatype_f32_r = 151,
  rocblas_datatype_f64_r = 152,
};

enum rocblas_gemm_algo : int {
  rocblas_gemm_algo_standard = 0,
};

/// rocblas_atomics_mode: rocBLAS before 4.0 (ROCm 6.0) lets kernels
/// accumulate with atomics by default, so results differ from run to run.
constexpr int rocblas_atomics_not_allowed = 0;

struct RocblasApi {
  /// Optional (rocBLAS 2.x and later): the status's name.
  const char *(*rocblas_status_to_string)(rocblas_status status) = nullptr;
  /// Optional: set to rocblas_atomics_not_allowed on every handle.
  rocblas_status (*rocblas_set_atomics_mode)(rocblas_handle handle,
                                             int mode) = nullptr;
  /// Optional (rocBLAS 2.x and later): the device workspace of a handle,
  /// the device's library workspace on every handle.
  rocblas_status (*rocblas_set_workspace)(rocblas_handle handle, void *block,
                                          size_t bytes) = nullptr;
#define ADJ_ROCBLAS_FN(name, params) rocblas_status(*name) params = nullptr;
#include "HIP/Rocblas.def"
};

/// The process's table: librocblas.so.4 (ROCm 6), else .so.3 (ROCm 5.6+),
/// else .so.0 (ROCm 5.0-5.5, Debian's librocblas0), else the unversioned
/// name, loaded on first call; Unavailable with the reason otherwise, and
/// when the rocBLAS found runs on another HIP runtime than the device's
/// (a ROCm 5 rocBLAS next to ROCm 6's libamdhip64: two HIP runtimes in one
/// process, our streams unknown to the one rocBLAS uses).
Status loadRocblas(const RocblasApi **api);

/// Ok for rocblas_status_success; otherwise "rocblas_status_invalid_size
/// (4) in <call>" (Internal), the name from `toString` where the library
/// has it.
Status checkRocblas(const char *(*toString)(rocblas_status),
                    rocblas_status status, const char *call);
inline Status checkRocblas(const RocblasApi &api, rocblas_status status,
                           const char *call) {
  return checkRocblas(api.rocblas_status_to_string, status, call);
}

/// Makes `*handle` with `api`'s rocBLAS entry points (a table with
/// rocblas_create_handle, rocblas_set_stream and the optional
/// rocblas_status_to_string) and binds it to `stream`, unless it is made
/// already.
template <typename Api>
Status ensureRocblasHandle(const Api &api, hipStream_t stream,
                           rocblas_handle *handle) {
  if (*handle)
    return Status::success();
  if (Status status = checkRocblas(api.rocblas_status_to_string,
                                   api.rocblas_create_handle(handle),
                                   "rocblas_create_handle");
      !status.ok())
    return status;
  return checkRocblas(api.rocblas_status_to_string,
                      api.rocblas_set_stream(*handle, stream),
                      "rocblas_set_stream");
}

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_ROCBLAS_H
