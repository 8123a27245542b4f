//===- LevelZeroApi.cpp - libze_loader.so.1 through dlopen ----------------===//

#include "LevelZero/LevelZeroApi.h"
#include "DynamicLibrary.h"

#include <cstdio>

using namespace adjoint::rt;
using namespace adjoint::rt::levelzero;

Status adjoint::rt::levelzero::loadLevelZero(const LevelZeroApi **api) {
  auto resolveAll = [](const DynamicLibrary &library,
                       LevelZeroApi &table) {
    Status status;
#define ADJ_ZE_FN(name, params)                                                \
  if (status.ok())                                                             \
    status = resolve(library, #name, &table.name);
#include "LevelZero/LevelZeroApi.def"
    if (status.ok())
      status = check(table.zeInit(ZE_INIT_FLAG_GPU_ONLY), "zeInit");
    // A loader without a usable driver means no device, not a failure.
    if (!status.ok())
      status = Status::error(StatusCode::Unavailable, status.message());
    return status;
  };
  return loadDriver({"libze_loader.so.1"}, resolveAll, api);
}

namespace {
const char *resultName(ze_result_t result) {
  switch (result) {
  case 0x1:
    return "ZE_RESULT_NOT_READY";
  case 0x70000001:
    return "ZE_RESULT_ERROR_DEVICE_LOST";
  case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
    return "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
  case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
    return "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";
  case 0x70000004:
    return "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";
  case 0x70000005:
    return "ZE_RESULT_ERROR_MODULE_LINK_FAILURE";
  case 0x78000001:
    return "ZE_RESULT_ERROR_UNINITIALIZED";
  case 0x78000003:
    return "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
  case 0x78000004:
    return "ZE_RESULT_ERROR_INVALID_ARGUMENT";
  case 0x78000011:
    return "ZE_RESULT_ERROR_INVALID_KERNEL_NAME";
  case 0x78000013:
    return "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION";
  case 0x78000015:
    return "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX";
  case 0x78000016:
    return "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE";
  case 0x7ffffffe:
    return "ZE_RESULT_ERROR_UNKNOWN";
  }
  return "ZE_RESULT_ERROR";
}
} // namespace

Status adjoint::rt::levelzero::check(ze_result_t result, const char *call,
                                     const std::string &context) {
  if (result == ZE_RESULT_SUCCESS)
    return Status::success();
  char code[16];
  std::snprintf(code, sizeof(code), "0x%x", result);
  bool memory = result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
                result == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  return Status::error(memory ? StatusCode::OutOfMemory : StatusCode::Internal,
                       std::string(resultName(result)) + " (" + code +
                           ") in " + call + context);
}
