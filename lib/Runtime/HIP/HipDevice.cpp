//===- HipDevice.cpp - AMD GPUs through the HIP runtime -------------------===//

#include "HIP/HipDevice.h"
#include "HIP/RocblasGemm.h"
#include "HIP/HipImage.h"
#include "HIP/KernelMetadata.h"
#include "HIP/RocfftLibrary.h"
#include "HIP/RocsolverSolver.h"

#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
/// A loaded module and the arguments its kernels declare.
struct Module {
  hipModule_t module;
  KernelArguments arguments;
};

/// The runtime's entry points the stream-device layer calls.
gpu::StreamEntryPoints entryPoints(const HipApi &hip) {
  gpu::StreamEntryPoints e;
  e.streamCreate = {hip.hipStreamCreateWithFlags, "hipStreamCreateWithFlags"};
  e.streamSynchronize = {hip.hipStreamSynchronize, "hipStreamSynchronize"};
  e.hostAlloc = {hip.hipHostMalloc, "hipHostMalloc"};
  e.hostFree = {hip.hipHostFree, "hipHostFree"};
  e.hostGetFlags = {hip.hipHostGetFlags, "hipHostGetFlags"};
  e.eventCreate = {hip.hipEventCreateWithFlags, "hipEventCreateWithFlags"};
  e.eventRecord = {hip.hipEventRecord, "hipEventRecord"};
  e.eventSynchronize = {hip.hipEventSynchronize, "hipEventSynchronize"};
  e.eventElapsedTime = {hip.hipEventElapsedTime, "hipEventElapsedTime"};
  e.eventDestroy = {hip.hipEventDestroy, "hipEventDestroy"};
  e.streamBeginCapture = {hip.hipStreamBeginCapture, "hipStreamBeginCapture"};
  e.streamEndCapture = {hip.hipStreamEndCapture, "hipStreamEndCapture"};
  e.graphInstantiate = {hip.hipGraphInstantiateWithFlags, "hipGraphInstantiateWithFlags"};
  e.graphLaunch = {hip.hipGraphLaunch, "hipGraphLaunch"};
  e.graphDestroy = {hip.hipGraphDestroy, "hipGraphDestroy"};
  e.graphExecDestroy = {hip.hipGraphExecDestroy, "hipGraphExecDestroy"};
  return e;
}
} // namespace

HipDevice::HipDevice(const HipApi &api, hipDevice_t device, int index,
                     DeviceProperties properties, Limits limits)
    : StreamDevice(DeviceKind::HIP, index, std::move(properties), limits,
                   entryPoints(api), "ADJOINT_HIP_GEMM"),
      hip_(api), device_(device) {}

// Devices are never destroyed (the registry keeps them for the process).
HipDevice::~HipDevice() = default;

Status HipDevice::enterDevice(intptr_t *saved) const {
  int previous = -1;
  if (hip_.hipGetDevice(&previous) != hipSuccess)
    previous = -1;
  *saved = previous;
  if (previous == device_)
    return Status::success();
  return check(hip_.hipSetDevice(device_), "hipSetDevice", " for " + id());
}

void HipDevice::leaveDevice(intptr_t saved) const {
  if (saved >= 0 && saved != device_)
    (void)hip_.hipSetDevice(static_cast<int>(saved));
}

std::unique_ptr<gpu::LinearAlgebraLibrary> HipDevice::makeFftLibrary() {
  return gpu::makeLibrary(loadRocfft, [&](const RocfftApi &api) {
    return std::make_unique<RocfftLibrary>(*this, api);
  });
}

std::unique_ptr<gpu::DenseSolver> HipDevice::makeDenseSolver() {
  return gpu::makeLibrary(loadRocsolver, [&](const RocsolverApi &api) {
    return std::make_unique<RocsolverSolver>(*this, api);
  });
}

std::unique_ptr<gpu::GemmLibrary> HipDevice::makeGemmLibrary(Status *why) {
  return gpu::makeLibrary(
      loadRocblas,
      [&](const RocblasApi &api) {
        return std::make_unique<RocblasGemm>(api, stream(),
                                             libraryWorkspace());
      },
      why);
}

Status HipDevice::rawAllocate(size_t bytes, void **ptr) {
  ADJ_STREAM_CURRENT(current.status());
  return check(hip_.hipMalloc(ptr, bytes), "hipMalloc",
               " (" + std::to_string(bytes) + " bytes on " + id() + ")");
}

void HipDevice::rawRelease(void *ptr) {
  ADJ_STREAM_CURRENT();
  (void)hip_.hipFree(ptr);
}

Status HipDevice::copyAsync(void *dst, const void *src, size_t bytes,
                            gpu::CopyKind kind) {
  // HIP's copies take a non-const source; they do not write it.
  void *from = const_cast<void *>(src);
  switch (kind) {
  case gpu::CopyKind::DeviceToDevice:
    return check(hip_.hipMemcpyDtoDAsync(dst, from, bytes, stream()),
                 "hipMemcpyDtoDAsync");
  case gpu::CopyKind::HostToDevice:
    return check(hip_.hipMemcpyHtoDAsync(dst, from, bytes, stream()),
                 "hipMemcpyHtoDAsync");
  case gpu::CopyKind::DeviceToHost:
    return check(hip_.hipMemcpyDtoHAsync(dst, from, bytes, stream()),
                 "hipMemcpyDtoHAsync");
  }
  return Status::error(StatusCode::Internal, "unknown copy kind");
}

Status HipDevice::enqueueFill(void *dst, uint8_t value, size_t bytes) {
  ADJ_STREAM_CURRENT(current.status());
  return check(hip_.hipMemsetD8Async(dst, value, bytes, stream()),
               "hipMemsetD8Async");
}

Status HipDevice::loadModule(const adj_rt_gpu_module &module, void **handle) {
  std::string name = module.name ? module.name : "<unnamed>";
  if (Status status = checkHipImage(module.data, module.size, name);
      !status.ok())
    return status;
  KernelArguments arguments;
  if (Status status =
          readKernelArguments(module.data, module.size, name, &arguments);
      !status.ok())
    return status;
  ADJ_STREAM_CURRENT(current.status());
  hipModule_t result = nullptr;
  // A code object for another chip fails here (hipErrorNoBinaryForGpu or
  // hipErrorInvalidImage): the message names the module and the device,
  // whose chip (properties().chip) the target must match.
  if (Status status = check(hip_.hipModuleLoadData(&result, module.data),
                            "hipModuleLoadData",
                            " for module " + name + " on " + id() + " (" +
                                properties().chip + ")");
      !status.ok())
    return status;
  *handle = new Module{result, std::move(arguments)};
  return Status::success();
}

Status HipDevice::loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                             void **handle) {
  const auto *m = static_cast<const Module *>(module);
  ADJ_STREAM_CURRENT(current.status());
  hipFunction_t function = nullptr;
  if (Status status = check(
          hip_.hipModuleGetFunction(&function, m->module, kernel.name),
          "hipModuleGetFunction", std::string(" for kernel ") + kernel.name);
      !status.ok())
    return status;
  auto declared = m->arguments.find(kernel.name);
  if (declared == m->arguments.end())
    return Status::error(StatusCode::InvalidArgument,
                         "kernel " + std::string(kernel.name) + " on " +
                             id() +
                             ": not in its code object's amdhsa.kernels "
                             "metadata");
  if (Status status = checkArguments(kernel, declared->second); !status.ok())
    return status;
  *handle = function;
  return Status::success();
}

Status HipDevice::enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                                const uint64_t grid[3], const uint64_t block[3],
                                uint32_t sharedBytes, void **args) {
  std::string what = std::string(" for kernel ") + kernel.name;
  if (Status status = checkGrid(kernel, grid); !status.ok())
    return status;
  // AMD's dispatch packet counts work items, not blocks, in 32 bits: a
  // grid HIP's block limit allows may still not fit.
  for (int d = 0; d < 3; ++d)
    if (grid[d] * block[d] > UINT32_MAX)
      return Status::error(StatusCode::InvalidArgument,
                           "grid dimension " + std::to_string(d) + " of " +
                               std::to_string(grid[d]) + " blocks of " +
                               std::to_string(block[d]) +
                               " work items exceeds AMD's 2^32 work items" +
                               what);
  ADJ_STREAM_CURRENT(current.status());
  return check(hip_.hipModuleLaunchKernel(
                   static_cast<hipFunction_t>(handle),
                   static_cast<unsigned>(grid[0]),
                   static_cast<unsigned>(grid[1]),
                   static_cast<unsigned>(grid[2]),
                   static_cast<unsigned>(block[0]),
                   static_cast<unsigned>(block[1]),
                   static_cast<unsigned>(block[2]), sharedBytes, stream(),
                   kernel.numArgs ? args : nullptr, nullptr),
               "hipModuleLaunchKernel", what);
}

// Functions belong to their module and are not released on their own.
void HipDevice::releaseKernel(void *) {}

void HipDevice::releaseModule(void *handle) {
  auto *m = static_cast<Module *>(handle);
  {
    ADJ_STREAM_CURRENT();
    (void)hip_.hipModuleUnload(m->module);
  }
  delete m;
}

namespace {

/// "gfx942:sramecc+:xnack-" from the device properties, or "" where the
/// runtime does not export them or no gfx name is where the layout puts
/// it. Tried as LLVM's amdgpu-arch does: ROCm 5's layout under its ROCm 6
/// name (R0000), ROCm 6's (R0600), then the plain name, whose layout is
/// the runtime's own (R0000 in ROCm 5, R0600 in ROCm 6).
std::string architectureName(const HipApi &hip, hipDevice_t device) {
  struct Query {
    hipError_t (*fn)(void *, int);
    std::initializer_list<size_t> offsets;
  };
  const Query queries[] = {
      {hip.hipGetDevicePropertiesR0000, {kPropertiesGcnArchNameOffset}},
      {hip.hipGetDevicePropertiesR0600, {kPropertiesR0600GcnArchNameOffset}},
      {hip.hipGetDeviceProperties,
       {kPropertiesGcnArchNameOffset, kPropertiesR0600GcnArchNameOffset}}};
  std::vector<char> properties(kPropertiesBufferBytes, '\0');
  for (const Query &query : queries) {
    if (!query.fn || query.fn(properties.data(), device) != hipSuccess)
      continue;
    for (size_t offset : query.offsets) {
      const char *name = properties.data() + offset;
      std::string arch(name, strnlen(name, kPropertiesGcnArchNameBytes));
      if (arch.rfind("gfx", 0) == 0)
        return arch;
    }
  }
  return "";
}

/// The properties of `device`, and its grid limits in `limits`.
DeviceProperties queryProperties(const HipApi &hip, hipDevice_t device,
                                 HipDevice::Limits &limits) {
  DeviceProperties p;
  auto attribute = [&](int which) -> uint64_t {
    int value = 0;
    if (hip.hipDeviceGetAttribute(&value, hipDeviceAttribute_t(which),
                                  device) != hipSuccess ||
        value < 0)
      return 0;
    return static_cast<uint64_t>(value);
  };
  char name[256] = {};
  if (hip.hipDeviceGetName(name, sizeof(name) - 1, device) == hipSuccess)
    p.name = name;
  p.vendor = "AMD";
  // ROCm encodes major * 10^7 + minor * 10^5 + patch.
  int version = 0;
  if (hip.hipDriverGetVersion(&version) == hipSuccess && version > 0)
    p.driverVersion = "HIP " + std::to_string(version / 10000000) + "." +
                      std::to_string(version / 100000 % 100);
  size_t total = 0;
  if (hip.hipDeviceTotalMem(&total, device) == hipSuccess)
    p.memoryBytes = total;
  p.chip = architectureName(hip, device);
  // The wavefront: 64 on CDNA (gfx9), 32 on RDNA (gfx10+, as HIP runs it).
  gpu::readLaunchAttributes(
      attribute,
      {hipDeviceAttributeMaxThreadsPerBlock,
       {hipDeviceAttributeMaxBlockDimX, hipDeviceAttributeMaxBlockDimY,
        hipDeviceAttributeMaxBlockDimZ},
       {hipDeviceAttributeMaxGridDimX, hipDeviceAttributeMaxGridDimY,
        hipDeviceAttributeMaxGridDimZ},
       hipDeviceAttributeMaxSharedMemoryPerBlock, -1,
       hipDeviceAttributeMultiprocessorCount, hipDeviceAttributeWarpSize},
      p, limits);
  // Every GPU ROCm supports has fp64 and fp16 arithmetic.
  p.fp64 = true;
  p.fp16 = true;
  return p;
}

} // namespace

Status adjoint::rt::hip::probeDevices(
    std::vector<std::unique_ptr<Device>> &devices) {
  const HipApi *api = nullptr;
  if (Status status = loadHip(&api); !status.ok())
    return status;
  const HipApi &hip = *api;
  int count = 0;
  if (Status status =
          check(hip, hip.hipGetDeviceCount(&count), "hipGetDeviceCount");
      !status.ok())
    return Status::error(StatusCode::Unavailable, status.message());
  // hip:N is HIP's ordinal N, the number torch and DLPack use.
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    HipDevice::Limits limits;
    DeviceProperties properties = queryProperties(hip, ordinal, limits);
    devices.push_back(std::make_unique<HipDevice>(
        hip, ordinal, ordinal, std::move(properties), limits));
  }
  if (devices.empty())
    return Status::error(StatusCode::Unavailable,
                         "no HIP GPU (the runtime found none)");
  return Status::success();
}

Status HipDevice::updateGraph(gpu::GraphExec exec, gpu::Graph graph,
                              bool *updated) {
  *updated = false;
  if (!hip_.hipGraphExecUpdate)
    return Status::success();
  hipGraphNode_t errorNode = nullptr;
  int why = 0;
  hipError_t result = hip_.hipGraphExecUpdate(exec, graph, &errorNode, &why);
  if (result == hipErrorGraphExecUpdateFailure)
    return Status::success();
  *updated = result == hipSuccess;
  return check(result, "hipGraphExecUpdate", " on " + id());
}
