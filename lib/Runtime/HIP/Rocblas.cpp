//===- Rocblas.cpp - librocblas through dlopen ----------------------------===//

#include "HIP/Rocblas.h"
#include "GPU/DynamicLibrary.h"

#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

Status adjoint::rt::hip::loadRocblas(const RocblasApi **api) {
  auto resolveAll = [](const gpu::DynamicLibrary &library, RocblasApi &table) {
    table.rocblas_status_to_string =
        reinterpret_cast<decltype(table.rocblas_status_to_string)>(
            library.symbol("rocblas_status_to_string"));
    Status status;
#define ADJ_ROCBLAS_FN(name, params)                                           \
  if (status.ok())                                                             \
    status = gpu::resolve(library, #name, &table.name);
#include "HIP/Rocblas.def"
    return status;
  };
  return gpu::loadDriver(
      {"librocblas.so.4", "librocblas.so.3", "librocblas.so"}, resolveAll,
      api);
}

Status adjoint::rt::hip::checkRocblas(const RocblasApi &api,
                                      rocblas_status status,
                                      const char *call) {
  if (status == rocblas_status_success)
    return Status::success();
  const char *name =
      api.rocblas_status_to_string ? api.rocblas_status_to_string(status)
                                   : nullptr;
  return Status::error(StatusCode::Internal,
                       std::string(name ? name : "rocblas_status") + " (" +
                           std::to_string(status) + ") in " + call);
}
