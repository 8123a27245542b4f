//===- FakeStreamDriverTest.cpp - Compiled GPU code on the fake drivers ---===//
//
// A program compiled for cuda:sm_90 (fatbins with cubin and PTX) and for
// hip:gfx942 (an HSACO code object per kernel module), run on the fake
// libcuda.so.1 and libamdhip64.so.6 (test/unit/Runtime/GPU/FakeCuda.cpp and
// FakeHip.cpp; each ctest entry puts one on the library path). The fakes
// cannot execute kernels; the runtime checks every launch against the
// image's own account of its kernels (the cubin's parameter records, the
// code object's amdhsa.kernels metadata), so what reaches the fake says
// that the code generator's images and the host code agree: every module
// loaded once, each kernel found by its name, the launches' shapes and
// arguments, and host inputs staged in pinned memory.
//
//===----------------------------------------------------------------------===//

#include "FakeStreamJournal.h"
#include "Helpers.h"

#include "adjoint/Runtime/DeviceRegistry.h"
#include "adjoint/Target/Target.h"

#include <cstdlib>
#include <cstring>

using namespace adjoint;
using namespace adjoint::test;

namespace {
struct CudaTarget {
  static constexpr const char *device = "cuda:0";
  static constexpr const char *target = "cuda:sm_90";
  static constexpr const char *library = "libcuda.so.1";
  static constexpr uint32_t subgroup = 32;
  /// The toolkit (ptxas) the build found; empty without one.
  static constexpr const char *toolkit = ADJOINT_TEST_CUDA_TOOLKIT;
};
struct HipTarget {
  static constexpr const char *device = "hip:0";
  static constexpr const char *target = "hip:gfx942";
  static constexpr const char *library = "libamdhip64.so.6";
  static constexpr uint32_t subgroup = 64;
  /// The ROCm folder (device libraries) the build found; empty without one.
  static constexpr const char *toolkit = ADJOINT_TEST_ROCM_PATH;
};

template <typename T> std::string bytesOf(T value) {
  return std::string(reinterpret_cast<const char *>(&value), sizeof(T));
}
} // namespace

TEMPLATE_TEST_CASE("a program compiled for a stream GPU launches its kernels "
                   "on the fake driver",
                   "[stream-compiled]", CudaTarget, HipTarget) {
  if (std::string(TestType::toolkit).empty()) {
    WARN("no toolkit for " << TestType::target << " in this build");
    return;
  }
  rt::Device *device = nullptr;
  rt::Status status = rt::findDevice(TestType::device, &device);
  FakeStreamJournal *j = findFakeJournal(TestType::library);
  if (!status.ok() || !j) {
    const char *required = std::getenv("ADJOINT_TEST_REQUIRE_DEVICES");
    if (required && std::strstr(required, TestType::device))
      FAIL("the fake " << TestType::device
                       << " is required here: " << status.toString());
    WARN("no fake " << TestType::device << ": " << status.toString());
    return;
  }
  api::Module m;
  m.function("f", {f32({1000}), f32({})},
             [](api::Value x, api::Value s) {
               return api::Values{api::exp(x) * s, api::sum(x * x)};
             });
  Executable exe =
      compile(m, "f", Target::parse(TestType::target), noCache());
  rt::Tensor x = rt::Tensor::fromDoubles(DType::F32, {1000},
                                         std::vector<double>(1000, 0.5));
  rt::Tensor s = rt::Tensor::fromDoubles(DType::F32, {}, {2.0});
  rt::Tensor xOnDevice = x.to(*device), sOnDevice = s.to(*device);
  size_t launches = j->launches.size();
  int loads = j->moduleLoads;
  std::vector<rt::Tensor> out = exe.run({xOnDevice, sOnDevice});
  REQUIRE(out.size() == 2);
  REQUIRE(&out[0].device() == device);

  // Every kernel module loaded once, every launch accepted by the
  // runtime's argument check, within the workgroup size the kernels were
  // built for (256); the elementwise kernel takes x, s and its output as
  // device addresses, in whole subgroups.
  REQUIRE(j->moduleLoads > loads);
  REQUIRE(j->launches.size() > launches);
  bool sawElementwise = false;
  for (size_t i = launches; i < j->launches.size(); ++i) {
    const FakeLaunch &launch = j->launches[i];
    INFO(launch.function);
    REQUIRE(launch.function.find("f_kernel") == 0);
    REQUIRE(uint64_t(launch.block[0]) * launch.block[1] * launch.block[2] <=
            256);
    for (const std::string &arg : launch.args)
      REQUIRE(arg.size() == 8);
    if (launch.args.size() == 3 &&
        launch.args[0] == bytesOf(xOnDevice.data()) &&
        launch.args[1] == bytesOf(sOnDevice.data()) &&
        launch.args[2] == bytesOf(out[0].data())) {
      sawElementwise = true;
      REQUIRE(launch.block[0] % TestType::subgroup == 0);
      REQUIRE(uint64_t(launch.grid[0]) * launch.block[0] >= 1000);
    }
  }
  REQUIRE(sawElementwise);
  REQUIRE(out[0].toHost().numel() == 1000);

  // A second run reuses the loaded modules; host inputs are copied in
  // first, staged in pinned memory.
  int loaded = j->moduleLoads;
  size_t from = j->stream.size();
  out = exe.run({x, s});
  REQUIRE(j->moduleLoads == loaded);
  REQUIRE(j->stream.at(from) == "HtoD 4000 pinned");
}
