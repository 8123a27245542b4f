//===- LevelZeroDevice.cpp - Intel GPUs through Level Zero ----------------===//

#include "LevelZero/LevelZeroDevice.h"
#include "GPU/GpuDevice.h"
#include "LevelZero/LevelZeroApi.h"

#include <algorithm>
#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::levelzero;

namespace {

class LevelZeroDevice final : public gpu::GpuDevice {
public:
  LevelZeroDevice(const LevelZeroApi &ze, ze_driver_handle_t driver,
                  ze_device_handle_t device, int index,
                  DeviceProperties properties)
      : GpuDevice(DeviceKind::LevelZero, index, std::move(properties)),
        ze_(ze), driver_(driver), device_(device) {}

protected:
  Status initialize() override {
    ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    if (Status status = check(ze_.zeContextCreate(driver_, &contextDesc,
                                                  &context_),
                              "zeContextCreate", " for " + id());
        !status.ok())
      return status;
    // Ordinal 0 is the compute engine group on Intel GPUs; in order, so
    // that the immediate list is the device's one queue.
    ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                      nullptr,
                                      0,
                                      0,
                                      ZE_COMMAND_QUEUE_FLAG_IN_ORDER,
                                      ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                      0};
    return check(ze_.zeCommandListCreateImmediate(context_, device_,
                                                  &queueDesc, &list_),
                 "zeCommandListCreateImmediate", " for " + id());
  }

  Status rawAllocate(size_t bytes, void **ptr) override {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                    nullptr, 0, 0};
    return check(ze_.zeMemAllocDevice(context_, &desc, bytes,
                                      gpu::kDeviceAlignment, device_, ptr),
                 "zeMemAllocDevice",
                 " (" + std::to_string(bytes) + " bytes on " + id() + ")");
  }

  void rawRelease(void *ptr) override { (void)ze_.zeMemFree(context_, ptr); }

  Status enqueueCopy(void *dst, const void *src, size_t bytes, gpu::CopyKind,
                     bool blocking) override {
    if (Status status =
            check(ze_.zeCommandListAppendMemoryCopy(list_, dst, src, bytes,
                                                    nullptr, 0, nullptr),
                  "zeCommandListAppendMemoryCopy");
        !status.ok() || !blocking)
      return status;
    return finish();
  }

  Status enqueueFill(void *dst, uint8_t value, size_t bytes) override {
    return check(ze_.zeCommandListAppendMemoryFill(list_, dst, &value, 1,
                                                   bytes, nullptr, 0, nullptr),
                 "zeCommandListAppendMemoryFill");
  }

  Status finish() override {
    return check(ze_.zeCommandListHostSynchronize(list_, UINT64_MAX),
                 "zeCommandListHostSynchronize");
  }

  bool acceptsFormat(uint32_t format) const override {
    return format == ADJ_RT_GPU_SPIRV;
  }

  Status loadModule(const adj_rt_gpu_module &module, void **handle) override {
    std::string name = module.name ? module.name : "<unnamed>";
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC,
                          nullptr,
                          ZE_MODULE_FORMAT_IL_SPIRV,
                          module.size,
                          static_cast<const uint8_t *>(module.data),
                          "",
                          nullptr};
    ze_module_handle_t result = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t err =
        ze_.zeModuleCreate(context_, device_, &desc, &result, &log);
    std::string text;
    if (log) {
      size_t size = 0;
      if (err != ZE_RESULT_SUCCESS &&
          ze_.zeModuleBuildLogGetString(log, &size, nullptr) ==
              ZE_RESULT_SUCCESS &&
          size > 1) {
        text.resize(size);
        (void)ze_.zeModuleBuildLogGetString(log, &size, text.data());
        text.resize(std::strlen(text.c_str()));
      }
      (void)ze_.zeModuleBuildLogDestroy(log);
    }
    if (Status status = check(err, "zeModuleCreate",
                              " for module " + name +
                                  (text.empty() ? "" : ":\n" + text));
        !status.ok())
      return status;
    *handle = result;
    return Status::success();
  }

  void releaseKernel(void *handle) override {
    (void)ze_.zeKernelDestroy(static_cast<ze_kernel_handle_t>(handle));
  }

  void releaseModule(void *handle) override {
    (void)ze_.zeModuleDestroy(static_cast<ze_module_handle_t>(handle));
  }

  Status loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                    void **handle) override {
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0,
                          kernel.name};
    ze_kernel_handle_t result = nullptr;
    if (Status status = check(
            ze_.zeKernelCreate(static_cast<ze_module_handle_t>(module), &desc,
                               &result),
            "zeKernelCreate", std::string(" for kernel ") + kernel.name);
        !status.ok())
      return status;
    *handle = result;
    return Status::success();
  }

  Status enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                       const uint64_t grid[3], const uint64_t block[3],
                       uint32_t sharedBytes, void **args) override {
    auto k = static_cast<ze_kernel_handle_t>(handle);
    std::string what = std::string(" for kernel ") + kernel.name;
    for (uint64_t g : {grid[0], grid[1], grid[2]})
      if (g > UINT32_MAX)
        return Status::error(StatusCode::InvalidArgument,
                             "grid dimension " + std::to_string(g) +
                                 " past Level Zero's 32-bit group counts" +
                                 what);
    // Pointer arguments pass the address of the pointer: argSizes[i] == 0
    // means a pointer's size.
    for (uint32_t i = 0; i < kernel.numArgs; ++i) {
      size_t size = kernel.argSizes[i] ? kernel.argSizes[i] : sizeof(void *);
      if (Status status =
              check(ze_.zeKernelSetArgumentValue(k, i, size, args[i]),
                    "zeKernelSetArgumentValue",
                    what + " (argument #" + std::to_string(i) + ")");
          !status.ok())
        return status;
    }
    if (sharedBytes)
      if (Status status = check(ze_.zeKernelSetArgumentValue(
                                    k, kernel.numArgs, sharedBytes, nullptr),
                                "zeKernelSetArgumentValue",
                                what + " (workgroup memory)");
          !status.ok())
        return status;
    if (Status status = check(
            ze_.zeKernelSetGroupSize(k, static_cast<uint32_t>(block[0]),
                                     static_cast<uint32_t>(block[1]),
                                     static_cast<uint32_t>(block[2])),
            "zeKernelSetGroupSize", what);
        !status.ok())
      return status;
    ze_group_count_t groups{static_cast<uint32_t>(grid[0]),
                            static_cast<uint32_t>(grid[1]),
                            static_cast<uint32_t>(grid[2])};
    return check(ze_.zeCommandListAppendLaunchKernel(list_, k, &groups,
                                                     nullptr, 0, nullptr),
                 "zeCommandListAppendLaunchKernel", what);
  }

private:
  const LevelZeroApi &ze_;
  ze_driver_handle_t driver_;
  ze_device_handle_t device_;
  ze_context_handle_t context_ = nullptr;
  ze_command_list_handle_t list_ = nullptr;
};

DeviceProperties queryProperties(const LevelZeroApi &ze,
                                 ze_device_handle_t device) {
  DeviceProperties p;
  ze_device_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  if (ze.zeDeviceGetProperties(device, &props) == ZE_RESULT_SUCCESS) {
    p.name = std::string(props.name, strnlen(props.name, sizeof(props.name)));
    p.vendor = props.vendorId == 0x8086 ? "Intel" : "";
    p.computeUnits =
        props.numSlices * props.numSubslicesPerSlice * props.numEUsPerSubslice;
  }
  ze_device_compute_properties_t compute{};
  compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  if (ze.zeDeviceGetComputeProperties(device, &compute) == ZE_RESULT_SUCCESS) {
    p.maxWorkgroupSize = compute.maxTotalGroupSize;
    p.maxWorkgroupDims[0] = compute.maxGroupSizeX;
    p.maxWorkgroupDims[1] = compute.maxGroupSizeY;
    p.maxWorkgroupDims[2] = compute.maxGroupSizeZ;
    p.localMemoryBytes = compute.maxSharedLocalMemory;
    for (uint32_t i = 0; i < std::min<uint32_t>(compute.numSubGroupSizes, 8);
         ++i)
      p.subgroupSizes.push_back(compute.subGroupSizes[i]);
    std::sort(p.subgroupSizes.begin(), p.subgroupSizes.end());
  }
  ze_device_module_properties_t module{};
  module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  if (ze.zeDeviceGetModuleProperties(device, &module) == ZE_RESULT_SUCCESS) {
    p.fp16 = module.flags & ZE_DEVICE_MODULE_FLAG_FP16;
    p.fp64 = module.flags & ZE_DEVICE_MODULE_FLAG_FP64;
  }
  uint32_t count = 0;
  if (ze.zeDeviceGetMemoryProperties(device, &count, nullptr) ==
          ZE_RESULT_SUCCESS &&
      count) {
    std::vector<ze_device_memory_properties_t> memories(count);
    for (auto &m : memories)
      m.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
    if (ze.zeDeviceGetMemoryProperties(device, &count, memories.data()) ==
        ZE_RESULT_SUCCESS)
      for (const auto &m : memories)
        p.memoryBytes += m.totalSize;
  }
  return p;
}

} // namespace

Status adjoint::rt::levelzero::probeDevices(
    std::vector<std::unique_ptr<Device>> &devices) {
  const LevelZeroApi *api = nullptr;
  if (Status status = loadLevelZero(&api); !status.ok())
    return status;
  const LevelZeroApi &ze = *api;
  uint32_t numDrivers = 0;
  if (Status status = check(ze.zeDriverGet(&numDrivers, nullptr),
                            "zeDriverGet");
      !status.ok())
    return Status::error(StatusCode::Unavailable, status.message());
  std::vector<ze_driver_handle_t> drivers(numDrivers);
  if (numDrivers &&
      ze.zeDriverGet(&numDrivers, drivers.data()) != ZE_RESULT_SUCCESS)
    numDrivers = 0;
  for (uint32_t d = 0; d < numDrivers; ++d) {
    uint32_t count = 0;
    if (ze.zeDeviceGet(drivers[d], &count, nullptr) != ZE_RESULT_SUCCESS ||
        !count)
      continue;
    std::vector<ze_device_handle_t> ids(count);
    if (ze.zeDeviceGet(drivers[d], &count, ids.data()) != ZE_RESULT_SUCCESS)
      continue;
    for (ze_device_handle_t id : ids) {
      int index = static_cast<int>(devices.size());
      devices.push_back(std::make_unique<LevelZeroDevice>(
          ze, drivers[d], id, index, queryProperties(ze, id)));
    }
  }
  if (devices.empty())
    return Status::error(StatusCode::Unavailable,
                         "no Level Zero GPU (the loader found no driver)");
  return Status::success();
}
