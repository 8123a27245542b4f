//===- Rocsolver.cpp - librocsolver through dlopen ------------------------===//

#include "HIP/Rocsolver.h"
#include "DynamicLibrary.h"

#include <string>
#include <type_traits>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {

/// The letter of T's routines and `name` under it (orgqr and syevd are
/// ungqr and heevd for complex T).
template <typename T> std::string typed(const char *prefix, const char *name) {
  std::string routine = name;
  if constexpr (!std::is_floating_point_v<T>) {
    if (routine == "orgqr")
      routine = "ungqr";
    else if (routine == "syevd")
      routine = "heevd";
  }
  const char *letter = std::is_same_v<T, float>                 ? "s"
                       : std::is_same_v<T, double>              ? "d"
                       : std::is_same_v<T, std::complex<float>> ? "c"
                                                                : "z";
  return prefix + (letter + routine);
}

template <typename T>
Status resolveRoutines(const DynamicLibrary &library,
                       RocsolverRoutines<T> &table) {
  Status status;
#define ADJ_ROCSOLVER_FN(prefix, name, params)                                 \
  if (status.ok())                                                             \
    status = resolve(library, typed<T>(#prefix, #name).c_str(),          \
                          &table.name);
#include "HIP/Rocsolver.def"
  return status;
}

Status resolveAll(const DynamicLibrary &library, RocsolverApi &table) {
  resolveOptional(library, "rocblas_status_to_string",
                       &table.rocblas_status_to_string);
  for (Status status :
       {resolve(library, "rocblas_create_handle",
                     &table.rocblas_create_handle),
        resolve(library, "rocblas_destroy_handle",
                     &table.rocblas_destroy_handle),
        resolve(library, "rocblas_set_stream", &table.rocblas_set_stream),
        resolveRoutines(library, table.s), resolveRoutines(library, table.d),
        resolveRoutines(library, table.c), resolveRoutines(library, table.z)})
    if (!status.ok())
      return status;
  return Status::success();
}

} // namespace

Status adjoint::rt::hip::loadRocsolver(const RocsolverApi **api) {
  return loadDriver({"librocsolver.so.0", "librocsolver.so"}, resolveAll,
                         api);
}
