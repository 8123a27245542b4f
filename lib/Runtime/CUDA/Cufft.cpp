//===- Cufft.cpp - libcufft through dlopen --------------------------------===//

#include "CUDA/Cufft.h"
#include "DynamicLibrary.h"

#include <mutex>
#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {

Status resolveAll(const DynamicLibrary &cufft,
                  const DynamicLibrary &cublas, CufftApi &t) {
  for (Status status :
       {resolve(cufft, "cufftPlanMany", &t.cufftPlanMany),
        resolve(cufft, "cufftSetStream", &t.cufftSetStream),
        resolve(cufft, "cufftDestroy", &t.cufftDestroy),
        resolve(cufft, "cufftExecC2C", &t.cufftExecC2C),
        resolve(cufft, "cufftExecZ2Z", &t.cufftExecZ2Z),
        resolve(cufft, "cufftExecR2C", &t.cufftExecR2C),
        resolve(cufft, "cufftExecD2Z", &t.cufftExecD2Z),
        resolve(cufft, "cufftExecC2R", &t.cufftExecC2R),
        resolve(cufft, "cufftExecZ2D", &t.cufftExecZ2D),
        resolve(cublas, "cublasCreate_v2", &t.cublasCreate_v2),
        resolve(cublas, "cublasDestroy_v2", &t.cublasDestroy_v2),
        resolve(cublas, "cublasSetStream_v2", &t.cublasSetStream_v2),
        resolve(cublas, "cublasSscal_v2", &t.cublasSscal_v2),
        resolve(cublas, "cublasDscal_v2", &t.cublasDscal_v2)})
    if (!status.ok())
      return status;
  return Status::success();
}

} // namespace

Status adjoint::rt::cuda::loadCufft(const CufftApi **api) {
  static CufftApi table;
  static Status status;
  static std::once_flag once;
  std::call_once(once, [] {
    static DynamicLibrary cufft, cublas;
    status = cublas.openOverridable("cuBLAS", "ADJOINT_CUBLAS",
                                    {"libcublas.so.13", "libcublas.so.12"});
    if (status.ok())
      status = cufft.openOverridable("cuFFT", "ADJOINT_CUFFT",
                                     {"libcufft.so.12", "libcufft.so.11"});
    if (status.ok())
      status = resolveAll(cufft, cublas, table);
  });
  *api = &table;
  return status;
}

Status adjoint::rt::cuda::checkCufft(cufftResult result, const char *call) {
  if (result == CUFFT_SUCCESS)
    return Status::success();
  return Status::error(result == CUFFT_ALLOC_FAILED ? StatusCode::OutOfMemory
                                                    : StatusCode::Internal,
                       "cufftResult " + std::to_string(result) + " in " +
                           call);
}
