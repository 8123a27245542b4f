//===- FakeCuda.cpp - A CUDA driver on host memory ------------------------===//
//
// libcuda.so.1 for the tests of the CUDA driver on machines without NVIDIA
// GPUs: the fake stream driver (FakeStreamDriver.h) under CUDA's names,
// with one device (FAKE_CUDA_NO_DEVICE=1 makes cuInit report none). Like
// the real driver it reads each kernel's parameter sizes from the image
// (PTX `.entry` declarations, or the cubin's .nv.info.<kernel>
// KPARAM_INFO records, also inside a fatbin), needs its context current
// (cuCtxPushCurrent) for every call that works on the device, and refuses
// launches past 48 KiB of dynamic shared memory unless the function was
// allowed more.
//
//===----------------------------------------------------------------------===//

#include "CUDA/CudaApi.h"
#include "FakeStreamDriver.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace adjoint::rt::cuda;

namespace {
constexpr size_t kMaxOptInShared = 232448;
int gContext;

/// The current-context stack of this thread (cuCtxPushCurrent): 0 is the
/// fake's context, 1 another one (fakeSelectOther).
thread_local std::vector<int> gContexts;

/// ".entry name(\n .param .u64 a,\n .param .align 8 .b8 s[16]\n)".
void parsePtx(const std::string &text, fake::Module &module) {
  size_t at = 0;
  while ((at = text.find(".entry ", at)) != std::string::npos) {
    at += 7;
    size_t open = text.find('(', at);
    size_t close = text.find(')', open);
    if (open == std::string::npos || close == std::string::npos)
      return;
    fake::Function fn{text.substr(at, open - at), {}, kDefaultSharedBytes};
    fn.name.erase(fn.name.find_last_not_of(" \t\n") + 1);
    std::string list = text.substr(open + 1, close - open - 1);
    size_t p = 0;
    while ((p = list.find(".param", p)) != std::string::npos) {
      p += 6;
      size_t end = list.find(',', p);
      std::string decl = list.substr(p, end == std::string::npos
                                            ? std::string::npos
                                            : end - p);
      size_t size = 8;
      if (size_t bracket = decl.find('['); bracket != std::string::npos)
        size = std::strtoul(decl.c_str() + bracket + 1, nullptr, 10);
      else if (decl.find("32") != std::string::npos)
        size = 4;
      else if (decl.find("16") != std::string::npos)
        size = 2;
      else if (decl.find("8 ") != std::string::npos &&
               decl.find("64") == std::string::npos)
        size = 1;
      fn.params.push_back(uint32_t(size));
    }
    module.functions[fn.name] = fn;
    at = close;
  }
}

/// The .nv.info.<kernel> sections of an ELF cubin: records of a format
/// byte, an attribute byte and a 2-byte field: the value itself, unused
/// (format 1, no value: sm_80 cubins have one), or the byte size of the
/// value that follows (format 4); KPARAM_INFO (0x17) holds a
/// parameter's ordinal (bytes 4-5 of its value) and size (bits 18-31 of
/// bytes 8-11).
bool parseCubin(const unsigned char *elf, size_t size,
                fake::Module &module) {
  auto read = [&](size_t at, size_t n) {
    uint64_t value = 0;
    if (at + n <= size)
      std::memcpy(&value, elf + at, n);
    return value;
  };
  uint64_t shoff = read(0x28, 8);
  uint64_t entSize = read(0x3a, 2), count = read(0x3c, 2),
           names = read(0x3e, 2);
  if (!shoff || entSize < 64 || names >= count ||
      shoff + count * entSize > size)
    return false;
  uint64_t strtab = read(shoff + names * entSize + 0x18, 8);
  for (uint64_t s = 0; s < count; ++s) {
    uint64_t header = shoff + s * entSize;
    const char *name = reinterpret_cast<const char *>(
        elf + strtab + read(header, 4));
    if (std::strncmp(name, ".nv.info.", 9) != 0)
      continue;
    fake::Function fn{name + 9, {}, kDefaultSharedBytes};
    uint64_t at = read(header + 0x18, 8), end = at + read(header + 0x20, 8);
    std::map<uint64_t, size_t> byOrdinal;
    while (at + 2 <= end && end <= size) {
      uint64_t format = elf[at], attribute = elf[at + 1];
      uint64_t length = format == 4 ? 4 + read(at + 2, 2) : 4;
      if (format == 4 && attribute == 0x17)
        byOrdinal[read(at + 8, 2)] = read(at + 12, 4) >> 18;
      at += length;
    }
    for (auto &[ordinal, bytes] : byOrdinal)
      fn.params.push_back(uint32_t(bytes));
    module.functions[fn.name] = fn;
  }
  return !module.functions.empty();
}

/// A fatbin: a header, then entries (kind 2 is an ELF cubin, 1 PTX).
bool parseImage(const unsigned char *bytes, fake::Module &module) {
  uint32_t magic;
  std::memcpy(&magic, bytes, 4);
  if (magic == 0xBA55ED50) {
    uint16_t header;
    uint64_t total;
    std::memcpy(&header, bytes + 6, 2);
    std::memcpy(&total, bytes + 8, 8);
    for (uint64_t at = header; at < header + total;) {
      uint16_t kind;
      uint32_t entryHeader;
      uint64_t payload;
      std::memcpy(&kind, bytes + at, 2);
      std::memcpy(&entryHeader, bytes + at + 4, 4);
      std::memcpy(&payload, bytes + at + 8, 8);
      if (kind == 2 &&
          parseCubin(bytes + at + entryHeader, payload, module))
        return true;
      at += entryHeader + payload;
    }
    return false;
  }
  if (std::memcmp(bytes, "\x7f"
                         "ELF",
                  4) == 0)
    return false; // a bare cubin's size is unknown here: not used by tests
  std::string text(reinterpret_cast<const char *>(bytes));
  if (text.find(".version") == std::string::npos)
    return false;
  parsePtx(text, module);
  return !module.functions.empty();
}


struct ErrorText {
  CUresult code;
  const char *name;
  const char *text;
};
constexpr ErrorText kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
     "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {fake::InvalidContext, "CUDA_ERROR_INVALID_CONTEXT",
     "invalid device context"},
    {fake::InvalidHandle, "CUDA_ERROR_INVALID_HANDLE",
     "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
};
const ErrorText *findError(CUresult code) {
  for (const ErrorText &e : kErrors)
    if (e.code == code)
      return &e;
  return nullptr;
}

#define NEED_CONTEXT()                                                         \
  if (gContexts.empty() || gContexts.back() != 0)                              \
    return fake::InvalidContext;
} // namespace

extern "C" {

void *fakeStreamJournal() { return &fake::journal(); }
void fakeSelectOther() { gContexts.push_back(1); }
int fakeCurrent() { return gContexts.empty() ? -1 : gContexts.back(); }

CUresult cuGetErrorName(CUresult error, const char **text) {
  const ErrorText *found = findError(error);
  *text = found ? found->name : nullptr;
  return found ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  const ErrorText *found = findError(error);
  *text = found ? found->text : nullptr;
  return found ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuInit(unsigned flags) {
  const char *none = std::getenv("FAKE_CUDA_NO_DEVICE");
  if (none && std::string(none) == "1")
    return CUDA_ERROR_NO_DEVICE;
  return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDriverGetVersion(int *version) {
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  std::strncpy(name, "Fake NVIDIA H100", length);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                              CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    *value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *value = 64;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *value = 2147483647;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *value = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *value = kDefaultSharedBytes;
    break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *value = 32;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = kMaxOptInShared;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice) {
  *bytes = fake::journal().memoryLimit;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  if (device != 0)
    return CUDA_ERROR_INVALID_VALUE;
  *context = reinterpret_cast<CUcontext>(&gContext);
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext context) {
  if (context != reinterpret_cast<CUcontext>(&gContext))
    return fake::InvalidContext;
  gContexts.push_back(0);
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent_v2(CUcontext *context) {
  if (gContexts.empty())
    return fake::InvalidContext;
  *context = gContexts.back() == 0 ? reinterpret_cast<CUcontext>(&gContext)
                                   : nullptr;
  gContexts.pop_back();
  return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  NEED_CONTEXT();
  // The runtime's stream must not wait for other users' legacy stream.
  if (!(flags & CU_STREAM_NON_BLOCKING))
    return CUDA_ERROR_INVALID_VALUE;
  *stream = static_cast<CUstream>(fake::stream());
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  NEED_CONTEXT();
  return fake::synchronize(stream);
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  NEED_CONTEXT();
  return fake::allocateDevice(bytes, reinterpret_cast<void **>(ptr));
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
  NEED_CONTEXT();
  return fake::freeDevice(reinterpret_cast<void *>(ptr));
}

CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned) {
  NEED_CONTEXT();
  return fake::allocatePinned(bytes, ptr);
}

CUresult cuMemFreeHost(void *ptr) {
  NEED_CONTEXT();
  return fake::freePinned(ptr);
}

CUresult cuMemHostGetFlags(unsigned *flags, void *ptr) {
  if (!fake::isPinned(ptr))
    return CUDA_ERROR_INVALID_VALUE;
  *flags = CU_MEMHOSTALLOC_PORTABLE;
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes,
                              CUstream stream) {
  NEED_CONTEXT();
  return fake::copy(fake::Copy::HtoD, reinterpret_cast<void *>(dst), src,
                    bytes, stream);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes,
                              CUstream stream) {
  NEED_CONTEXT();
  return fake::copy(fake::Copy::DtoH, dst, reinterpret_cast<void *>(src),
                    bytes, stream);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                              CUstream stream) {
  NEED_CONTEXT();
  return fake::copy(fake::Copy::DtoD, reinterpret_cast<void *>(dst),
                    reinterpret_cast<void *>(src), bytes, stream);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t bytes,
                         CUstream stream) {
  NEED_CONTEXT();
  return fake::fill(reinterpret_cast<void *>(dst), value, bytes, stream);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned numOptions, CUjit_option *options,
                            void **values) {
  NEED_CONTEXT();
  auto *m = new fake::Module;
  if (!parseImage(static_cast<const unsigned char *>(image), *m)) {
    delete m;
    // The driver writes its reason into the error log when asked for one.
    for (unsigned i = 0; i < numOptions; ++i)
      if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
        std::strcpy(static_cast<char *>(values[i]),
                    "fake: no kernel found in the image");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  ++fake::journal().moduleLoads;
  *module = reinterpret_cast<CUmodule>(m);
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
  NEED_CONTEXT();
  delete reinterpret_cast<fake::Module *>(module);
  ++fake::journal().moduleUnloads;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  NEED_CONTEXT();
  auto *m = reinterpret_cast<fake::Module *>(module);
  auto it = m->functions.find(name);
  if (it == m->functions.end())
    return CUDA_ERROR_NOT_FOUND;
  *function = reinterpret_cast<CUfunction>(&it->second);
  return CUDA_SUCCESS;
}

CUresult cuFuncGetParamInfo(CUfunction function, size_t index, size_t *offset,
                            size_t *size) {
  auto *fn = reinterpret_cast<fake::Function *>(function);
  if (index >= fn->params.size())
    return CUDA_ERROR_INVALID_VALUE;
  size_t at = 0;
  for (size_t i = 0; i < index; ++i)
    at = (at + fn->params[i] + 7) / 8 * 8;
  *offset = at;
  if (size)
    *size = fn->params[index];
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction function,
                            CUfunction_attribute attribute, int value) {
  NEED_CONTEXT();
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      value < 0 || static_cast<size_t>(value) > kMaxOptInShared)
    return CUDA_ERROR_INVALID_VALUE;
  reinterpret_cast<fake::Function *>(function)->sharedLimit = value;
  fake::journal().sharedOptIns.push_back(value);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes,
                        CUstream stream, void **params, void **extra) {
  NEED_CONTEXT();
  const unsigned grid[3] = {gridX, gridY, gridZ};
  const unsigned block[3] = {blockX, blockY, blockZ};
  return fake::launch(*reinterpret_cast<fake::Function *>(function), grid,
                      block, sharedBytes, stream, params, extra);
}

CUresult cuStreamBeginCapture_v2(CUstream stream, int mode) {
  NEED_CONTEXT();
  return fake::beginCapture(stream, mode);
}

CUresult cuStreamEndCapture(CUstream stream, CUgraph *graph) {
  NEED_CONTEXT();
  return fake::endCapture(stream, reinterpret_cast<void **>(graph));
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                     unsigned long long flags) {
  NEED_CONTEXT();
  if (flags)
    return CUDA_ERROR_INVALID_VALUE;
  return fake::instantiate(reinterpret_cast<void **>(exec), graph);
}

CUresult cuGraphExecUpdate_v2(CUgraphExec exec, CUgraph graph,
                              CUgraphExecUpdateResultInfo *info) {
  NEED_CONTEXT();
  fake::Result result = fake::update(exec, graph);
  // CU_GRAPH_EXEC_UPDATE_SUCCESS, or ..._ERROR_TOPOLOGY_CHANGED.
  *info = {result == fake::Success ? 0 : 2, nullptr, nullptr};
  return result;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  NEED_CONTEXT();
  return fake::launchGraph(exec, stream);
}

CUresult cuGraphDestroy(CUgraph graph) { return fake::destroyGraph(graph); }

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  return fake::destroyExec(exec);
}

CUresult cuLaunchHostFunc(CUstream stream, void (*fn)(void *), void *data) {
  NEED_CONTEXT();
  return fake::hostWork(stream, fn, data);
}

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  NEED_CONTEXT();
  if (flags != CU_EVENT_DEFAULT)
    return CUDA_ERROR_INVALID_VALUE;
  return fake::createEvent(reinterpret_cast<void **>(event));
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  NEED_CONTEXT();
  return fake::recordEvent(event, stream);
}

CUresult cuEventSynchronize(CUevent) {
  NEED_CONTEXT();
  return CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *milliseconds, CUevent start, CUevent end) {
  NEED_CONTEXT();
  return fake::elapsed(milliseconds, start, end);
}

CUresult cuEventDestroy_v2(CUevent event) {
  fake::destroyEvent(event);
  return CUDA_SUCCESS;
}

} // extern "C"
