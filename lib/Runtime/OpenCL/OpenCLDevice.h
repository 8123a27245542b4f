//===- OpenCLDevice.h - OpenCL devices that take SPIR-V ---------*- C++ -*-===//
//
// Every OpenCL device whose CL_DEVICE_IL_VERSION names SPIR-V, numbered
// across platforms in the loader's order ("opencl:0", ...). Memory is Intel
// unified shared memory where the platform has it, else OpenCL 2.0
// coarse-grained SVM: both are plain pointers, as GpuABI.h wants.
// ADJOINT_OPENCL_MEMORY=svm picks SVM even where USM exists (to test that
// path, or to work around a driver's USM).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H
#define ADJOINT_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H

#include "adjoint/Runtime/Device.h"

#include <memory>
#include <vector>

namespace adjoint::rt::opencl {

/// The usable OpenCL devices; when there are none, Unavailable with the
/// reason ("libOpenCL.so.1 not found ...", "no OpenCL device with SPIR-V
/// support ...").
Status probeDevices(std::vector<std::unique_ptr<Device>> &devices);

} // namespace adjoint::rt::opencl

#endif // ADJOINT_LIB_RUNTIME_OPENCL_OPENCLDEVICE_H
