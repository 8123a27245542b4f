//===- HipApi.h - libamdhip64 through dlopen --------------------*- C++ -*-===//
//
// The runtime must build and run where ROCm is not installed, so the few
// HIP types and constants it uses are declared here with the values of
// hip_runtime_api.h (a C ABI stable across ROCm 5 and 6 for these), and the
// entry points (HipApi.def) are resolved from libamdhip64 at run time.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_HIPAPI_H
#define ADJOINT_LIB_RUNTIME_HIP_HIPAPI_H

#include "GPU/StreamHandles.h"
#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace adjoint::rt::hip {

/// Result codes: 0 is success.
using hipError_t = int;
constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorInvalidValue = 1;
constexpr hipError_t hipErrorOutOfMemory = 2;
constexpr hipError_t hipErrorNoDevice = 100;
constexpr hipError_t hipErrorInvalidDevice = 101;
constexpr hipError_t hipErrorInvalidImage = 200;
constexpr hipError_t hipErrorInvalidContext = 201;
constexpr hipError_t hipErrorInvalidHandle = 400;
constexpr hipError_t hipErrorNotFound = 500;

using hipDevice_t = int;
// Opaque handles (streams and events as CUDA's: GPU/StreamHandles.h).
using hipStream_t = gpu::Stream;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipEvent_t = gpu::Event;
using hipGraph_t = gpu::Graph;
using hipGraphExec_t = gpu::GraphExec;
using hipGraphNode_t = struct hipGraphNode *;
/// hipGraphExecUpdate's result where the graphs differ in shape.
constexpr hipError_t hipErrorGraphExecUpdateFailure = 910;

enum hipDeviceAttribute_t : int {
  hipDeviceAttributeMaxBlockDimX = 26,
  hipDeviceAttributeMaxBlockDimY = 27,
  hipDeviceAttributeMaxBlockDimZ = 28,
  hipDeviceAttributeMaxGridDimX = 29,
  hipDeviceAttributeMaxGridDimY = 30,
  hipDeviceAttributeMaxGridDimZ = 31,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeMaxSharedMemoryPerBlock = 74,
  hipDeviceAttributeWarpSize = 87,
};

/// hipStreamCreateWithFlags: no implicit synchronization with the null
/// stream, which other libraries in the process (torch) may use.
constexpr unsigned hipStreamNonBlocking = 0x1;
/// hipHostMalloc: pinned memory usable from every device.
constexpr unsigned hipHostMallocPortable = 0x1;
constexpr unsigned hipEventDefault = 0x0;

/// hipDeviceProp_tR0000 (ROCm 5's hipDeviceProp_t): the offset of
/// `char gcnArchName[256]` ("gfx942:sramecc+:xnack-"), and a buffer size
/// larger than the structure in every release that has it (the runtime
/// writes the whole structure, only the name is read).
constexpr size_t kPropertiesGcnArchNameOffset = 396;
/// The same in hipDeviceProp_tR0600 (ROCm 6's hipDeviceProp_t).
constexpr size_t kPropertiesR0600GcnArchNameOffset = 1160;
constexpr size_t kPropertiesGcnArchNameBytes = 256;
constexpr size_t kPropertiesBufferBytes = 4096;

struct HipApi {
  const char *(*hipGetErrorName)(hipError_t error) = nullptr;
  const char *(*hipGetErrorString)(hipError_t error) = nullptr;
#define ADJ_HIP_FN(name, params) hipError_t(*name) params = nullptr;
#include "HIP/HipApi.def"
};

/// The process's table, loaded (libamdhip64.so.6, else .so.5, else the
/// unversioned name) and hipInit-ed on first call; Unavailable with the
/// reason ("libamdhip64.so.6, libamdhip64.so.5 or libamdhip64.so not found
/// (...)", or the runtime found no GPU) otherwise.
Status loadHip(const HipApi **api);

/// Ok for hipSuccess; otherwise "hipErrorInvalidImage (200: invalid kernel
/// image) in hipModuleLoadData<context>", OutOfMemory for
/// hipErrorOutOfMemory and Internal for the rest.
Status check(const HipApi &api, hipError_t result, const char *call,
             const std::string &context = "");

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_HIPAPI_H
