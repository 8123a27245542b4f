//===- HipApi.cpp - libamdhip64 through dlopen ----------------------------===//

#include "HIP/HipApi.h"
#include "DynamicLibrary.h"

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

Status adjoint::rt::hip::loadHip(const HipApi **api) {
  auto resolveAll = [](const DynamicLibrary &library, HipApi &table) {
    Status status = resolve(library, "hipGetErrorName",
                                 &table.hipGetErrorName);
    if (status.ok())
      status = resolve(library, "hipGetErrorString",
                            &table.hipGetErrorString);
#define ADJ_HIP_FN(name, params)                                               \
  if (status.ok())                                                             \
    status = resolve(library, #name, &table.name);
#define ADJ_HIP_OPTIONAL_FN(name, params)                                      \
  resolveOptional(library, #name, &table.name);
#include "HIP/HipApi.def"
    if (!status.ok())
      return status;
    // A runtime without a GPU (hipErrorNoDevice), or without the amdgpu
    // kernel driver, means no device here, not a failure.
    if (Status init = check(table, table.hipInit(0), "hipInit"); !init.ok())
      return Status::error(StatusCode::Unavailable,
                           "the HIP runtime has no usable GPU: " +
                               init.message());
    return Status::success();
  };
  // The ROCm 6 soname first, then ROCm 5's, then a development link.
  return loadDriver(
      {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"}, resolveAll,
      api);
}

Status adjoint::rt::hip::check(const HipApi &api, hipError_t result,
                               const char *call, const std::string &context) {
  if (result == hipSuccess)
    return Status::success();
  const char *name = api.hipGetErrorName(result);
  const char *text = api.hipGetErrorString(result);
  return Status::error(result == hipErrorOutOfMemory ? StatusCode::OutOfMemory
                                                     : StatusCode::Internal,
                       std::string(name ? name : "hipError") + " (" +
                           std::to_string(result) + ": " +
                           (text ? text : "unknown error") + ") in " + call +
                           context);
}
