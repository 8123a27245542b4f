//===- LevelZeroTest.cpp - The Level Zero driver on a fake loader ---------===//
//
// No machine here has Level Zero: these tests run against FakeLevelZero.cpp
// (ctest puts it first on the library path; see CMakeLists.txt), which
// records launches instead of running them. They check what the driver asks
// of Level Zero: discovery, properties, memory, the in-order list, module
// and kernel creation, arguments and group sizes, and its error messages.
//
//===----------------------------------------------------------------------===//

#include "FakeLevelZero.h"
#include "GpuTestSupport.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstring>
#include <dlfcn.h>
#include <string>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

namespace {
/// The fake's journal of launches, or null under a real loader.
std::vector<FakeZeLaunch> *fakeLaunches() {
  void *loader = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!loader)
    return nullptr;
  auto journal =
      reinterpret_cast<FakeZeLaunchesFn>(dlsym(loader, "fakeZeLaunches"));
  return journal ? static_cast<std::vector<FakeZeLaunch> *>(journal())
                 : nullptr;
}

template <typename T> std::string bytesOf(T value) {
  return std::string(reinterpret_cast<const char *>(&value), sizeof(T));
}
} // namespace

TEST_CASE("Level Zero: devices, memory and launches through the driver",
          "[gpu][levelzero]") {
  Device *device = deviceOrSkip("level_zero:0");
  if (!device)
    return;
  std::vector<FakeZeLaunch> *launches = fakeLaunches();
  if (!launches) {
    WARN("a real Level Zero loader: the fake's checks are skipped");
    return;
  }
  REQUIRE(device->id() == "level_zero:0");
  const DeviceProperties &p = device->properties();
  REQUIRE(p.name == "Fake Level Zero GPU");
  REQUIRE(p.vendor == "Intel");
  REQUIRE(p.maxWorkgroupSize == 512);
  REQUIRE(p.maxWorkgroupDims[2] == 64);
  REQUIRE(p.subgroupSizes == std::vector<uint32_t>{8, 16, 32});
  REQUIRE(p.localMemoryBytes == 65536);
  REQUIRE(p.computeUnits == 64);
  REQUIRE(p.memoryBytes == uint64_t(1) << 30);
  REQUIRE(p.fp64);
  REQUIRE(p.fp16);

  Tensor host = Tensor::fromDoubles(DType::F64, {4}, {1, 2, 3, 4});
  Tensor onDevice = host.to(*device);
  REQUIRE(onDevice.toHost().toDoubles() == host.toDoubles());
  REQUIRE(device->fill(onDevice.data(), 0, 16).ok());
  REQUIRE(onDevice.toHost().toDoubles() == std::vector<double>{0, 0, 3, 4});

  const int64_t n = 1000;
  Tensor a = Tensor::fromDoubles(DType::F32, {n}, ramp(n, 1, 0));
  std::vector<Tensor> inputs = {a.to(*device), a.to(*device)};
  std::vector<Tensor> outputs;
  Signature sig = vectorSignature(DType::F32, n, 2);
  gHost = HostCode{&fmaKernel(), 64, false};
  launches->clear();
  REQUIRE(invoke(fmaEntry, sig, inputs, outputs, nullptr, device).ok());
  REQUIRE(launches->size() == 1);
  const FakeZeLaunch &launch = launches->back();
  REQUIRE(launch.kernel == "fma_f32");
  REQUIRE(launch.groups[0] == 16); // ceil(1000 / 64)
  REQUIRE(launch.groups[1] == 1);
  REQUIRE(launch.group[0] == 64);
  REQUIRE(launch.group[2] == 1);
  // Pointer arguments are passed as the pointer's bytes, scalars as theirs.
  REQUIRE(launch.args.size() == 4);
  REQUIRE(launch.args[0] == bytesOf(inputs[0].data()));
  REQUIRE(launch.args[1] == bytesOf(inputs[1].data()));
  REQUIRE(launch.args[2] == bytesOf(outputs[0].data()));
  REQUIRE(launch.args[3] == bytesOf(n));

  static const uint32_t sizes[] = {0, 0, 0, 8};
  static const adj_rt_gpu_kernel missing = {&kernelModule(), "no_such", 4, 0,
                                            sizes};
  gHost = HostCode{&missing, 64, false};
  Status status = invoke(fmaEntry, sig, inputs, outputs, nullptr, device);
  REQUIRE(status.message() == "ZE_RESULT_ERROR_INVALID_KERNEL_NAME "
                              "(0x78000011) in zeKernelCreate for kernel "
                              "no_such");
  void *huge = nullptr;
  Status refused = device->allocate(size_t(1) << 31, &huge);
  REQUIRE(refused.code() == StatusCode::OutOfMemory);
  REQUIRE(refused.message().find("ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY "
                                 "(0x70000003) in zeMemAllocDevice (") == 0);
}
