//===- StreamVendors.h - The CUDA and HIP drivers on their fakes -*- C++ -*-===//
//
// What a test written once for both stream drivers (StreamDeviceTest.cpp,
// the GEMM tests) needs to know of each: its device and fake library, a
// kernel the fake loads, and what the fake reports and says.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_STREAMVENDORS_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_STREAMVENDORS_H

#include "CUDA/CudaDevice.h"
#include "FakeStreamJournal.h"
#include "GpuTestSupport.h"
#include "HIP/HipDevice.h"
#include "adjoint/Runtime/DLPack.h"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace adjoint::rt::test {

/// The HSACO built from hip-kernels.ll (CMakeLists.txt).
inline const std::vector<char> &hipCodeObject() {
  static const std::vector<char> bytes = [] {
    std::ifstream in(ADJOINT_TEST_HSACO, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}

struct CudaVendor {
  using Device = cuda::CudaDevice;
  static constexpr const char *id = "cuda:0";
  static constexpr const char *prefix = "cuda";
  static constexpr const char *library = "libcuda.so.1";
  static constexpr DeviceKind kind = DeviceKind::CUDA;
  static constexpr dlpack::DeviceType dlpackType = dlpack::kDLCUDA;
  static constexpr const char *noDeviceVariable = "FAKE_CUDA_NO_DEVICE";

  /// scale(out, in: pointers, factor: f32, n: i64) in PTX (the fake reads
  /// the parameters from the .entry; the NUL ends the text for the
  /// driver).
  static const adj_rt_gpu_kernel &scale() {
    static const char ptx[] =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry scale(\n .param .u64 out,\n .param .u64 in,\n"
        " .param .f32 factor,\n .param .u64 n\n)\n{\n ret;\n}\n";
    static const adj_rt_gpu_module module = {ADJ_RT_GPU_CUDA, 0, ptx,
                                             sizeof(ptx), "ptx_kernels"};
    static const uint32_t sizes[] = {0, 0, 4, 8};
    static const adj_rt_gpu_kernel kernel = {&module, "scale", 4, 0, sizes};
    return kernel;
  }

  // What the fake reports.
  static constexpr const char *name = "Fake NVIDIA H100";
  static constexpr const char *vendor = "NVIDIA";
  static constexpr const char *chip = "sm_90";
  static constexpr const char *driverVersion = "CUDA 13.0";
  static constexpr uint32_t subgroup = 32;
  static constexpr uint64_t maxBlockDimZ = 64;
  /// The opt-in maximum, not the 48 KiB every kernel gets.
  static constexpr uint64_t localMemoryBytes = 232448;
  static constexpr uint32_t computeUnits = 132;
  static constexpr uint64_t maxGridY = 65535;
  // What the driver says.
  static constexpr const char *notFound =
      "CUDA_ERROR_NOT_FOUND (500: named symbol not found) in "
      "cuModuleGetFunction";
  static constexpr const char *outOfMemory =
      "CUDA_ERROR_OUT_OF_MEMORY (2: out of memory) in cuMemAlloc_v2 (";
  static constexpr const char *noDevice =
      "unavailable: the CUDA driver has no usable GPU: CUDA_ERROR_NO_DEVICE "
      "(100: no CUDA-capable device is detected) in cuInit";

  /// Host memory the user pinned with the driver, and its release.
  static Status pin(Device &device, size_t bytes, void **ptr) {
    return device.withCurrent([&] {
      return cuda::check(device.api(),
                         device.api().cuMemHostAlloc(ptr, bytes, 0),
                         "cuMemHostAlloc");
    });
  }
  static Status unpin(Device &device, void *ptr) {
    return device.withCurrent([&] {
      return cuda::check(device.api(), device.api().cuMemFreeHost(ptr),
                         "cuMemFreeHost");
    });
  }
};

struct HipVendor {
  using Device = hip::HipDevice;
  static constexpr const char *id = "hip:0";
  static constexpr const char *prefix = "hip";
  static constexpr const char *library = "libamdhip64.so.6";
  static constexpr DeviceKind kind = DeviceKind::HIP;
  static constexpr dlpack::DeviceType dlpackType = dlpack::kDLROCM;
  static constexpr const char *noDeviceVariable = "FAKE_HIP_NO_DEVICE";

  /// scale(out, in: pointers, factor: f32, n: i64) of hip-kernels.ll.
  static const adj_rt_gpu_kernel &scale() {
    static const adj_rt_gpu_module module = {
        ADJ_RT_GPU_HSACO, 0, hipCodeObject().data(), hipCodeObject().size(),
        "hip_kernels"};
    static const uint32_t sizes[] = {0, 0, 4, 8};
    static const adj_rt_gpu_kernel kernel = {&module, "scale", 4, 0, sizes};
    return kernel;
  }

  static constexpr const char *name = "Fake AMD Instinct MI300X";
  static constexpr const char *vendor = "AMD";
  /// The architecture with its target features, as Target's hip chips.
  static constexpr const char *chip = "gfx942:sramecc+:xnack-";
  static constexpr const char *driverVersion = "HIP 6.2";
  static constexpr uint32_t subgroup = 64;
  static constexpr uint64_t maxBlockDimZ = 1024;
  static constexpr uint64_t localMemoryBytes = 65536;
  static constexpr uint32_t computeUnits = 304;
  static constexpr uint64_t maxGridY = 65536;
  static constexpr const char *notFound =
      "hipErrorNotFound (500: named symbol not found) in "
      "hipModuleGetFunction";
  static constexpr const char *outOfMemory =
      "hipErrorOutOfMemory (2: out of memory) in hipMalloc (";
  static constexpr const char *noDevice =
      "unavailable: the HIP runtime has no usable GPU: hipErrorNoDevice "
      "(100: no ROCm-capable device is detected) in hipInit";

  static Status pin(Device &device, size_t bytes, void **ptr) {
    return device.withCurrent([&] {
      return hip::check(device.api(), device.api().hipHostMalloc(ptr, bytes, 0),
                        "hipHostMalloc");
    });
  }
  static Status unpin(Device &device, void *ptr) {
    return device.withCurrent([&] {
      return hip::check(device.api(), device.api().hipHostFree(ptr),
                        "hipHostFree");
    });
  }
};

/// The vendor's device on its fake driver and the fake's journal, or null
/// (after a WARN) where the fake is not loaded (a real driver, or another
/// vendor's test run).
template <typename Vendor>
typename Vendor::Device *fakeDevice(FakeStreamJournal **journal) {
  Device *device = deviceOrSkip(Vendor::id);
  if (!device)
    return nullptr;
  *journal = findFakeJournal(Vendor::library);
  if (!*journal) {
    WARN("a real " << Vendor::prefix << " driver: the fake's checks are "
                   "skipped");
    return nullptr;
  }
  return static_cast<typename Vendor::Device *>(device);
}

/// `device`, the vendor's device on its fake, and `journal`, the fake's
/// journal; the test returns (passing, after a warning) where the fake is
/// not loaded.
#define FAKE_DEVICE_OR_RETURN(device, journal)                                 \
  FakeStreamJournal *journal = nullptr;                                        \
  auto *device = fakeDevice<TestType>(&journal);                               \
  if (!device)                                                                 \
    return;

/// A C symbol of the vendor's fake library.
template <typename Vendor, typename Fn> Fn fakeSymbol(const char *name) {
  void *library = dlopen(Vendor::library, RTLD_NOW | RTLD_NOLOAD);
  Fn fn = library ? reinterpret_cast<Fn>(dlsym(library, name)) : nullptr;
  if (library)
    dlclose(library);
  return fn;
}

/// The work queued on the fake's stream since `from`.
inline std::vector<std::string> since(const FakeStreamJournal &j,
                                      size_t from) {
  return std::vector<std::string>(j.stream.begin() + from, j.stream.end());
}

/// A one-block launch of kernel k(pointer) from `module`: what a module's
/// checks and load errors say.
inline Status launchFromModule(gpu::GpuDevice &device,
                               const adj_rt_gpu_module &module) {
  static const uint32_t sizes[] = {0};
  adj_rt_gpu_kernel kernel = {&module, "k", 1, 0, sizes};
  void *p = nullptr;
  void *args[] = {&p};
  const uint64_t one[3] = {1, 1, 1};
  return device.launch(kernel, one, one, 0, args);
}

template <typename T> std::string bytesOf(T value) {
  return std::string(reinterpret_cast<const char *>(&value), sizeof(T));
}

} // namespace adjoint::rt::test

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_STREAMVENDORS_H
