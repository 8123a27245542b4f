//===- OpenCLApi.cpp - libOpenCL.so.1 through dlopen ----------------------===//

#include "OpenCL/OpenCLApi.h"
#include "DynamicLibrary.h"


using namespace adjoint::rt;
using namespace adjoint::rt::opencl;

Status adjoint::rt::opencl::loadOpenCL(const OpenCLApi **api) {
  auto resolveAll = [](const DynamicLibrary &library, OpenCLApi &table) {
    Status status;
#define ADJ_OPENCL_FN(name)                                                    \
  if (status.ok())                                                             \
    status = resolve(library, #name, &table.name);
#include "OpenCL/OpenCLApi.def"
    return status;
  };
  return loadDriver({"libOpenCL.so.1"}, resolveAll, api);
}

bool adjoint::rt::opencl::loadUsm(const OpenCLApi &api,
                                  cl_platform_id platform, UsmApi &usm) {
  auto get = [&](const char *name, auto *slot) {
    using Fn = std::remove_pointer_t<decltype(slot)>;
    *slot = reinterpret_cast<Fn>(
        api.clGetExtensionFunctionAddressForPlatform(platform, name));
    return *slot != nullptr;
  };
  return get("clDeviceMemAllocINTEL", &usm.clDeviceMemAllocINTEL) &&
         get("clMemBlockingFreeINTEL", &usm.clMemBlockingFreeINTEL) &&
         get("clEnqueueMemcpyINTEL", &usm.clEnqueueMemcpyINTEL) &&
         get("clEnqueueMemFillINTEL", &usm.clEnqueueMemFillINTEL) &&
         get("clSetKernelArgMemPointerINTEL",
             &usm.clSetKernelArgMemPointerINTEL);
}

const char *adjoint::rt::opencl::errorName(cl_int code) {
  switch (code) {
#define ADJ_CL_ERROR(name)                                                     \
  case name:                                                                   \
    return #name;
    ADJ_CL_ERROR(CL_SUCCESS)
    ADJ_CL_ERROR(CL_DEVICE_NOT_FOUND)
    ADJ_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
    ADJ_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
    ADJ_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    ADJ_CL_ERROR(CL_OUT_OF_RESOURCES)
    ADJ_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
    ADJ_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
    ADJ_CL_ERROR(CL_MEM_COPY_OVERLAP)
    ADJ_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
    ADJ_CL_ERROR(CL_MAP_FAILURE)
    ADJ_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    ADJ_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    ADJ_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
    ADJ_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
    ADJ_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
    ADJ_CL_ERROR(CL_INVALID_VALUE)
    ADJ_CL_ERROR(CL_INVALID_DEVICE_TYPE)
    ADJ_CL_ERROR(CL_INVALID_PLATFORM)
    ADJ_CL_ERROR(CL_INVALID_DEVICE)
    ADJ_CL_ERROR(CL_INVALID_CONTEXT)
    ADJ_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
    ADJ_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
    ADJ_CL_ERROR(CL_INVALID_HOST_PTR)
    ADJ_CL_ERROR(CL_INVALID_MEM_OBJECT)
    ADJ_CL_ERROR(CL_INVALID_BINARY)
    ADJ_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
    ADJ_CL_ERROR(CL_INVALID_PROGRAM)
    ADJ_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
    ADJ_CL_ERROR(CL_INVALID_KERNEL_NAME)
    ADJ_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
    ADJ_CL_ERROR(CL_INVALID_KERNEL)
    ADJ_CL_ERROR(CL_INVALID_ARG_INDEX)
    ADJ_CL_ERROR(CL_INVALID_ARG_VALUE)
    ADJ_CL_ERROR(CL_INVALID_ARG_SIZE)
    ADJ_CL_ERROR(CL_INVALID_KERNEL_ARGS)
    ADJ_CL_ERROR(CL_INVALID_WORK_DIMENSION)
    ADJ_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
    ADJ_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
    ADJ_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
    ADJ_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
    ADJ_CL_ERROR(CL_INVALID_EVENT)
    ADJ_CL_ERROR(CL_INVALID_OPERATION)
    ADJ_CL_ERROR(CL_INVALID_BUFFER_SIZE)
    ADJ_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
    ADJ_CL_ERROR(CL_INVALID_PROPERTY)
    ADJ_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
    ADJ_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
    ADJ_CL_ERROR(CL_INVALID_DEVICE_QUEUE)
    ADJ_CL_ERROR(CL_INVALID_SPEC_ID)
    ADJ_CL_ERROR(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef ADJ_CL_ERROR
  }
  return "CL_ERROR";
}

Status adjoint::rt::opencl::check(cl_int code, const char *call,
                                  const std::string &context) {
  if (code == CL_SUCCESS)
    return Status::success();
  bool memory = code == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
                code == CL_OUT_OF_RESOURCES || code == CL_OUT_OF_HOST_MEMORY;
  return Status::error(memory ? StatusCode::OutOfMemory : StatusCode::Internal,
                       std::string(errorName(code)) + " (" +
                           std::to_string(code) + ") in " + call + context);
}
