//===- CudaApi.h - libcuda.so.1 through dlopen ------------------*- C++ -*-===//
//
// No CUDA headers are installed where Adjoint builds, and the runtime must
// not link the driver, so the few types and constants it uses are declared
// here with the values of the CUDA driver API (a stable C ABI), and the
// entry points (CudaApi.def) are resolved from libcuda.so.1 at run time.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUDAAPI_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUDAAPI_H

#include "GPU/StreamHandles.h"
#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace adjoint::rt::cuda {

/// Result codes: 0 is success.
using CUresult = int;
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;

using CUdevice = int;
/// Device addresses: 64-bit integers, the same values as host pointers
/// under unified addressing (every 64-bit CUDA platform).
using CUdeviceptr = uint64_t;
// Opaque handles (streams and events as HIP's: GPU/StreamHandles.h).
using CUcontext = struct CUctx_st *;
using CUstream = gpu::Stream;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUevent = gpu::Event;
using CUgraph = gpu::Graph;
using CUgraphExec = gpu::GraphExec;
using CUgraphNode = struct CUgraphNode_st *;

/// cuGraphExecUpdate_v2's account of an update (result 0: updated).
struct CUgraphExecUpdateResultInfo {
  int result;
  CUgraphNode errorNode;
  CUgraphNode errorFromNode;
};
/// cuGraphExecUpdate_v2's result where the graphs differ in shape.
constexpr CUresult CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910;

enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
};

enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};

enum CUjit_option : int {
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/// cuStreamCreate: no implicit synchronization with the legacy default
/// stream, which other libraries in the process (torch) may use.
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
/// cuMemHostAlloc: pinned memory usable from every context.
constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
/// Dynamic shared memory up to this needs no opt-in per function.
constexpr uint32_t kDefaultSharedBytes = 48 * 1024;

struct CudaApi {
#define ADJ_CUDA_FN(name, params) CUresult (*name) params = nullptr;
#include "CUDA/CudaApi.def"
};

/// The process's table, loaded and cuInit-ed on first call; Unavailable
/// with the reason ("libcuda.so.1 not found (...)", or the driver found no
/// GPU) otherwise.
Status loadCuda(const CudaApi **api);

/// Ok for CUDA_SUCCESS; otherwise "CUDA_ERROR_INVALID_IMAGE (device kernel
/// image is invalid) in cuModuleLoadDataEx<context>", OutOfMemory for
/// CUDA_ERROR_OUT_OF_MEMORY and Internal for the rest.
Status check(const CudaApi &api, CUresult result, const char *call,
             const std::string &context = "");

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUDAAPI_H
