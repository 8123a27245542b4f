//===- OpenCLApi.h - libOpenCL.so.1 through dlopen --------------*- C++ -*-===//
//
// The OpenCL entry points as a table of function pointers (OpenCLApi.def)
// filled from the ICD loader at run time: the runtime has no link
// dependency on OpenCL, only on Debian's CL/cl.h for types and constants.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_OPENCL_OPENCLAPI_H
#define ADJOINT_LIB_RUNTIME_OPENCL_OPENCLAPI_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include "adjoint/Runtime/Status.h"

#include <string>

namespace adjoint::rt::opencl {

struct OpenCLApi {
#define ADJ_OPENCL_FN(name) decltype(&::name) name = nullptr;
#include "OpenCL/OpenCLApi.def"
};

/// Intel's unified shared memory (cl_intel_unified_shared_memory), per
/// platform.
struct UsmApi {
  clDeviceMemAllocINTEL_fn clDeviceMemAllocINTEL = nullptr;
  clMemBlockingFreeINTEL_fn clMemBlockingFreeINTEL = nullptr;
  clEnqueueMemcpyINTEL_fn clEnqueueMemcpyINTEL = nullptr;
  clEnqueueMemFillINTEL_fn clEnqueueMemFillINTEL = nullptr;
  clSetKernelArgMemPointerINTEL_fn clSetKernelArgMemPointerINTEL = nullptr;
};

/// The process's table, loaded on first call; Unavailable with the reason
/// ("libOpenCL.so.1 not found (...)") when the loader is missing or lacks
/// an entry point.
Status loadOpenCL(const OpenCLApi **api);

/// Fills `usm` for `platform`; false when an entry point is missing.
bool loadUsm(const OpenCLApi &api, cl_platform_id platform, UsmApi &usm);

/// "CL_INVALID_KERNEL_ARGS", or "CL_ERROR" for a code it does not know.
const char *errorName(cl_int code);
/// Ok for CL_SUCCESS; otherwise "CL_INVALID_KERNEL_ARGS (-52) in
/// clEnqueueNDRangeKernel<context>", OutOfMemory for the allocation
/// failures and Internal for the rest.
Status check(cl_int code, const char *call, const std::string &context = "");

} // namespace adjoint::rt::opencl

#endif // ADJOINT_LIB_RUNTIME_OPENCL_OPENCLAPI_H
