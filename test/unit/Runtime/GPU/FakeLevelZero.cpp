//===- FakeLevelZero.cpp - A Level Zero loader on host memory -------------===//
//
// libze_loader.so.1 for the tests of the Level Zero driver on machines
// without Intel GPUs: one device whose memory is host memory, copies and
// fills done at once, modules kept as bytes (a kernel exists when its name
// is in the module), and launches recorded instead of run (fakeZeLaunches)
// so that the tests can check what the driver passed: group counts and
// sizes, argument sizes and values. It checks the `stype` of every
// descriptor it takes, as the real loader's validation layer does.
//
//===----------------------------------------------------------------------===//

#include "FakeLevelZero.h"
#include "LevelZero/LevelZeroApi.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace adjoint::rt::levelzero;

namespace {
constexpr ze_result_t kInvalidArgument = 0x78000004;
constexpr ze_result_t kInvalidKernelName = 0x78000011;
constexpr ze_result_t kBuildFailure = 0x70000004;

struct Module {
  std::string bytes;
};
struct Kernel {
  std::string name;
  uint32_t group[3] = {1, 1, 1};
  std::vector<std::string> args;
};
/// Handles are pointers to these; the fake never frees them (a test
/// process is short).
int gDriver, gDevice, gContext, gList;

ze_driver_handle_t driverHandle() {
  return reinterpret_cast<ze_driver_handle_t>(&gDriver);
}
ze_device_handle_t deviceHandle() {
  return reinterpret_cast<ze_device_handle_t>(&gDevice);
}
std::vector<FakeZeLaunch> &launches() {
  static std::vector<FakeZeLaunch> journal;
  return journal;
}
} // namespace

extern "C" {

void *fakeZeLaunches() { return &launches(); }

ze_result_t zeInit(uint32_t) { return ZE_RESULT_SUCCESS; }

ze_result_t zeDriverGet(uint32_t *count, ze_driver_handle_t *drivers) {
  if (drivers && *count >= 1)
    drivers[0] = driverHandle();
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGet(ze_driver_handle_t, uint32_t *count,
                        ze_device_handle_t *devices) {
  if (devices && *count >= 1)
    devices[0] = deviceHandle();
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetProperties(ze_device_handle_t,
                                  ze_device_properties_t *p) {
  if (p->stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES)
    return kInvalidArgument;
  p->vendorId = 0x8086;
  p->numSlices = 2;
  p->numSubslicesPerSlice = 4;
  p->numEUsPerSubslice = 8;
  std::strcpy(p->name, "Fake Level Zero GPU");
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetComputeProperties(ze_device_handle_t,
                                         ze_device_compute_properties_t *p) {
  if (p->stype != ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES)
    return kInvalidArgument;
  p->maxTotalGroupSize = 512;
  p->maxGroupSizeX = p->maxGroupSizeY = 512;
  p->maxGroupSizeZ = 64;
  p->maxSharedLocalMemory = 65536;
  p->numSubGroupSizes = 3;
  p->subGroupSizes[0] = 32;
  p->subGroupSizes[1] = 8;
  p->subGroupSizes[2] = 16;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetModuleProperties(ze_device_handle_t,
                                        ze_device_module_properties_t *p) {
  if (p->stype != ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES)
    return kInvalidArgument;
  p->flags = ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t, uint32_t *count,
                                        ze_device_memory_properties_t *p) {
  if (p && *count >= 1) {
    if (p->stype != ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES)
      return kInvalidArgument;
    p->totalSize = uint64_t(1) << 30;
  }
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeContextCreate(ze_driver_handle_t driver,
                            const ze_context_desc_t *desc,
                            ze_context_handle_t *context) {
  if (driver != driverHandle() || desc->stype != ZE_STRUCTURE_TYPE_CONTEXT_DESC)
    return kInvalidArgument;
  *context = reinterpret_cast<ze_context_handle_t>(&gContext);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListCreateImmediate(ze_context_handle_t,
                                         ze_device_handle_t device,
                                         const ze_command_queue_desc_t *desc,
                                         ze_command_list_handle_t *list) {
  // The runtime relies on an in-order queue.
  if (device != deviceHandle() ||
      desc->stype != ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC ||
      !(desc->flags & ZE_COMMAND_QUEUE_FLAG_IN_ORDER))
    return kInvalidArgument;
  *list = reinterpret_cast<ze_command_list_handle_t>(&gList);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListHostSynchronize(ze_command_list_handle_t, uint64_t) {
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t,
                                          void *dst, const void *src,
                                          size_t size, ze_event_handle_t,
                                          uint32_t, ze_event_handle_t *) {
  std::memmove(dst, src, size);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t,
                                          void *dst, const void *pattern,
                                          size_t patternSize, size_t size,
                                          ze_event_handle_t, uint32_t,
                                          ze_event_handle_t *) {
  for (size_t i = 0; i < size; ++i)
    static_cast<char *>(dst)[i] =
        static_cast<const char *>(pattern)[i % patternSize];
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t,
                                            ze_kernel_handle_t handle,
                                            const ze_group_count_t *groups,
                                            ze_event_handle_t, uint32_t,
                                            ze_event_handle_t *) {
  auto *kernel = reinterpret_cast<Kernel *>(handle);
  FakeZeLaunch launch{kernel->name,
                      {groups->groupCountX, groups->groupCountY,
                       groups->groupCountZ},
                      {kernel->group[0], kernel->group[1], kernel->group[2]},
                      kernel->args};
  launches().push_back(std::move(launch));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeMemAllocDevice(ze_context_handle_t,
                             const ze_device_mem_alloc_desc_t *desc,
                             size_t size, size_t alignment,
                             ze_device_handle_t, void **ptr) {
  if (desc->stype != ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC)
    return kInvalidArgument;
  if (size > (size_t(1) << 30))
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  *ptr = std::aligned_alloc(alignment, (size + alignment - 1) / alignment *
                                           alignment);
  return *ptr ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}

ze_result_t zeMemFree(ze_context_handle_t, void *ptr) {
  std::free(ptr);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleCreate(ze_context_handle_t, ze_device_handle_t,
                           const ze_module_desc_t *desc,
                           ze_module_handle_t *module,
                           ze_module_build_log_handle_t *log) {
  if (log)
    *log = nullptr;
  if (desc->stype != ZE_STRUCTURE_TYPE_MODULE_DESC ||
      desc->format != ZE_MODULE_FORMAT_IL_SPIRV)
    return kInvalidArgument;
  if (desc->inputSize < 4 || desc->pInputModule[0] != 0x03)
    return kBuildFailure;
  auto *m = new Module{std::string(
      reinterpret_cast<const char *>(desc->pInputModule), desc->inputSize)};
  *module = reinterpret_cast<ze_module_handle_t>(m);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t,
                                      size_t *size, char *) {
  *size = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t) {
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelCreate(ze_module_handle_t module,
                           const ze_kernel_desc_t *desc,
                           ze_kernel_handle_t *kernel) {
  if (desc->stype != ZE_STRUCTURE_TYPE_KERNEL_DESC)
    return kInvalidArgument;
  // An entry point's name is a NUL-terminated literal in the module.
  std::string name(desc->pKernelName);
  const std::string &bytes = reinterpret_cast<Module *>(module)->bytes;
  if (bytes.find(name + '\0') == std::string::npos)
    return kInvalidKernelName;
  *kernel = reinterpret_cast<ze_kernel_handle_t>(new Kernel{name});
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelDestroy(ze_kernel_handle_t kernel) {
  delete reinterpret_cast<Kernel *>(kernel);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeModuleDestroy(ze_module_handle_t module) {
  delete reinterpret_cast<Module *>(module);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t handle, uint32_t x,
                                 uint32_t y, uint32_t z) {
  auto *kernel = reinterpret_cast<Kernel *>(handle);
  kernel->group[0] = x;
  kernel->group[1] = y;
  kernel->group[2] = z;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeKernelSetArgumentValue(ze_kernel_handle_t handle,
                                     uint32_t index, size_t size,
                                     const void *value) {
  auto *kernel = reinterpret_cast<Kernel *>(handle);
  if (kernel->args.size() <= index)
    kernel->args.resize(index + 1);
  kernel->args[index] =
      value ? std::string(static_cast<const char *>(value), size)
            : std::string(size, '\0');
  return ZE_RESULT_SUCCESS;
}

} // extern "C"
