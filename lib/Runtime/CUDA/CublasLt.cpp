//===- CublasLt.cpp - libcublasLt through dlopen --------------------------===//

#include "CUDA/CublasLt.h"
#include "DynamicLibrary.h"

#include <mutex>
#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {

Status resolveAll(const DynamicLibrary &library, CublasLtApi &table) {
  Status status;
#define ADJ_CUBLASLT_FN(name, params)                                          \
  if (status.ok())                                                             \
    status = resolve(library, #name, &table.name);
#include "CUDA/CublasLt.def"
#undef ADJ_CUBLASLT_FN
  return status;
}

} // namespace

Status adjoint::rt::cuda::loadCublasLt(const CublasLtApi **api) {
  // The path in ADJOINT_CUBLASLT first (the Python package sets it to the
  // nvidia-cublas wheel's copy, which no library path names), then CUDA
  // 13's soname (what the driver of the device runs), then whatever the
  // unversioned name is (a system install, a development link).
  static CublasLtApi table;
  static Status status;
  static std::once_flag once;
  std::call_once(once, [] {
    static DynamicLibrary library;
    status = library.openOverridable("cuBLASLt", "ADJOINT_CUBLASLT",
                                     {"libcublasLt.so.13", "libcublasLt.so"});
    if (status.ok())
      status = resolveAll(library, table);
  });
  *api = &table;
  return status;
}

Status adjoint::rt::cuda::checkCublas(cublasStatus_t status,
                                      const char *call) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return Status::success();
  const char *name = "CUBLAS_STATUS_ERROR";
  switch (status) {
  case 1:
    name = "CUBLAS_STATUS_NOT_INITIALIZED";
    break;
  case CUBLAS_STATUS_ALLOC_FAILED:
    name = "CUBLAS_STATUS_ALLOC_FAILED";
    break;
  case 7:
    name = "CUBLAS_STATUS_INVALID_VALUE";
    break;
  case 8:
    name = "CUBLAS_STATUS_ARCH_MISMATCH";
    break;
  case 13:
    name = "CUBLAS_STATUS_EXECUTION_FAILED";
    break;
  case 14:
    name = "CUBLAS_STATUS_INTERNAL_ERROR";
    break;
  case 15:
    name = "CUBLAS_STATUS_NOT_SUPPORTED";
    break;
  }
  return Status::error(status == CUBLAS_STATUS_ALLOC_FAILED
                           ? StatusCode::OutOfMemory
                           : StatusCode::Internal,
                       std::string(name) + " (" + std::to_string(status) +
                           ") in " + call);
}
