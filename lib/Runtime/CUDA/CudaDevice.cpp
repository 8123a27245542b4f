//===- CudaDevice.cpp - NVIDIA GPUs through the CUDA driver API -----------===//

#include "CUDA/CudaDevice.h"
#include "CUDA/CublasLtGemm.h"
#include "CUDA/CudaImage.h"
#include "CUDA/CufftLibrary.h"
#include "CUDA/CusolverSolver.h"

#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {
/// The error log of a module load (PTX JIT messages).
constexpr size_t kLogBytes = 4096;
/// More parameters than a kernel can take (CUDA passes at most 32 KiB of
/// them): where counting a kernel's parameters stops.
constexpr uint32_t kMaxParameters = 8192;

CUdeviceptr address(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

/// A loaded kernel: the function and the dynamic shared memory it has been
/// allowed so far.
struct Kernel {
  CUfunction function;
  uint32_t sharedLimit;
};

/// The driver's entry points the stream-device layer calls.
gpu::StreamEntryPoints entryPoints(const CudaApi &cu) {
  gpu::StreamEntryPoints e;
  e.streamCreate = {cu.cuStreamCreate, "cuStreamCreate"};
  e.streamSynchronize = {cu.cuStreamSynchronize, "cuStreamSynchronize"};
  e.hostAlloc = {cu.cuMemHostAlloc, "cuMemHostAlloc"};
  e.hostFree = {cu.cuMemFreeHost, "cuMemFreeHost"};
  e.hostGetFlags = {cu.cuMemHostGetFlags, "cuMemHostGetFlags"};
  e.eventCreate = {cu.cuEventCreate, "cuEventCreate"};
  e.eventRecord = {cu.cuEventRecord, "cuEventRecord"};
  e.eventSynchronize = {cu.cuEventSynchronize, "cuEventSynchronize"};
  e.eventElapsedTime = {cu.cuEventElapsedTime, "cuEventElapsedTime"};
  e.eventDestroy = {cu.cuEventDestroy_v2, "cuEventDestroy_v2"};
  e.streamBeginCapture = {cu.cuStreamBeginCapture_v2, "cuStreamBeginCapture_v2"};
  e.streamEndCapture = {cu.cuStreamEndCapture, "cuStreamEndCapture"};
  e.graphInstantiate = {cu.cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags"};
  e.graphLaunch = {cu.cuGraphLaunch, "cuGraphLaunch"};
  e.graphDestroy = {cu.cuGraphDestroy, "cuGraphDestroy"};
  e.graphExecDestroy = {cu.cuGraphExecDestroy, "cuGraphExecDestroy"};
  return e;
}
} // namespace

CudaDevice::CudaDevice(const CudaApi &api, CUdevice device, int index,
                       DeviceProperties properties, Limits limits)
    : StreamDevice(DeviceKind::CUDA, index, std::move(properties), limits,
                   entryPoints(api), "ADJOINT_CUDA_GEMM"),
      cu_(api), device_(device) {}

// Devices are never destroyed (the registry keeps them for the process).
CudaDevice::~CudaDevice() = default;

Status CudaDevice::enterDevice(intptr_t *) const {
  return check(cu_.cuCtxPushCurrent_v2(context_), "cuCtxPushCurrent_v2",
               " for " + id());
}

void CudaDevice::leaveDevice(intptr_t) const {
  CUcontext popped = nullptr;
  (void)cu_.cuCtxPopCurrent_v2(&popped);
}

Status CudaDevice::openContext() {
  return check(cu_.cuDevicePrimaryCtxRetain(&context_, device_),
               "cuDevicePrimaryCtxRetain", " for " + id());
}

std::unique_ptr<gpu::LinearAlgebraLibrary> CudaDevice::makeFftLibrary() {
  return gpu::makeLibrary(loadCufft, [&](const CufftApi &api) {
    return std::make_unique<CufftLibrary>(*this, api);
  });
}

std::unique_ptr<gpu::DenseSolver> CudaDevice::makeDenseSolver() {
  return gpu::makeLibrary(loadCusolver, [&](const CusolverApi &api) {
    return std::make_unique<CusolverSolver>(*this, api);
  });
}

std::unique_ptr<gpu::GemmLibrary> CudaDevice::makeGemmLibrary(Status *why) {
  return gpu::makeLibrary(
      loadCublasLt,
      [&](const CublasLtApi &api) {
        return std::make_unique<CublasLtGemm>(api, stream(),
                                              libraryWorkspace());
      },
      why);
}

Status CudaDevice::rawAllocate(size_t bytes, void **ptr) {
  ADJ_STREAM_CURRENT(current.status());
  CUdeviceptr block = 0;
  if (Status status = check(cu_.cuMemAlloc_v2(&block, bytes), "cuMemAlloc_v2",
                            " (" + std::to_string(bytes) + " bytes on " +
                                id() + ")");
      !status.ok())
    return status;
  *ptr = reinterpret_cast<void *>(block);
  return Status::success();
}

void CudaDevice::rawRelease(void *ptr) {
  ADJ_STREAM_CURRENT();
  (void)cu_.cuMemFree_v2(address(ptr));
}

Status CudaDevice::copyAsync(void *dst, const void *src, size_t bytes,
                             gpu::CopyKind kind) {
  switch (kind) {
  case gpu::CopyKind::DeviceToDevice:
    return check(cu_.cuMemcpyDtoDAsync_v2(address(dst), address(src), bytes,
                                          stream()),
                 "cuMemcpyDtoDAsync_v2");
  case gpu::CopyKind::HostToDevice:
    return check(cu_.cuMemcpyHtoDAsync_v2(address(dst), src, bytes, stream()),
                 "cuMemcpyHtoDAsync_v2");
  case gpu::CopyKind::DeviceToHost:
    return check(cu_.cuMemcpyDtoHAsync_v2(dst, address(src), bytes, stream()),
                 "cuMemcpyDtoHAsync_v2");
  }
  return Status::error(StatusCode::Internal, "unknown copy kind");
}

Status CudaDevice::enqueueFill(void *dst, uint8_t value, size_t bytes) {
  ADJ_STREAM_CURRENT(current.status());
  return check(cu_.cuMemsetD8Async(address(dst), value, bytes, stream()),
               "cuMemsetD8Async");
}

Status CudaDevice::loadModule(const adj_rt_gpu_module &module,
                              void **handle) {
  std::string name = module.name ? module.name : "<unnamed>";
  if (Status status = checkCudaImage(module.data, module.size, name);
      !status.ok())
    return status;
  ADJ_STREAM_CURRENT(current.status());
  // The error log says why PTX did not JIT (a GPU older than its target).
  std::string log(kLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log.data(), reinterpret_cast<void *>(kLogBytes)};
  CUmodule result = nullptr;
  CUresult err =
      cu_.cuModuleLoadDataEx(&result, module.data, 2, options, values);
  log.resize(strnlen(log.data(), kLogBytes));
  if (Status status = check(err, "cuModuleLoadDataEx",
                            " for module " + name + " on " + id() +
                                (log.empty() ? "" : ":\n" + log));
      !status.ok())
    return status;
  *handle = result;
  return Status::success();
}

Status CudaDevice::loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                              void **handle) {
  ADJ_STREAM_CURRENT(current.status());
  std::string what = std::string(" for kernel ") + kernel.name;
  CUfunction function = nullptr;
  if (Status status = check(
          cu_.cuModuleGetFunction(&function, static_cast<CUmodule>(module),
                                  kernel.name),
          "cuModuleGetFunction", what);
      !status.ok())
    return status;
  // Drivers before CUDA 12.4 cannot say what a kernel takes.
  if (cu_.cuFuncGetParamInfo) {
    std::vector<uint32_t> declared;
    size_t offset = 0, size = 0;
    while (declared.size() < kMaxParameters &&
           cu_.cuFuncGetParamInfo(function, declared.size(), &offset,
                                  &size) == CUDA_SUCCESS)
      declared.push_back(static_cast<uint32_t>(size));
    if (Status status = checkArguments(kernel, declared); !status.ok())
      return status;
  }
  *handle = new Kernel{function, kDefaultSharedBytes};
  return Status::success();
}

Status CudaDevice::enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                                 const uint64_t grid[3],
                                 const uint64_t block[3], uint32_t sharedBytes,
                                 void **args) {
  auto *k = static_cast<Kernel *>(handle);
  std::string what = std::string(" for kernel ") + kernel.name;
  if (Status status = checkGrid(kernel, grid); !status.ok())
    return status;
  ADJ_STREAM_CURRENT(current.status());
  // Past 48 KiB, dynamic shared memory must be allowed per function.
  if (sharedBytes > k->sharedLimit) {
    CUresult allowed = cu_.cuFuncSetAttribute(
        k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        static_cast<int>(sharedBytes));
    if (Status status = check(allowed, "cuFuncSetAttribute", what);
        !status.ok())
      return status;
    k->sharedLimit = sharedBytes;
  }
  return check(cu_.cuLaunchKernel(
                   k->function, static_cast<unsigned>(grid[0]),
                   static_cast<unsigned>(grid[1]),
                   static_cast<unsigned>(grid[2]),
                   static_cast<unsigned>(block[0]),
                   static_cast<unsigned>(block[1]),
                   static_cast<unsigned>(block[2]), sharedBytes, stream(),
                   kernel.numArgs ? args : nullptr, nullptr),
               "cuLaunchKernel", what);
}

void CudaDevice::releaseKernel(void *handle) {
  delete static_cast<Kernel *>(handle);
}

void CudaDevice::releaseModule(void *handle) {
  ADJ_STREAM_CURRENT();
  (void)cu_.cuModuleUnload(static_cast<CUmodule>(handle));
}

namespace {

/// The properties of `device`, and its grid limits in `limits`.
DeviceProperties queryProperties(const CudaApi &cu, CUdevice device,
                                 CudaDevice::Limits &limits) {
  DeviceProperties p;
  auto attribute = [&](int which) -> uint64_t {
    int value = 0;
    if (cu.cuDeviceGetAttribute(&value, CUdevice_attribute(which), device) !=
            CUDA_SUCCESS ||
        value < 0)
      return 0;
    return static_cast<uint64_t>(value);
  };
  char name[256] = {};
  if (cu.cuDeviceGetName(name, sizeof(name) - 1, device) == CUDA_SUCCESS)
    p.name = name;
  p.vendor = "NVIDIA";
  int version = 0;
  if (cu.cuDriverGetVersion(&version) == CUDA_SUCCESS)
    p.driverVersion = "CUDA " + std::to_string(version / 1000) + "." +
                      std::to_string(version % 1000 / 10);
  size_t total = 0;
  if (cu.cuDeviceTotalMem_v2(&total, device) == CUDA_SUCCESS)
    p.memoryBytes = total;
  uint64_t major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  uint64_t minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  p.chip = "sm_" + std::to_string(major) + std::to_string(minor);
  gpu::readLaunchAttributes(
      attribute,
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
        CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
       {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
        CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
      p, limits);
  // Every CUDA GPU has fp64; fp16 arithmetic came with sm_53.
  p.fp64 = true;
  p.fp16 = major * 10 + minor >= 53;
  return p;
}

} // namespace

Status adjoint::rt::cuda::probeDevices(
    std::vector<std::unique_ptr<Device>> &devices) {
  const CudaApi *api = nullptr;
  if (Status status = loadCuda(&api); !status.ok())
    return status;
  const CudaApi &cu = *api;
  int count = 0;
  if (Status status = check(cu, cu.cuDeviceGetCount(&count),
                            "cuDeviceGetCount");
      !status.ok())
    return Status::error(StatusCode::Unavailable, status.message());
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    // cuda:N must be CUDA's ordinal N, the number torch and DLPack use:
    // no device is skipped.
    CUdevice device = 0;
    if (Status status = check(cu, cu.cuDeviceGet(&device, ordinal),
                              "cuDeviceGet",
                              " for ordinal " + std::to_string(ordinal));
        !status.ok()) {
      devices.clear();
      return Status::error(StatusCode::Unavailable, status.message());
    }
    CudaDevice::Limits limits;
    DeviceProperties properties = queryProperties(cu, device, limits);
    devices.push_back(std::make_unique<CudaDevice>(
        cu, device, ordinal, std::move(properties), limits));
  }
  if (devices.empty())
    return Status::error(StatusCode::Unavailable,
                         "no CUDA GPU (the driver found none)");
  return Status::success();
}

Status CudaDevice::updateGraph(gpu::GraphExec exec, gpu::Graph graph,
                               bool *updated) {
  *updated = false;
  if (!cu_.cuGraphExecUpdate_v2)
    return Status::success();
  CUgraphExecUpdateResultInfo info{};
  CUresult result = cu_.cuGraphExecUpdate_v2(exec, graph, &info);
  if (result == CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE)
    return Status::success();
  *updated = result == CUDA_SUCCESS;
  return check(result, "cuGraphExecUpdate_v2", " on " + id());
}
