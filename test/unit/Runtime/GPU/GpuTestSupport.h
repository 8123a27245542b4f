//===- GpuTestSupport.h - Shared helpers of the GPU runtime tests -*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_GPUTESTSUPPORT_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_GPUTESTSUPPORT_H

#include "adjoint/Runtime/DeviceRegistry.h"
#include "adjoint/Runtime/GpuABI.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

namespace adjoint::rt::test {

/// opencl:0, or null after a WARN with the reason it is unavailable (the
/// tests then pass without running: a machine without an OpenCL runtime).
inline Device *openclOrSkip() {
  Device *device = nullptr;
  Status status = findDevice("opencl:0", &device);
  if (!status.ok())
    WARN("skipped, no OpenCL device: " << status.toString());
  return device;
}

/// The SPIR-V of GPU/kernels.mlir, built with the test (CMakeLists.txt).
inline const std::vector<char> &kernelBytes() {
  static const std::vector<char> bytes = [] {
    std::ifstream in(ADJOINT_TEST_SPIRV, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}

/// The module and kernel descriptors as the host object of a compiled
/// program embeds them (static storage: the runtime keys its caches by
/// their addresses).
inline const adj_rt_gpu_module &kernelModule() {
  static const adj_rt_gpu_module module = {
      ADJ_RT_GPU_SPIRV, 0, kernelBytes().data(), kernelBytes().size(),
      "kernels"};
  return module;
}

/// fma_f32(a, b, c: pointers, n: i64).
inline const adj_rt_gpu_kernel &fmaKernel() {
  static const uint32_t sizes[] = {0, 0, 0, 8};
  static const adj_rt_gpu_kernel kernel = {&kernelModule(), "fma_f32", 4, 0,
                                           sizes};
  return kernel;
}

/// axpy_f64(alpha: f64, x, y: pointers, cols: i64).
inline const adj_rt_gpu_kernel &axpyKernel() {
  static const uint32_t sizes[] = {8, 0, 0, 8};
  static const adj_rt_gpu_kernel kernel = {&kernelModule(), "axpy_f64", 4, 0,
                                           sizes};
  return kernel;
}

} // namespace adjoint::rt::test

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_GPUTESTSUPPORT_H
