//===- Rocfft.cpp - librocfft through dlopen ------------------------------===//

#include "HIP/Rocfft.h"
#include "DynamicLibrary.h"

#include <mutex>
#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {

Status resolveAll(const DynamicLibrary &fft,
                  const DynamicLibrary &blas, RocfftApi &t) {
  resolveOptional(blas, "rocblas_status_to_string",
                       &t.rocblas_status_to_string);
  for (Status status :
       {resolve(fft, "rocfft_setup", &t.rocfft_setup),
        resolve(fft, "rocfft_plan_create", &t.rocfft_plan_create),
        resolve(fft, "rocfft_plan_get_work_buffer_size",
                     &t.rocfft_plan_get_work_buffer_size),
        resolve(fft, "rocfft_plan_destroy", &t.rocfft_plan_destroy),
        resolve(fft, "rocfft_execution_info_create",
                     &t.rocfft_execution_info_create),
        resolve(fft, "rocfft_execution_info_destroy",
                     &t.rocfft_execution_info_destroy),
        resolve(fft, "rocfft_execution_info_set_stream",
                     &t.rocfft_execution_info_set_stream),
        resolve(fft, "rocfft_execution_info_set_work_buffer",
                     &t.rocfft_execution_info_set_work_buffer),
        resolve(fft, "rocfft_execute", &t.rocfft_execute),
        resolve(blas, "rocblas_create_handle", &t.rocblas_create_handle),
        resolve(blas, "rocblas_destroy_handle",
                     &t.rocblas_destroy_handle),
        resolve(blas, "rocblas_set_stream", &t.rocblas_set_stream),
        resolve(blas, "rocblas_sscal", &t.rocblas_sscal),
        resolve(blas, "rocblas_dscal", &t.rocblas_dscal)})
    if (!status.ok())
      return status;
  return checkRocfft(t.rocfft_setup(), "rocfft_setup");
}

} // namespace

Status adjoint::rt::hip::loadRocfft(const RocfftApi **api) {
  static RocfftApi table;
  static Status status;
  static std::once_flag once;
  std::call_once(once, [] {
    static DynamicLibrary fft, blas;
    // rocBLAS as the GEMMs find it (Rocblas.cpp), newest first.
    status = blas.openFirst({"librocblas.so.4", "librocblas.so.3",
                             "librocblas.so.0", "librocblas.so"});
    if (status.ok())
      status = fft.openFirst({"librocfft.so.0", "librocfft.so"});
    if (status.ok())
      status = resolveAll(fft, blas, table);
  });
  *api = &table;
  return status;
}

Status adjoint::rt::hip::checkRocfft(rocfft_status status, const char *call) {
  if (status == rocfft_status_success)
    return Status::success();
  return Status::error(StatusCode::Internal, "rocfft_status " +
                                                 std::to_string(status) +
                                                 " in " + call);
}
