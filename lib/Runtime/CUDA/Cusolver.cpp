//===- Cusolver.cpp - libcusolver and libcublas through dlopen ------------===//

#include "CUDA/Cusolver.h"
#include "DynamicLibrary.h"

#include <iterator>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {

/// `prefix` + the type letter of T + `name`, whose orgqr and syevd are
/// ungqr and heevd for complex T.
template <typename T>
std::string typed(const char *prefix, const char *name) {
  std::string routine = name;
  if constexpr (!std::is_floating_point_v<T>)
    for (auto [real, complex] : {std::pair<std::string, std::string>{
                                     "orgqr", "ungqr"},
                                 {"syevd", "heevd"}})
      if (routine.rfind(real, 0) == 0)
        routine = complex + routine.substr(real.size());
  char letter = std::is_same_v<T, float>                 ? 'S'
                : std::is_same_v<T, double>              ? 'D'
                : std::is_same_v<T, std::complex<float>> ? 'C'
                                                         : 'Z';
  return std::string(prefix) + letter + routine;
}

template <typename T>
Status resolveRoutines(const DynamicLibrary &cusolver,
                       const DynamicLibrary &cublas,
                       CusolverRoutines<T> &table) {
  Status status;
#define ADJ_CUSOLVER_FN(name, params)                                          \
  if (status.ok())                                                             \
    status = resolve(cusolver, typed<T>("cusolverDn", #name).c_str(),    \
                          &table.name);
#include "CUDA/Cusolver.def"
  if (status.ok())
    status = resolve(cublas, typed<T>("cublas", "trsm_v2").c_str(),
                          &table.trsm);
  return status;
}

Status resolveAll(const DynamicLibrary &cusolver,
                  const DynamicLibrary &cublas, CusolverApi &table) {
  for (Status status :
       {resolve(cusolver, "cusolverDnCreate", &table.cusolverDnCreate),
        resolve(cusolver, "cusolverDnDestroy", &table.cusolverDnDestroy),
        resolve(cusolver, "cusolverDnSetStream",
                     &table.cusolverDnSetStream),
        resolve(cublas, "cublasCreate_v2", &table.cublasCreate_v2),
        resolve(cublas, "cublasDestroy_v2", &table.cublasDestroy_v2),
        resolve(cublas, "cublasSetStream_v2", &table.cublasSetStream_v2),
        resolveRoutines(cusolver, cublas, table.s),
        resolveRoutines(cusolver, cublas, table.d),
        resolveRoutines(cusolver, cublas, table.c),
        resolveRoutines(cusolver, cublas, table.z)})
    if (!status.ok())
      return status;
  return Status::success();
}

} // namespace

Status adjoint::rt::cuda::loadCusolver(const CusolverApi **api) {
  // Paths first (the Python package sets them to the nvidia-cusolver and
  // nvidia-cublas wheels' copies, which no library path names), then CUDA
  // 13's sonames, then CUDA 12's (the driver runs either).
  static CusolverApi table;
  static Status status;
  static std::once_flag once;
  std::call_once(once, [] {
    static DynamicLibrary cusolver, cublas;
    status = cublas.openOverridable("cuBLAS", "ADJOINT_CUBLAS",
                                    {"libcublas.so.13", "libcublas.so.12"});
    if (status.ok())
      status = cusolver.openOverridable(
          "cuSOLVER", "ADJOINT_CUSOLVER",
          {"libcusolver.so.12", "libcusolver.so.11"});
    if (status.ok())
      status = resolveAll(cusolver, cublas, table);
  });
  *api = &table;
  return status;
}

Status adjoint::rt::cuda::checkCusolver(cusolverStatus_t status,
                                        const char *call) {
  static const char *const kNames[] = {
      "CUSOLVER_STATUS_SUCCESS",          "CUSOLVER_STATUS_NOT_INITIALIZED",
      "CUSOLVER_STATUS_ALLOC_FAILED",     "CUSOLVER_STATUS_INVALID_VALUE",
      "CUSOLVER_STATUS_ARCH_MISMATCH",    "CUSOLVER_STATUS_MAPPING_ERROR",
      "CUSOLVER_STATUS_EXECUTION_FAILED", "CUSOLVER_STATUS_INTERNAL_ERROR",
      "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
      "CUSOLVER_STATUS_NOT_SUPPORTED"};
  if (status == CUSOLVER_STATUS_SUCCESS)
    return Status::success();
  const char *name = status > 0 && status < int(std::size(kNames))
                         ? kNames[status]
                         : "CUSOLVER_STATUS_ERROR";
  return Status::error(status == CUSOLVER_STATUS_ALLOC_FAILED
                           ? StatusCode::OutOfMemory
                           : StatusCode::Internal,
                       std::string(name) + " (" + std::to_string(status) +
                           ") in " + call);
}
