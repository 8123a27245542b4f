//===- CudaFakeDriverTest.cpp - Compiled CUDA code on a fake driver -------===//
//
// A program compiled for cuda:sm_90 (fatbins with cubin and PTX) run on
// cuda:0 of the fake libcuda.so.1 (test/unit/Runtime/GPU/FakeCuda.cpp; its
// ctest entry puts it on the library path). The fake cannot execute
// kernels, so the test checks what reached the driver: the module loaded
// once, the kernel found by its name in the fatbin's cubin, the launch's
// shape and arguments, and the copies in and out.
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"
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

TEST_CASE("a program compiled for cuda:sm_90 launches its kernels on the "
          "fake driver",
          "[cuda]") {
  if (std::string(ADJOINT_TEST_CUDA_TOOLKIT).empty()) {
    WARN("no CUDA toolkit in this build (ADJOINT_CUDA_TOOLKIT)");
    return;
  }
  rt::Device *device = nullptr;
  rt::Status status = rt::findDevice("cuda:0", &device);
  FakeCuJournal *j = findFakeCudaJournal();
  if (!status.ok() || !j) {
    const char *required = std::getenv("ADJOINT_TEST_REQUIRE_DEVICES");
    if (required && std::strstr(required, "cuda:0"))
      FAIL("the fake cuda:0 is required here: " << status.toString());
    WARN("no fake cuda:0: " << status.toString());
    return;
  }
  api::Module m;
  m.function("f", {f32({1000})},
             [](api::Value x) { return api::exp(x) + x; });
  Executable exe = compile(m, "f", Target::cuda("sm_90"), noCache());
  rt::Tensor x = rt::Tensor::fromDoubles(DType::F32, {1000},
                                         std::vector<double>(1000, 0.5));
  rt::Tensor onDevice = x.to(*device);
  size_t launches = j->launches.size(), from = j->stream.size();
  int loads = j->moduleLoads;
  std::vector<rt::Tensor> out = exe.run({onDevice});
  REQUIRE(&out[0].device() == device);
  rt::Tensor back = out[0].toHost();
  REQUIRE(back.numel() == 1000);

  // One fused elementwise kernel: its name and two pointer parameters come
  // from the cubin in the fatbin, as the driver reads them.
  REQUIRE(j->moduleLoads == loads + 1);
  REQUIRE(j->launches.size() == launches + 1);
  // (A copy: later launches grow the journal.)
  const FakeCuLaunch launch = j->launches.back();
  const std::string kernel = launch.function;
  INFO(kernel);
  REQUIRE(launch.function.find("f_kernel") == 0);
  REQUIRE(launch.block[0] % 32 == 0);
  REQUIRE(uint64_t(launch.grid[0]) * launch.block[0] >= 1000);
  REQUIRE(launch.grid[1] == 1);
  REQUIRE(launch.args.size() == 2);
  REQUIRE(launch.args[0] == bytesOf(onDevice.data()));
  REQUIRE(launch.args[1] == bytesOf(out[0].data()));
  std::vector<std::string> ops(j->stream.begin() + from, j->stream.end());
  REQUIRE(ops == std::vector<std::string>{"launch " + launch.function,
                                          "DtoH 4000 pageable"});

  // A second run reuses the loaded module and kernel.
  out = exe.run({onDevice});
  REQUIRE(j->moduleLoads == loads + 1);
  REQUIRE(j->launches.size() == launches + 2);
  // Host inputs are copied in (staged in pinned memory) first.
  from = j->stream.size();
  out = exe.run({x});
  REQUIRE(j->stream.size() == from + 2);
  REQUIRE(j->stream[from] == "HtoD 4000 pinned");
  REQUIRE(j->stream.back() == "launch " + kernel);
}
