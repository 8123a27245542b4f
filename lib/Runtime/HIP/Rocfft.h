//===- Rocfft.h - librocfft through dlopen ----------------------*- C++ -*-===//
//
// AMD's FFTs: rocFFT's plans and rocfft_execute, never linked: the types
// and enum values used are declared here with those of rocfft.h (stable
// since ROCm 4), the entry points resolved on a hip device's first FFT
// from librocfft.so.0 (ROCm 5 and 6). rocFFT's way of scaling inverse
// transforms changed between releases (set_scale_factor, then
// set_scale_float/double), so the inverses are divided by the number of
// points with rocBLAS's scal instead, from the rocBLAS the GEMMs use.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_ROCFFT_H
#define ADJOINT_LIB_RUNTIME_HIP_ROCFFT_H

#include "HIP/Rocblas.h"

#include <cstddef>

namespace adjoint::rt::hip {

using rocfft_status = int;
constexpr rocfft_status rocfft_status_success = 0;
using rocfft_plan = struct RocfftPlanOpaque *;
using rocfft_plan_description = struct RocfftPlanDescriptionOpaque *;
using rocfft_execution_info = struct RocfftExecutionInfoOpaque *;

enum rocfft_result_placement : int {
  rocfft_placement_inplace = 0,
  rocfft_placement_notinplace = 1,
};
enum rocfft_transform_type : int {
  rocfft_transform_type_complex_forward = 0,
  rocfft_transform_type_complex_inverse = 1,
  rocfft_transform_type_real_forward = 2,
  rocfft_transform_type_real_inverse = 3,
};
enum rocfft_precision : int {
  rocfft_precision_single = 0,
  rocfft_precision_double = 1,
};

struct RocfftApi {
  rocfft_status (*rocfft_setup)() = nullptr;
  /// lengths fastest-varying first; a null description: contiguous
  /// transforms one after the other.
  rocfft_status (*rocfft_plan_create)(rocfft_plan *plan,
                                      rocfft_result_placement placement,
                                      rocfft_transform_type type,
                                      rocfft_precision precision,
                                      size_t dimensions, const size_t *lengths,
                                      size_t transforms,
                                      rocfft_plan_description description) =
      nullptr;
  rocfft_status (*rocfft_plan_get_work_buffer_size)(rocfft_plan plan,
                                                    size_t *bytes) = nullptr;
  rocfft_status (*rocfft_plan_destroy)(rocfft_plan plan) = nullptr;
  rocfft_status (*rocfft_execution_info_create)(
      rocfft_execution_info *info) = nullptr;
  rocfft_status (*rocfft_execution_info_destroy)(
      rocfft_execution_info info) = nullptr;
  rocfft_status (*rocfft_execution_info_set_stream)(rocfft_execution_info info,
                                                    void *stream) = nullptr;
  rocfft_status (*rocfft_execution_info_set_work_buffer)(
      rocfft_execution_info info, void *buffer, size_t bytes) = nullptr;
  /// Arrays of one pointer each (interleaved data); the input may be
  /// overwritten.
  rocfft_status (*rocfft_execute)(rocfft_plan plan, void **in, void **out,
                                  rocfft_execution_info info) = nullptr;
  /// Optional (rocBLAS 2.x and later).
  const char *(*rocblas_status_to_string)(rocblas_status status) = nullptr;
  rocblas_status (*rocblas_create_handle)(rocblas_handle *handle) = nullptr;
  rocblas_status (*rocblas_destroy_handle)(rocblas_handle handle) = nullptr;
  rocblas_status (*rocblas_set_stream)(rocblas_handle handle,
                                       hipStream_t stream) = nullptr;
  rocblas_status (*rocblas_sscal)(rocblas_handle handle, int n,
                                  const float *alpha, float *x,
                                  int incx) = nullptr;
  rocblas_status (*rocblas_dscal)(rocblas_handle handle, int n,
                                  const double *alpha, double *x,
                                  int incx) = nullptr;
};

/// The entry points, loaded (and rocfft_setup run) once per process;
/// Unavailable with the reason otherwise.
Status loadRocfft(const RocfftApi **api);

/// Success, or an error naming `call` and the status (Internal).
Status checkRocfft(rocfft_status status, const char *call);

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_ROCFFT_H
