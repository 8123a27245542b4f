//===- FakeHip.cpp - A HIP runtime on host memory -------------------------===//
//
// libamdhip64.so.6 for the tests of the HIP driver on machines without AMD
// GPUs: the fake stream driver (FakeStreamDriver.h) under HIP's names,
// with one device (FAKE_HIP_NO_DEVICE=1 makes hipInit report none; its
// architecture is gfx942:sramecc+:xnack- with 64-wide wavefronts, or
// FAKE_HIP_ARCH's, 32-wide for gfx10 and later). Like the real runtime it
// reads each kernel's explicit arguments (their number and sizes) from the
// code object's amdhsa.kernels metadata (with the runtime's reader,
// HIP/KernelMetadata.h, whose results the tests check against the
// kernel's known signature), and refuses work on a device that is not
// current on the calling thread.
//
//===----------------------------------------------------------------------===//

#include "FakeStreamDriver.h"
#include "HIP/HipApi.h"
#include "HIP/KernelMetadata.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace adjoint::rt::hip;

namespace {
constexpr hipError_t kNoBinaryForGpu = 209;
constexpr uint32_t kMaxSharedBytes = 65536;

/// The device current on this thread (hipSetDevice): 0 is the fake's, 1
/// another one (fakeSelectOther).
thread_local int gCurrent = 0;
std::string architecture() {
  const char *arch = std::getenv("FAKE_HIP_ARCH");
  return arch && *arch ? arch : "gfx942:sramecc+:xnack-";
}

#define NEED_DEVICE()                                                          \
  if (gCurrent != 0)                                                           \
    return hipErrorInvalidDevice;

struct ErrorText {
  hipError_t error;
  const char *name;
  const char *text;
};
constexpr ErrorText kErrors[] = {
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNoDevice, "hipErrorNoDevice",
     "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage",
     "device kernel image is invalid"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorNotFound, "hipErrorNotFound", "named symbol not found"},
    {kNoBinaryForGpu, "hipErrorNoBinaryForGpu",
     "no kernel image is available for execution on the device"},
};
const ErrorText *findError(hipError_t error) {
  for (const ErrorText &e : kErrors)
    if (e.error == error)
      return &e;
  return nullptr;
}
} // namespace

extern "C" {

void *fakeStreamJournal() { return &fake::journal(); }
void fakeSelectOther() { gCurrent = 1; }
int fakeCurrent() { return gCurrent; }

const char *hipGetErrorName(hipError_t error) {
  const ErrorText *found = findError(error);
  return found ? found->name : "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t error) {
  const ErrorText *found = findError(error);
  return found ? found->text : "unknown error";
}

hipError_t hipInit(unsigned flags) {
  const char *none = std::getenv("FAKE_HIP_NO_DEVICE");
  if (none && std::string(none) == "1")
    return hipErrorNoDevice;
  return flags == 0 ? hipSuccess : hipErrorInvalidValue;
}

hipError_t hipDriverGetVersion(int *version) {
  *version = 60241134; // ROCm 6.2: major * 10^7 + minor * 10^5 + patch
  return hipSuccess;
}

hipError_t hipGetDeviceCount(int *count) {
  *count = 1;
  return hipSuccess;
}

hipError_t hipGetDevice(int *device) {
  *device = gCurrent;
  return hipSuccess;
}

hipError_t hipSetDevice(int device) {
  if (device != 0 && device != 1) // 1: another device the caller selected
    return hipErrorInvalidDevice;
  gCurrent = device;
  return hipSuccess;
}

hipError_t hipDeviceGetName(char *name, int length, hipDevice_t device) {
  if (device != 0)
    return hipErrorInvalidDevice;
  std::strncpy(name, "Fake AMD Instinct MI300X", length);
  return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute,
                                 int device) {
  if (device != 0)
    return hipErrorInvalidDevice;
  bool rdna = architecture().rfind("gfx1", 0) == 0;
  switch (attribute) {
  case hipDeviceAttributeMaxThreadsPerBlock:
  case hipDeviceAttributeMaxBlockDimX:
  case hipDeviceAttributeMaxBlockDimY:
  case hipDeviceAttributeMaxBlockDimZ:
    *value = 1024;
    break;
  case hipDeviceAttributeMaxGridDimX:
    *value = 2147483647;
    break;
  case hipDeviceAttributeMaxGridDimY:
  case hipDeviceAttributeMaxGridDimZ:
    *value = 65536;
    break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock:
    *value = kMaxSharedBytes;
    break;
  case hipDeviceAttributeWarpSize:
    *value = rdna ? 32 : 64;
    break;
  case hipDeviceAttributeMultiprocessorCount:
    *value = 304;
    break;
  default:
    return hipErrorInvalidValue;
  }
  return hipSuccess;
}

hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device) {
  if (device != 0)
    return hipErrorInvalidDevice;
  *bytes = fake::journal().memoryLimit;
  return hipSuccess;
}

/// ROCm 6's name for the ROCm 5 layout: the name at 0, the architecture
/// name at kPropertiesGcnArchNameOffset.
hipError_t hipGetDevicePropertiesR0000(void *properties, int device) {
  if (device != 0)
    return hipErrorInvalidDevice;
  auto *bytes = static_cast<char *>(properties);
  std::memset(bytes, 0, 792);
  std::strcpy(bytes, "Fake AMD Instinct MI300X");
  std::strncpy(bytes + kPropertiesGcnArchNameOffset, architecture().c_str(),
               kPropertiesGcnArchNameBytes - 1);
  return hipSuccess;
}

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned flags) {
  NEED_DEVICE();
  // The runtime's stream must not wait for other users' null stream.
  if (!(flags & hipStreamNonBlocking))
    return hipErrorInvalidValue;
  *stream = static_cast<hipStream_t>(fake::stream());
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  NEED_DEVICE();
  return fake::synchronize(stream);
}

hipError_t hipMalloc(void **ptr, size_t bytes) {
  NEED_DEVICE();
  return fake::allocateDevice(bytes, ptr);
}

hipError_t hipFree(void *ptr) {
  NEED_DEVICE();
  return fake::freeDevice(ptr);
}

hipError_t hipHostMalloc(void **ptr, size_t bytes, unsigned) {
  NEED_DEVICE();
  return fake::allocatePinned(bytes, ptr);
}

hipError_t hipHostFree(void *ptr) { return fake::freePinned(ptr); }

hipError_t hipHostGetFlags(unsigned *flags, void *ptr) {
  if (!fake::isPinned(ptr))
    return hipErrorInvalidValue;
  *flags = hipHostMallocPortable;
  return hipSuccess;
}

hipError_t hipMemcpyHtoDAsync(void *dst, void *src, size_t bytes,
                              hipStream_t stream) {
  NEED_DEVICE();
  return fake::copy(fake::Copy::HtoD, dst, src, bytes, stream);
}

hipError_t hipMemcpyDtoHAsync(void *dst, void *src, size_t bytes,
                              hipStream_t stream) {
  NEED_DEVICE();
  return fake::copy(fake::Copy::DtoH, dst, src, bytes, stream);
}

hipError_t hipMemcpyDtoDAsync(void *dst, void *src, size_t bytes,
                              hipStream_t stream) {
  NEED_DEVICE();
  return fake::copy(fake::Copy::DtoD, dst, src, bytes, stream);
}

hipError_t hipMemsetD8Async(void *dst, unsigned char value, size_t bytes,
                            hipStream_t stream) {
  NEED_DEVICE();
  return fake::fill(dst, value, bytes, stream);
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image) {
  NEED_DEVICE();
  // The real loader reads the object's size from its headers; so does the
  // fake (the section table ends it).
  const auto *elf = static_cast<const unsigned char *>(image);
  uint64_t table = 0, entry = 0, count = 0;
  std::memcpy(&table, elf + 40, 8);
  std::memcpy(&entry, elf + 58, 2);
  std::memcpy(&count, elf + 60, 2);
  if (fake::journal().refuseModuleLoads)
    return kNoBinaryForGpu;
  KernelArguments kernels;
  if (!readKernelArguments(elf, table + entry * count, "fake", &kernels).ok())
    return hipErrorInvalidImage;
  auto *m = new fake::Module;
  for (auto &[name, sizes] : kernels)
    m->functions[name] = fake::Function{name, sizes, kMaxSharedBytes};
  ++fake::journal().moduleLoads;
  *module = reinterpret_cast<hipModule_t>(m);
  return hipSuccess;
}

hipError_t hipModuleUnload(hipModule_t module) {
  NEED_DEVICE();
  delete reinterpret_cast<fake::Module *>(module);
  ++fake::journal().moduleUnloads;
  return hipSuccess;
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                const char *name) {
  NEED_DEVICE();
  auto *m = reinterpret_cast<fake::Module *>(module);
  auto it = m->functions.find(name);
  if (it == m->functions.end())
    return hipErrorNotFound;
  *function = reinterpret_cast<hipFunction_t>(&it->second);
  return hipSuccess;
}

hipError_t hipModuleLaunchKernel(hipFunction_t function, unsigned gridX,
                                 unsigned gridY, unsigned gridZ,
                                 unsigned blockX, unsigned blockY,
                                 unsigned blockZ, unsigned sharedBytes,
                                 hipStream_t stream, void **params,
                                 void **extra) {
  NEED_DEVICE();
  const unsigned grid[3] = {gridX, gridY, gridZ};
  const unsigned block[3] = {blockX, blockY, blockZ};
  return fake::launch(*reinterpret_cast<fake::Function *>(function), grid,
                      block, sharedBytes, stream, params, extra);
}

hipError_t hipStreamBeginCapture(hipStream_t stream, int mode) {
  NEED_DEVICE();
  return fake::beginCapture(stream, mode);
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *graph) {
  NEED_DEVICE();
  return fake::endCapture(stream, reinterpret_cast<void **>(graph));
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *exec,
                                        hipGraph_t graph,
                                        unsigned long long flags) {
  NEED_DEVICE();
  if (flags)
    return hipErrorInvalidValue;
  return fake::instantiate(reinterpret_cast<void **>(exec), graph);
}

hipError_t hipGraphExecUpdate(hipGraphExec_t exec, hipGraph_t graph,
                              hipGraphNode_t *errorNode, int *result) {
  NEED_DEVICE();
  fake::Result status = fake::update(exec, graph);
  // hipGraphExecUpdateSuccess, or ...ErrorTopologyChanged.
  *errorNode = nullptr;
  *result = status == fake::Success ? 0 : 2;
  return status;
}

hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream) {
  NEED_DEVICE();
  return fake::launchGraph(exec, stream);
}

hipError_t hipGraphDestroy(hipGraph_t graph) {
  return fake::destroyGraph(graph);
}

hipError_t hipGraphExecDestroy(hipGraphExec_t exec) {
  return fake::destroyExec(exec);
}

hipError_t hipLaunchHostFunc(hipStream_t stream, void (*fn)(void *),
                             void *data) {
  NEED_DEVICE();
  return fake::hostWork(stream, fn, data);
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  NEED_DEVICE();
  if (flags != hipEventDefault)
    return hipErrorInvalidValue;
  return fake::createEvent(reinterpret_cast<void **>(event));
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  NEED_DEVICE();
  return fake::recordEvent(event, stream);
}

hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }

hipError_t hipEventElapsedTime(float *milliseconds, hipEvent_t start,
                               hipEvent_t end) {
  return fake::elapsed(milliseconds, start, end);
}

hipError_t hipEventDestroy(hipEvent_t event) {
  fake::destroyEvent(event);
  return hipSuccess;
}

} // extern "C"
