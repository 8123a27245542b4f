//===- Rocblas.cpp - librocblas through dlopen ----------------------------===//

#include "HIP/Rocblas.h"
#include "DynamicLibrary.h"

#include <dlfcn.h>
#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
/// Whether the process now holds ROCm 5's and ROCm 6's HIP runtimes.
bool twoHipRuntimes() {
  void *five = dlopen("libamdhip64.so.5", RTLD_NOW | RTLD_NOLOAD);
  void *six = dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_NOLOAD);
  bool both = five && six;
  // NOLOAD opens add a reference to what is loaded: give it back.
  for (void *handle : {five, six})
    if (handle)
      dlclose(handle);
  return both;
}
} // namespace

Status adjoint::rt::hip::loadRocblas(const RocblasApi **api) {
  auto resolveAll = [](const DynamicLibrary &library, RocblasApi &table) {
    resolveOptional(library, "rocblas_status_to_string",
                         &table.rocblas_status_to_string);
    resolveOptional(library, "rocblas_set_atomics_mode",
                         &table.rocblas_set_atomics_mode);
    resolveOptional(library, "rocblas_set_workspace",
                    &table.rocblas_set_workspace);
    Status status;
#define ADJ_ROCBLAS_FN(name, params)                                           \
  if (status.ok())                                                             \
    status = resolve(library, #name, &table.name);
#include "HIP/Rocblas.def"
    if (status.ok() && twoHipRuntimes())
      status = Status::error(
          StatusCode::Unavailable,
          "rocBLAS (" + library.soname() +
              ") was built for another HIP runtime than the device's: both "
              "libamdhip64.so.5 and libamdhip64.so.6 are loaded");
    return status;
  };
  return loadDriver({"librocblas.so.4", "librocblas.so.3",
                          "librocblas.so.0", "librocblas.so"},
                         resolveAll, api);
}

Status adjoint::rt::hip::checkRocblas(const char *(*toString)(rocblas_status),
                                      rocblas_status status,
                                      const char *call) {
  if (status == rocblas_status_success)
    return Status::success();
  const char *name = toString ? toString(status) : nullptr;
  return Status::error(StatusCode::Internal,
                       std::string(name ? name : "rocblas_status") + " (" +
                           std::to_string(status) + ") in " + call);
}
