//===- FakeHip.cpp - A HIP runtime on host memory -------------------------===//
//
// libamdhip64.so.6 for the tests of the HIP driver on machines without AMD
// GPUs: one device (FAKE_HIP_NO_DEVICE=1 makes hipInit report none; its
// architecture is gfx942:sramecc+:xnack- with 64-wide wavefronts, or
// FAKE_HIP_ARCH's, 32-wide for gfx10 and later) whose memory is host
// memory, copies and fills done at once, and launches recorded instead of
// run (FakeHipJournal) so that the tests can check what the runtime passed.
// Like the real runtime it reads each kernel's explicit arguments (their
// number and sizes) from the code object's amdhsa.kernels metadata (with
// the runtime's reader, HIP/KernelMetadata.h, whose results the tests
// check against the kernel's known signature), copies that many argument
// bytes at a launch, and refuses work on a device that is not current on
// the calling thread.
//
//===----------------------------------------------------------------------===//

#include "FakeHip.h"
#include "HIP/HipApi.h"
#include "HIP/KernelMetadata.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace adjoint::rt::hip;

namespace {
constexpr hipError_t kNoBinaryForGpu = 209;
constexpr size_t kMaxSharedBytes = 65536;

struct Function {
  std::string name;
  std::vector<uint32_t> params;
};
struct Module {
  std::map<std::string, Function> functions;
};
struct Event {
  bool recorded = false;
  double time = 0;
};
int gStream;

FakeHipJournal &journal() {
  static FakeHipJournal instance;
  return instance;
}
/// The device current on this thread (hipSetDevice); -1 is none.
thread_local int gCurrent = 0;
std::map<uintptr_t, size_t> &deviceBlocks() {
  static std::map<uintptr_t, size_t> blocks;
  return blocks;
}
std::map<uintptr_t, size_t> &pinnedBlocks() {
  static std::map<uintptr_t, size_t> blocks;
  return blocks;
}
bool isPinned(const void *p) {
  auto address = reinterpret_cast<uintptr_t>(p);
  auto it = pinnedBlocks().upper_bound(address);
  if (it == pinnedBlocks().begin())
    return false;
  --it;
  return address < it->first + it->second;
}
const char *side(const void *host) {
  return isPinned(host) ? "pinned" : "pageable";
}
bool validStream(hipStream_t stream) {
  return stream == reinterpret_cast<hipStream_t>(&gStream);
}
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

void *fakeHipJournal() { return &journal(); }

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
  ++journal().setDevices;
  return hipSuccess;
}

/// For the tests: selects device 1, which does not exist, as another
/// library on the thread might have; the runtime must restore it.
void fakeHipSelectOther() { gCurrent = 1; }
int fakeHipCurrent() { return gCurrent; }

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
  *bytes = journal().memoryLimit;
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
  *stream = reinterpret_cast<hipStream_t>(&gStream);
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  NEED_DEVICE();
  if (!validStream(stream))
    return hipErrorInvalidHandle;
  ++journal().streamSyncs;
  return hipSuccess;
}

hipError_t hipMalloc(void **ptr, size_t bytes) {
  NEED_DEVICE();
  FakeHipJournal &j = journal();
  if (bytes == 0)
    return hipErrorInvalidValue;
  if (j.liveDeviceBytes + bytes > j.memoryLimit)
    return hipErrorOutOfMemory;
  *ptr = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!*ptr)
    return hipErrorOutOfMemory;
  deviceBlocks()[reinterpret_cast<uintptr_t>(*ptr)] = bytes;
  j.liveDeviceBytes += bytes;
  ++j.deviceAllocations;
  return hipSuccess;
}

hipError_t hipFree(void *ptr) {
  NEED_DEVICE();
  auto it = deviceBlocks().find(reinterpret_cast<uintptr_t>(ptr));
  if (it == deviceBlocks().end())
    return hipErrorInvalidValue;
  journal().liveDeviceBytes -= it->second;
  ++journal().deviceFrees;
  deviceBlocks().erase(it);
  std::free(ptr);
  return hipSuccess;
}

hipError_t hipHostMalloc(void **ptr, size_t bytes, unsigned) {
  NEED_DEVICE();
  *ptr = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!*ptr)
    return hipErrorOutOfMemory;
  pinnedBlocks()[reinterpret_cast<uintptr_t>(*ptr)] = bytes;
  ++journal().pinnedAllocations;
  return hipSuccess;
}

hipError_t hipHostFree(void *ptr) {
  if (!pinnedBlocks().erase(reinterpret_cast<uintptr_t>(ptr)))
    return hipErrorInvalidValue;
  ++journal().pinnedFrees;
  std::free(ptr);
  return hipSuccess;
}

hipError_t hipHostGetFlags(unsigned *flags, void *ptr) {
  if (!isPinned(ptr))
    return hipErrorInvalidValue;
  *flags = hipHostMallocPortable;
  return hipSuccess;
}

hipError_t hipMemcpyHtoDAsync(void *dst, void *src, size_t bytes,
                              hipStream_t stream) {
  NEED_DEVICE();
  if (!validStream(stream))
    return hipErrorInvalidHandle;
  std::memmove(dst, src, bytes);
  journal().stream.push_back("HtoD " + std::to_string(bytes) + " " +
                             side(src));
  return hipSuccess;
}

hipError_t hipMemcpyDtoHAsync(void *dst, void *src, size_t bytes,
                              hipStream_t stream) {
  NEED_DEVICE();
  if (!validStream(stream))
    return hipErrorInvalidHandle;
  std::memmove(dst, src, bytes);
  journal().stream.push_back("DtoH " + std::to_string(bytes) + " " +
                             side(dst));
  return hipSuccess;
}

hipError_t hipMemcpyDtoDAsync(void *dst, void *src, size_t bytes,
                              hipStream_t stream) {
  NEED_DEVICE();
  if (!validStream(stream))
    return hipErrorInvalidHandle;
  std::memmove(dst, src, bytes);
  journal().stream.push_back("DtoD " + std::to_string(bytes));
  return hipSuccess;
}

hipError_t hipMemsetD8Async(void *dst, unsigned char value, size_t bytes,
                            hipStream_t stream) {
  NEED_DEVICE();
  if (!validStream(stream))
    return hipErrorInvalidHandle;
  std::memset(dst, value, bytes);
  journal().stream.push_back("memset " + std::to_string(bytes) + " " +
                             std::to_string(value));
  return hipSuccess;
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
  if (journal().refuseModuleLoads)
    return kNoBinaryForGpu;
  KernelArguments kernels;
  if (!readKernelArguments(elf, table + entry * count, "fake", &kernels).ok())
    return hipErrorInvalidImage;
  auto *m = new Module;
  for (auto &[name, sizes] : kernels)
    m->functions[name] = Function{name, sizes};
  ++journal().moduleLoads;
  *module = reinterpret_cast<hipModule_t>(m);
  return hipSuccess;
}

hipError_t hipModuleUnload(hipModule_t module) {
  NEED_DEVICE();
  delete reinterpret_cast<Module *>(module);
  ++journal().moduleUnloads;
  return hipSuccess;
}

hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
                                const char *name) {
  NEED_DEVICE();
  auto *m = reinterpret_cast<Module *>(module);
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
  auto *fn = reinterpret_cast<Function *>(function);
  if (!validStream(stream) || extra)
    return hipErrorInvalidHandle;
  if (uint64_t(blockX) * blockY * blockZ > 1024 ||
      sharedBytes > kMaxSharedBytes || (!fn->params.empty() && !params))
    return hipErrorInvalidValue;
  FakeHipLaunch launch{fn->name,
                       {gridX, gridY, gridZ},
                       {blockX, blockY, blockZ},
                       sharedBytes,
                       {}};
  for (size_t i = 0; i < fn->params.size(); ++i)
    launch.args.emplace_back(static_cast<const char *>(params[i]),
                             fn->params[i]);
  FakeHipJournal &j = journal();
  j.launches.push_back(std::move(launch));
  j.stream.push_back("launch " + fn->name);
  j.clockMs += j.launchMs;
  return hipSuccess;
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  NEED_DEVICE();
  if (flags != hipEventDefault)
    return hipErrorInvalidValue;
  *event = reinterpret_cast<hipEvent_t>(new Event);
  return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  NEED_DEVICE();
  if (!validStream(stream))
    return hipErrorInvalidHandle;
  auto *e = reinterpret_cast<Event *>(event);
  e->recorded = true;
  e->time = journal().clockMs;
  journal().stream.push_back("event " + std::to_string(e->time));
  return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t) { return hipSuccess; }

hipError_t hipEventElapsedTime(float *milliseconds, hipEvent_t start,
                               hipEvent_t end) {
  auto *a = reinterpret_cast<Event *>(start);
  auto *b = reinterpret_cast<Event *>(end);
  if (!a->recorded || !b->recorded)
    return hipErrorInvalidHandle;
  *milliseconds = static_cast<float>(b->time - a->time);
  return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event) {
  delete reinterpret_cast<Event *>(event);
  return hipSuccess;
}

} // extern "C"
