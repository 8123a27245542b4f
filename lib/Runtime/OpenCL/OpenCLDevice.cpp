//===- OpenCLDevice.cpp - OpenCL devices that take SPIR-V -----------------===//

#include "OpenCL/OpenCLDevice.h"
#include "GPU/GpuDevice.h"
#include "OpenCL/OpenCLApi.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

using namespace adjoint::rt;
using namespace adjoint::rt::opencl;

namespace {

std::string deviceString(const OpenCLApi &cl, cl_device_id device,
                         cl_device_info info) {
  size_t size = 0;
  if (cl.clGetDeviceInfo(device, info, 0, nullptr, &size) != CL_SUCCESS ||
      size == 0)
    return "";
  std::string value(size, '\0');
  if (cl.clGetDeviceInfo(device, info, size, value.data(), nullptr) !=
      CL_SUCCESS)
    return "";
  value.resize(std::strlen(value.c_str()));
  return value;
}

template <typename T>
T deviceValue(const OpenCLApi &cl, cl_device_id device, cl_device_info info) {
  T value{};
  if (cl.clGetDeviceInfo(device, info, sizeof(T), &value, nullptr) !=
      CL_SUCCESS)
    return T{};
  return value;
}

bool hasExtension(const std::string &extensions, const char *name) {
  std::string padded = " " + extensions + " ";
  return padded.find(" " + std::string(name) + " ") != std::string::npos;
}

class OpenCLDevice final : public gpu::GpuDevice {
public:
  OpenCLDevice(const OpenCLApi &cl, cl_platform_id platform,
               cl_device_id device, int index, DeviceProperties properties,
               bool useUsm, const UsmApi &usm)
      : GpuDevice(DeviceKind::OpenCL, index, std::move(properties)), cl_(cl),
        platform_(platform), device_(device), useUsm_(useUsm), usm_(usm) {}

protected:
  Status initialize() override {
    cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_),
        0};
    cl_int err = CL_SUCCESS;
    context_ = cl_.clCreateContext(props, 1, &device_, nullptr, nullptr, &err);
    if (Status status = check(err, "clCreateContext", " for " + id());
        !status.ok())
      return status;
    // No properties: an in-order queue, the order GpuABI.h relies on.
    queue_ = cl_.clCreateCommandQueueWithProperties(context_, device_, nullptr,
                                                    &err);
    return check(err, "clCreateCommandQueueWithProperties", " for " + id());
  }

  Status rawAllocate(size_t bytes, void **ptr) override {
    cl_int err = CL_SUCCESS;
    if (useUsm_) {
      *ptr = usm_.clDeviceMemAllocINTEL(context_, device_, nullptr, bytes,
                                        gpu::kDeviceAlignment, &err);
      if (!*ptr && err == CL_SUCCESS)
        err = CL_OUT_OF_RESOURCES;
      Status status = check(err, "clDeviceMemAllocINTEL",
                            " (" + std::to_string(bytes) + " bytes on " +
                                id() + ")");
      // Whatever the code (CL_INVALID_BUFFER_SIZE past the largest
      // allocation), a refused allocation is out of memory to the caller.
      if (!status.ok())
        return Status::error(StatusCode::OutOfMemory, status.message());
      return status;
    }
    *ptr = cl_.clSVMAlloc(context_, CL_MEM_READ_WRITE, bytes,
                          gpu::kDeviceAlignment);
    if (!*ptr) {
      // Drivers may refuse alignments past their largest data type (Intel's
      // CPU runtime refuses 256): over-allocate at the default alignment
      // and remember where the block really starts.
      void *raw = cl_.clSVMAlloc(context_, CL_MEM_READ_WRITE,
                                 bytes + gpu::kDeviceAlignment, 0);
      if (raw) {
        uintptr_t at = reinterpret_cast<uintptr_t>(raw);
        at = (at + gpu::kDeviceAlignment) & ~(gpu::kDeviceAlignment - 1);
        *ptr = reinterpret_cast<void *>(at);
        std::lock_guard<std::mutex> lock(svmMutex_);
        svmStarts_[*ptr] = raw;
      }
    }
    if (*ptr)
      return Status::success();
    // clSVMAlloc gives no error code; a refusal is almost always memory.
    return Status::error(StatusCode::OutOfMemory,
                         "clSVMAlloc refused " + std::to_string(bytes) +
                             " bytes on " + id());
  }

  void rawRelease(void *ptr) override {
    if (useUsm_) {
      (void)usm_.clMemBlockingFreeINTEL(context_, ptr);
      return;
    }
    std::lock_guard<std::mutex> lock(svmMutex_);
    auto it = svmStarts_.find(ptr);
    if (it != svmStarts_.end()) {
      ptr = it->second;
      svmStarts_.erase(it);
    }
    cl_.clSVMFree(context_, ptr);
  }

  Status enqueueCopy(void *dst, const void *src, size_t bytes, gpu::CopyKind,
                     bool blocking) override {
    cl_bool wait = blocking ? CL_TRUE : CL_FALSE;
    if (useUsm_)
      return check(usm_.clEnqueueMemcpyINTEL(queue_, wait, dst, src, bytes, 0,
                                             nullptr, nullptr),
                   "clEnqueueMemcpyINTEL");
    return check(cl_.clEnqueueSVMMemcpy(queue_, wait, dst, src, bytes, 0,
                                        nullptr, nullptr),
                 "clEnqueueSVMMemcpy");
  }

  Status enqueueFill(void *dst, uint8_t value, size_t bytes) override {
    if (useUsm_)
      return check(usm_.clEnqueueMemFillINTEL(queue_, dst, &value, 1, bytes,
                                              0, nullptr, nullptr),
                   "clEnqueueMemFillINTEL");
    return check(cl_.clEnqueueSVMMemFill(queue_, dst, &value, 1, bytes, 0,
                                         nullptr, nullptr),
                 "clEnqueueSVMMemFill");
  }

  Status finish() override { return check(cl_.clFinish(queue_), "clFinish"); }

  bool acceptsFormat(uint32_t format) const override {
    return format == ADJ_RT_GPU_SPIRV;
  }

  Status loadModule(const adj_rt_gpu_module &module, void **handle) override {
    std::string name = module.name ? module.name : "<unnamed>";
    cl_int err = CL_SUCCESS;
    cl_program program =
        cl_.clCreateProgramWithIL(context_, module.data, module.size, &err);
    if (Status status =
            check(err, "clCreateProgramWithIL", " for module " + name);
        !status.ok())
      return status;
    err = cl_.clBuildProgram(program, 1, &device_, "", nullptr, nullptr);
    if (err != CL_SUCCESS) {
      size_t size = 0;
      std::string log;
      if (cl_.clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0,
                                    nullptr, &size) == CL_SUCCESS &&
          size > 1) {
        log.resize(size);
        (void)cl_.clGetProgramBuildInfo(program, device_,
                                        CL_PROGRAM_BUILD_LOG, size,
                                        log.data(), nullptr);
        log.resize(std::strlen(log.c_str()));
      }
      (void)cl_.clReleaseProgram(program);
      return check(err, "clBuildProgram",
                   " for module " + name +
                       (log.empty() ? std::string() : ":\n" + log));
    }
    // Kept until its code is unloaded (GpuDevice::forgetLoadedCode).
    *handle = program;
    return Status::success();
  }

  void releaseKernel(void *handle) override {
    (void)cl_.clReleaseKernel(static_cast<cl_kernel>(handle));
  }

  void releaseModule(void *handle) override {
    (void)cl_.clReleaseProgram(static_cast<cl_program>(handle));
  }

  Status loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                    void **handle) override {
    cl_int err = CL_SUCCESS;
    cl_kernel k =
        cl_.clCreateKernel(static_cast<cl_program>(module), kernel.name, &err);
    std::string what = std::string(" for kernel ") + kernel.name;
    if (Status status = check(err, "clCreateKernel", what); !status.ok())
      return status;
    cl_uint numArgs = 0;
    Status status = check(cl_.clGetKernelInfo(k, CL_KERNEL_NUM_ARGS,
                                              sizeof(numArgs), &numArgs,
                                              nullptr),
                          "clGetKernelInfo", what);
    if (status.ok() && numArgs != kernel.numArgs)
      status = Status::error(StatusCode::InvalidArgument,
                             "kernel " + std::string(kernel.name) + " takes " +
                                 std::to_string(numArgs) +
                                 " arguments, its descriptor says " +
                                 std::to_string(kernel.numArgs));
    if (!status.ok()) {
      (void)cl_.clReleaseKernel(k);
      return status;
    }
    *handle = k;
    return Status::success();
  }

  Status enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                       const uint64_t grid[3], const uint64_t block[3],
                       uint32_t sharedBytes, void **args) override {
    auto k = static_cast<cl_kernel>(handle);
    std::string what = std::string(" for kernel ") + kernel.name;
    for (uint32_t i = 0; i < kernel.numArgs; ++i) {
      cl_int err;
      const char *call;
      if (kernel.argSizes[i] == 0) {
        void *pointer = *static_cast<void **>(args[i]);
        call = useUsm_ ? "clSetKernelArgMemPointerINTEL"
                       : "clSetKernelArgSVMPointer";
        err = useUsm_ ? usm_.clSetKernelArgMemPointerINTEL(k, i, pointer)
                      : cl_.clSetKernelArgSVMPointer(k, i, pointer);
      } else {
        call = "clSetKernelArg";
        err = cl_.clSetKernelArg(k, i, kernel.argSizes[i], args[i]);
      }
      if (Status status =
              check(err, call, what + " (argument #" + std::to_string(i) + ")");
          !status.ok())
        return status;
    }
    // Dynamic workgroup memory is one more __local pointer argument in
    // OpenCL (GpuABI.h).
    if (sharedBytes)
      if (Status status = check(cl_.clSetKernelArg(k, kernel.numArgs,
                                                   sharedBytes, nullptr),
                                "clSetKernelArg", what + " (workgroup memory)");
          !status.ok())
        return status;
    size_t global[3], local[3];
    for (int d = 0; d < 3; ++d) {
      global[d] = grid[d] * block[d];
      local[d] = block[d];
    }
    return check(cl_.clEnqueueNDRangeKernel(queue_, k, 3, nullptr, global,
                                            local, 0, nullptr, nullptr),
                 "clEnqueueNDRangeKernel", what);
  }

private:
  const OpenCLApi &cl_;
  cl_platform_id platform_;
  cl_device_id device_;
  bool useUsm_;
  UsmApi usm_;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  /// Over-allocated SVM blocks: aligned address -> what clSVMAlloc gave.
  std::mutex svmMutex_;
  std::unordered_map<void *, void *> svmStarts_;
};

DeviceProperties queryProperties(const OpenCLApi &cl, cl_device_id device) {
  DeviceProperties p;
  p.name = deviceString(cl, device, CL_DEVICE_NAME);
  p.vendor = deviceString(cl, device, CL_DEVICE_VENDOR);
  p.driverVersion = deviceString(cl, device, CL_DRIVER_VERSION);
  p.memoryBytes = deviceValue<cl_ulong>(cl, device, CL_DEVICE_GLOBAL_MEM_SIZE);
  p.maxWorkgroupSize =
      deviceValue<size_t>(cl, device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t itemSizes[3] = {};
  if (cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                         sizeof(itemSizes), itemSizes, nullptr) == CL_SUCCESS)
    for (int d = 0; d < 3; ++d)
      p.maxWorkgroupDims[d] = itemSizes[d];
  p.localMemoryBytes =
      deviceValue<cl_ulong>(cl, device, CL_DEVICE_LOCAL_MEM_SIZE);
  p.computeUnits = deviceValue<cl_uint>(cl, device, CL_DEVICE_MAX_COMPUTE_UNITS);
  std::string extensions = deviceString(cl, device, CL_DEVICE_EXTENSIONS);
  size_t size = 0;
  if (cl.clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr,
                         &size) == CL_SUCCESS &&
      size) {
    std::vector<size_t> sizes(size / sizeof(size_t));
    if (cl.clGetDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, size,
                           sizes.data(), nullptr) == CL_SUCCESS)
      for (size_t s : sizes)
        p.subgroupSizes.push_back(static_cast<uint32_t>(s));
    std::sort(p.subgroupSizes.begin(), p.subgroupSizes.end());
  }
  p.fp64 = deviceValue<cl_device_fp_config>(cl, device,
                                            CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  p.fp16 = hasExtension(extensions, "cl_khr_fp16") ||
           deviceValue<cl_device_fp_config>(cl, device,
                                            CL_DEVICE_HALF_FP_CONFIG) != 0;
  return p;
}

} // namespace

Status adjoint::rt::opencl::probeDevices(
    std::vector<std::unique_ptr<Device>> &devices) {
  const OpenCLApi *api = nullptr;
  if (Status status = loadOpenCL(&api); !status.ok())
    return status;
  const OpenCLApi &cl = *api;
  cl_uint numPlatforms = 0;
  cl_int err = cl.clGetPlatformIDs(0, nullptr, &numPlatforms);
  if (err == CL_PLATFORM_NOT_FOUND_KHR || numPlatforms == 0)
    return Status::error(StatusCode::Unavailable,
                         "no OpenCL platform (is an ICD installed? "
                         "OCL_ICD_VENDORS names the folder of .icd files)");
  if (Status status = check(err, "clGetPlatformIDs"); !status.ok())
    return status;
  std::vector<cl_platform_id> platforms(numPlatforms);
  if (Status status = check(
          cl.clGetPlatformIDs(numPlatforms, platforms.data(), nullptr),
          "clGetPlatformIDs");
      !status.ok())
    return status;
  const char *memory = std::getenv("ADJOINT_OPENCL_MEMORY");
  bool forceSvm = memory && std::string(memory) == "svm";
  std::vector<std::string> skipped;
  for (cl_platform_id platform : platforms) {
    cl_uint count = 0;
    if (cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) !=
            CL_SUCCESS ||
        count == 0)
      continue;
    std::vector<cl_device_id> ids(count);
    if (cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(),
                          nullptr) != CL_SUCCESS)
      continue;
    UsmApi usm;
    bool platformUsm = loadUsm(cl, platform, usm);
    for (cl_device_id id : ids) {
      std::string name = deviceString(cl, id, CL_DEVICE_NAME);
      if (deviceString(cl, id, CL_DEVICE_IL_VERSION).find("SPIR-V") ==
          std::string::npos) {
        skipped.push_back(name + ": no SPIR-V");
        continue;
      }
      std::string extensions = deviceString(cl, id, CL_DEVICE_EXTENSIONS);
      bool useUsm = !forceSvm && platformUsm &&
                    hasExtension(extensions, "cl_intel_unified_shared_memory");
      bool svm = deviceValue<cl_device_svm_capabilities>(
                     cl, id, CL_DEVICE_SVM_CAPABILITIES) &
                 CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
      if (!useUsm && !svm) {
        skipped.push_back(name + (forceSvm ? ": no SVM" : ": no USM or SVM"));
        continue;
      }
      int index = static_cast<int>(devices.size());
      devices.push_back(std::make_unique<OpenCLDevice>(
          cl, platform, id, index, queryProperties(cl, id), useUsm, usm));
    }
  }
  if (!devices.empty())
    return Status::success();
  std::string why = "no OpenCL device with SPIR-V support";
  for (size_t i = 0; i < skipped.size(); ++i)
    why += (i ? "; " : " (") + skipped[i];
  return Status::error(StatusCode::Unavailable,
                       why + (skipped.empty() ? "" : ")"));
}
