//===- HipFakeRuntimeTest.cpp - Compiled HIP code on a fake runtime -------===//
//
// A program compiled for hip:gfx942 (an HSACO code object per kernel
// module) run on hip:0 of the fake libamdhip64.so.6
// (test/unit/Runtime/GPU/FakeHip.cpp, a gfx942 with 64-wide wavefronts;
// its ctest entry puts it on the library path). The fake cannot execute
// kernels; the runtime checks every launch against the code object's
// amdhsa.kernels metadata, so what reaches the fake says that the code
// generator's objects and the host code agree: the module loaded once, the
// kernel found by its name, the launch's shape and arguments.
//
//===----------------------------------------------------------------------===//

#include "FakeHip.h"
#include "Helpers.h"

#include "adjoint/Target/Target.h"
#include "adjoint/Runtime/DeviceRegistry.h"

#include <cstdlib>
#include <cstring>

using namespace adjoint;
using namespace adjoint::test;

namespace {
template <typename T> std::string bytesOf(T value) {
  return std::string(reinterpret_cast<const char *>(&value), sizeof(T));
}
} // namespace

TEST_CASE("a program compiled for hip:gfx942 launches its kernels on the "
          "fake runtime",
          "[hip-compiled]") {
  if (std::string(ADJOINT_TEST_ROCM_PATH).empty()) {
    WARN("no ROCm folder in this build (ADJOINT_ROCM_PATH)");
    return;
  }
  rt::Device *device = nullptr;
  rt::Status status = rt::findDevice("hip:0", &device);
  FakeHipJournal *j = findFakeHipJournal();
  if (!status.ok() || !j) {
    const char *required = std::getenv("ADJOINT_TEST_REQUIRE_DEVICES");
    if (required && std::strstr(required, "hip:0"))
      FAIL("the fake hip:0 is required here: " << status.toString());
    WARN("no fake hip:0: " << status.toString());
    return;
  }
  api::Module m;
  m.function("f", {f32({1000}), f32({})},
             [](api::Value x, api::Value s) {
               return api::Values{api::exp(x) * s, api::sum(x * x)};
             });
  Executable exe = compile(m, "f", Target::parse("hip:gfx942"), noCache());
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
  // runtime's metadata check, within the workgroup size the kernels were
  // built for (256); the elementwise kernel takes x, s and its output as
  // device addresses, in whole wavefronts.
  REQUIRE(j->moduleLoads > loads);
  REQUIRE(j->launches.size() > launches);
  bool sawElementwise = false;
  for (size_t i = launches; i < j->launches.size(); ++i) {
    const FakeHipLaunch &launch = j->launches[i];
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
      REQUIRE(launch.block[0] % 64 == 0);
      REQUIRE(uint64_t(launch.grid[0]) * launch.block[0] >= 1000);
    }
  }
  REQUIRE(sawElementwise);

  // A second run reuses the loaded modules.
  int loaded = j->moduleLoads;
  out = exe.run({xOnDevice, sOnDevice});
  REQUIRE(j->moduleLoads == loaded);
}
