//===- Rocsolver.cpp - librocsolver through dlopen ------------------------===//

#include "HIP/Rocsolver.h"
#include "GPU/DynamicLibrary.h"

#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {

template <typename T>
Status resolveRoutines(const gpu::DynamicLibrary &library,
                       RocsolverRoutines<T> &table) {
  const char *letter = sizeof(T) == sizeof(float) ? "s" : "d";
  Status status;
#define ADJ_ROCSOLVER_FN(prefix, name, params)                                 \
  if (status.ok())                                                             \
    status = gpu::resolve(                                                     \
        library, (std::string(#prefix) + letter + #name).c_str(),              \
        &table.name);
#include "HIP/Rocsolver.def"
  return status;
}

Status resolveAll(const gpu::DynamicLibrary &library, RocsolverApi &table) {
  gpu::resolveOptional(library, "rocblas_status_to_string",
                       &table.rocblas_status_to_string);
  for (Status status :
       {gpu::resolve(library, "rocblas_create_handle",
                     &table.rocblas_create_handle),
        gpu::resolve(library, "rocblas_destroy_handle",
                     &table.rocblas_destroy_handle),
        gpu::resolve(library, "rocblas_set_stream", &table.rocblas_set_stream),
        resolveRoutines(library, table.s), resolveRoutines(library, table.d)})
    if (!status.ok())
      return status;
  return Status::success();
}

} // namespace

Status adjoint::rt::hip::loadRocsolver(const RocsolverApi **api) {
  return gpu::loadDriver({"librocsolver.so.0", "librocsolver.so"}, resolveAll,
                         api);
}
