//===- LevelZeroApi.h - libze_loader.so.1 through dlopen --------*- C++ -*-===//
//
// Neither Debian nor PyPI ships Level Zero's headers, so the few types and
// constants the runtime uses are declared here, with the layouts and values
// of the Level Zero specification (a stable C ABI; 1.x). Entry points are
// resolved from the loader at run time (LevelZeroApi.def).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_LEVELZERO_LEVELZEROAPI_H
#define ADJOINT_LIB_RUNTIME_LEVELZERO_LEVELZEROAPI_H

#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace adjoint::rt::levelzero {

/// Result codes: 0 is success; errors are 0x7000xxxx and 0x7800xxxx.
using ze_result_t = uint32_t;
constexpr ze_result_t ZE_RESULT_SUCCESS = 0;
constexpr ze_result_t ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY = 0x70000002;
constexpr ze_result_t ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY = 0x70000003;

// Opaque handles.
using ze_driver_handle_t = struct ZeDriver *;
using ze_device_handle_t = struct ZeDevice *;
using ze_context_handle_t = struct ZeContext *;
using ze_command_list_handle_t = struct ZeCommandList *;
using ze_module_handle_t = struct ZeModule *;
using ze_module_build_log_handle_t = struct ZeModuleBuildLog *;
using ze_kernel_handle_t = struct ZeKernel *;
using ze_event_handle_t = struct ZeEvent *;

/// The `stype` tag of each descriptor and property struct below.
enum ze_structure_type_t : uint32_t {
  ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES = 0x3,
  ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES = 0x4,
  ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES = 0x5,
  ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES = 0x7,
  ZE_STRUCTURE_TYPE_CONTEXT_DESC = 0xd,
  ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC = 0xe,
  ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC = 0x15,
  ZE_STRUCTURE_TYPE_MODULE_DESC = 0x1b,
  ZE_STRUCTURE_TYPE_KERNEL_DESC = 0x1d,
};

constexpr uint32_t ZE_INIT_FLAG_GPU_ONLY = 1;
constexpr uint32_t ZE_COMMAND_QUEUE_FLAG_IN_ORDER = 1u << 1;
constexpr uint32_t ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS = 2;
constexpr uint32_t ZE_MODULE_FORMAT_IL_SPIRV = 0;
constexpr uint32_t ZE_DEVICE_MODULE_FLAG_FP16 = 1u << 0;
constexpr uint32_t ZE_DEVICE_MODULE_FLAG_FP64 = 1u << 1;

struct ze_device_properties_t {
  ze_structure_type_t stype;
  void *pNext;
  uint32_t type;
  uint32_t vendorId;
  uint32_t deviceId;
  uint32_t flags;
  uint32_t subdeviceId;
  uint32_t coreClockRate;
  uint64_t maxMemAllocSize;
  uint32_t maxHardwareContexts;
  uint32_t maxCommandQueuePriority;
  uint32_t numThreadsPerEU;
  uint32_t physicalEUSimdWidth;
  uint32_t numEUsPerSubslice;
  uint32_t numSubslicesPerSlice;
  uint32_t numSlices;
  uint64_t timerResolution;
  uint32_t timestampValidBits;
  uint32_t kernelTimestampValidBits;
  uint8_t uuid[16];
  char name[256];
};

struct ze_device_compute_properties_t {
  ze_structure_type_t stype;
  void *pNext;
  uint32_t maxTotalGroupSize;
  uint32_t maxGroupSizeX, maxGroupSizeY, maxGroupSizeZ;
  uint32_t maxGroupCountX, maxGroupCountY, maxGroupCountZ;
  uint32_t maxSharedLocalMemory;
  uint32_t numSubGroupSizes;
  uint32_t subGroupSizes[8];
};

struct ze_device_module_properties_t {
  ze_structure_type_t stype;
  void *pNext;
  uint32_t spirvVersionSupported;
  uint32_t flags;
  uint32_t fp16flags, fp32flags, fp64flags;
  uint32_t maxArgumentsSize;
  uint32_t printfBufferSize;
  uint8_t nativeKernelSupported[16];
};

struct ze_device_memory_properties_t {
  ze_structure_type_t stype;
  void *pNext;
  uint32_t flags;
  uint32_t maxClockRate;
  uint32_t maxBusWidth;
  uint64_t totalSize;
  char name[256];
};

struct ze_context_desc_t {
  ze_structure_type_t stype;
  const void *pNext;
  uint32_t flags;
};

struct ze_command_queue_desc_t {
  ze_structure_type_t stype;
  const void *pNext;
  uint32_t ordinal;
  uint32_t index;
  uint32_t flags;
  uint32_t mode;
  uint32_t priority;
};

struct ze_device_mem_alloc_desc_t {
  ze_structure_type_t stype;
  const void *pNext;
  uint32_t flags;
  uint32_t ordinal;
};

struct ze_module_desc_t {
  ze_structure_type_t stype;
  const void *pNext;
  uint32_t format;
  size_t inputSize;
  const uint8_t *pInputModule;
  const char *pBuildFlags;
  const void *pConstants;
};

struct ze_kernel_desc_t {
  ze_structure_type_t stype;
  const void *pNext;
  uint32_t flags;
  const char *pKernelName;
};

struct ze_group_count_t {
  uint32_t groupCountX, groupCountY, groupCountZ;
};

struct LevelZeroApi {
#define ADJ_ZE_FN(name, params) ze_result_t (*name) params = nullptr;
#include "LevelZero/LevelZeroApi.def"
};

/// The process's table, loaded and zeInit-ed on first call; Unavailable
/// with the reason ("libze_loader.so.1 not found (...)") otherwise.
Status loadLevelZero(const LevelZeroApi **api);

/// "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE (0x70000004) in zeModuleCreate
/// <context>"; OutOfMemory for the memory errors, Internal for the rest.
Status check(ze_result_t result, const char *call,
             const std::string &context = "");

} // namespace adjoint::rt::levelzero

#endif // ADJOINT_LIB_RUNTIME_LEVELZERO_LEVELZEROAPI_H
