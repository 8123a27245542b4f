//===- GpuTestSupport.h - Shared helpers of the GPU runtime tests -*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_GPUTESTSUPPORT_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_GPUTESTSUPPORT_H

#include "adjoint/Runtime/DeviceRegistry.h"
#include "adjoint/Runtime/GpuABI.h"
#include "adjoint/Runtime/Signature.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <iterator>
#include <vector>

namespace adjoint::rt::test {

/// The device `id`, or null after a WARN with the reason it is unavailable
/// (the tests then pass without running: a machine without that driver).
/// A missing device fails the test instead where it must be there: where
/// ADJOINT_TEST_REQUIRE_DEVICES names it (ctest's fake Level Zero run), and
/// for opencl:0 where OCL_ICD_VENDORS points the loader at a runtime (ctest
/// sets it when scripts/setup.sh installed one).
inline Device *deviceOrSkip(const std::string &id) {
  Device *device = nullptr;
  Status status = findDevice(id, &device);
  if (status.ok())
    return device;
  const char *required = std::getenv("ADJOINT_TEST_REQUIRE_DEVICES");
  const char *vendors = std::getenv("OCL_ICD_VENDORS");
  bool mustHave =
      (required && (" " + std::string(required) + " ").find(" " + id + " ") !=
                       std::string::npos) ||
      (id == "opencl:0" && vendors && *vendors);
  if (mustHave)
    FAIL(id << " is required here: " << status.toString());
  WARN("skipped, no " << id << ": " << status.toString());
  return nullptr;
}

inline Device *openclOrSkip() { return deviceOrSkip("opencl:0"); }

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

/// n values 0, scale, 2 scale, ... (modulo 97) plus offset.
std::vector<double> ramp(int64_t n, double scale, double offset);

/// What the hand-written host function fmaEntry launches and how; set by
/// each test before invoke() (entry points are plain function pointers).
struct HostCode {
  const adj_rt_gpu_kernel *kernel = nullptr;
  uint64_t block = 64;
  /// fmaEntry returns its first input instead of its result.
  bool returnInput = false;
};
extern HostCode gHost;

/// A rank-1 memref descriptor of n contiguous elements at ptr.
void writeDescriptor(int64_t *desc, void *ptr, int64_t n);
/// Host code of (a, b: tensor<n x f32>) -> tensor<n x f32>: allocates c,
/// launches gHost.kernel as fma_f32(a, b, c, n) on ceil(n / block) blocks.
void fmaEntry(void **args);
/// `inputs` inputs and one output, all tensor<n x dtype>.
Signature vectorSignature(DType dtype, int64_t n, int inputs);

} // namespace adjoint::rt::test

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_GPUTESTSUPPORT_H
