//===- CudaApi.cpp - libcuda.so.1 through dlopen --------------------------===//

#include "CUDA/CudaApi.h"
#include "DynamicLibrary.h"

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

Status adjoint::rt::cuda::loadCuda(const CudaApi **api) {
  auto resolveAll = [](const DynamicLibrary &library, CudaApi &table) {
    Status status;
#define ADJ_CUDA_FN(name, params)                                              \
  if (status.ok())                                                             \
    status = resolve(library, #name, &table.name);
#define ADJ_CUDA_OPTIONAL_FN(name, params)                                     \
  resolveOptional(library, #name, &table.name);
#include "CUDA/CudaApi.def"
    if (!status.ok())
      return status;
    // A driver without a GPU (CUDA_ERROR_NO_DEVICE) or whose kernel module
    // is not loaded means no device here, not a failure.
    if (Status init = check(table, table.cuInit(0), "cuInit"); !init.ok())
      return Status::error(StatusCode::Unavailable,
                           "the CUDA driver has no usable GPU: " +
                               init.message());
    return Status::success();
  };
  return loadDriver({"libcuda.so.1"}, resolveAll, api);
}

Status adjoint::rt::cuda::check(const CudaApi &api, CUresult result,
                                const char *call, const std::string &context) {
  if (result == CUDA_SUCCESS)
    return Status::success();
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = "CUDA_ERROR";
  if (api.cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = "unknown error";
  return Status::error(result == CUDA_ERROR_OUT_OF_MEMORY
                           ? StatusCode::OutOfMemory
                           : StatusCode::Internal,
                       std::string(name) + " (" + std::to_string(result) +
                           ": " + text + ") in " + call + context);
}
