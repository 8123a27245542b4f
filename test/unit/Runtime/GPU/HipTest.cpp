//===- HipTest.cpp - What only the HIP driver does ------------------------===//
//
// AMD code objects and the HIP driver on its fake (FakeHip.cpp; ctest puts
// it first on the library path, see CMakeLists.txt), for what
// StreamDeviceTest.cpp, written once for CUDA and HIP, does not cover: the
// code object checks (HipImage.h) and kernel metadata, which run
// everywhere, RDNA's wavefronts, and the runtime's module errors. The code
// object is a real one, built by llc and ld.lld from hip-kernels.ll.
//
//===----------------------------------------------------------------------===//

#include "HIP/HipImage.h"
#include "HIP/KernelMetadata.h"
#include "StreamVendors.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::test;

namespace {
const std::vector<char> &codeObject() { return hipCodeObject(); }
} // namespace

TEST_CASE("HIP code objects are checked before the loader sees them",
          "[gpu][hip-image]") {
  const std::vector<char> &good = codeObject();
  REQUIRE(good.size() > 64);
  REQUIRE(hip::checkHipImage(good.data(), good.size(), "k").ok());
  auto message = [](const std::vector<char> &bytes) {
    return hip::checkHipImage(bytes.data(), bytes.size(), "k").message();
  };
  std::vector<char> bytes = good;
  // A cubin (EM_CUDA = 190) is an ELF object for another machine.
  uint16_t cuda = 190;
  std::memcpy(bytes.data() + 18, &cuda, 2);
  REQUIRE(message(bytes) == "module k is not an AMD GPU code object: ELF "
                            "machine 190, not EM_AMDGPU (224)");
  bytes = good;
  bytes[4] = 1; // ELFCLASS32
  REQUIRE(message(bytes) == "module k is not an AMD GPU code object: not a "
                            "64-bit little-endian ELF object");
  // Cut before its section headers (at the end of an lld output).
  bytes.assign(good.begin(), good.end() - 100);
  REQUIRE(message(bytes) == "module k is not an AMD GPU code object: its "
                            "section headers end at byte " +
                                std::to_string(good.size()) + " of " +
                                std::to_string(good.size() - 100) +
                                " (truncated)");
  bytes.assign(good.begin(), good.begin() + 20);
  REQUIRE(message(bytes) == "module k is not an AMD GPU code object: 20 "
                            "bytes, shorter than an ELF64 header");
  bytes.assign(64, 'x');
  REQUIRE(message(bytes) ==
          "module k is not an AMD GPU code object: no ELF header");
  REQUIRE(hip::checkHipImage(nullptr, 0, "k").code() ==
          StatusCode::InvalidArgument);
}

TEST_CASE("HIP kernel arguments come from the amdhsa.kernels metadata",
          "[gpu][hip-image]") {
  const std::vector<char> &good = codeObject();
  hip::KernelArguments kernels;
  REQUIRE(hip::readKernelArguments(good.data(), good.size(), "k", &kernels)
              .ok());
  // scale(ptr, ptr, float, i64): the explicit arguments only (the hidden
  // block counts and sizes follow them in the metadata).
  REQUIRE(kernels.size() == 1);
  REQUIRE(kernels["scale"] == std::vector<uint32_t>{8, 8, 4, 8});
  // The same object without its section table has no metadata to read.
  std::vector<char> bare(good.begin(), good.begin() + 64);
  std::memset(bare.data() + 60, 0, 2);
  hip::KernelArguments none;
  Status missing = hip::readKernelArguments(bare.data(), bare.size(), "k",
                                            &none);
  REQUIRE(missing.code() == StatusCode::InvalidArgument);
  REQUIRE(missing.message() == "module k: no amdhsa.kernels metadata (code "
                               "object v3 or later has it)");
  // A metadata note whose MessagePack is cut short: find the note's
  // "amdhsa.kernels" key and break the length of the map before it.
  std::string text(good.begin(), good.end());
  size_t key = text.find("amdhsa.kernels");
  REQUIRE(key != std::string::npos);
  std::vector<char> broken = good;
  broken[key - 1] = char(0xbf); // a fixstr of 31 bytes: runs over the key
  hip::KernelArguments partial;
  REQUIRE(hip::readKernelArguments(broken.data(), broken.size(), "k",
                                   &partial)
              .message() == "module k: malformed amdhsa.kernels metadata");
}

TEST_CASE("HIP: an RDNA GPU runs 32-wide wavefronts", "[hip-rdna]") {
  // Run by ctest with FAKE_HIP_ARCH=gfx1100.
  const char *arch = std::getenv("FAKE_HIP_ARCH");
  if (!arch || std::string(arch) != "gfx1100") {
    WARN("runs only on the fake runtime with FAKE_HIP_ARCH=gfx1100");
    return;
  }
  FakeStreamJournal *j = nullptr;
  hip::HipDevice *device = fakeDevice<HipVendor>(&j);
  if (!device)
    return;
  REQUIRE(device->properties().chip == "gfx1100");
  REQUIRE(device->properties().subgroupSizes == std::vector<uint32_t>{32});
}

TEST_CASE("HIP: module errors name the module and the device",
          "[gpu][hip]") {
  FakeStreamJournal *j = nullptr;
  hip::HipDevice *device = fakeDevice<HipVendor>(&j);
  if (!device)
    return;
  auto launchFrom = [&](const adj_rt_gpu_module &module) {
    return launchFromModule(*device, module);
  };
  // Past the LDS of a workgroup: refused, naming the kernel.
  const uint64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
  void *p = nullptr;
  float factor = 1;
  int64_t n = 0;
  void *args[] = {&p, &p, &factor, &n};
  REQUIRE(!device->launch(HipVendor::scale(), grid, block, 70000, args).ok());
  int loads = j->moduleLoads;
  static const char text[] = "not a code object, but long enough for a header "
                             "to be read from it";
  static const adj_rt_gpu_module junk = {ADJ_RT_GPU_HSACO, 0, text,
                                         sizeof(text), "junk"};
  REQUIRE(launchFrom(junk).message() ==
          "module junk is not an AMD GPU code object: no ELF header");
  // A well-framed object without kernel metadata: refused before HIP.
  static std::vector<char> bare = [] {
    std::vector<char> bytes(codeObject().begin(), codeObject().begin() + 64);
    uint16_t none = 0;
    uint64_t nowhere = 0;
    std::memcpy(bytes.data() + 40, &nowhere, 8); // no section table
    std::memcpy(bytes.data() + 60, &none, 2);
    return bytes;
  }();
  static const adj_rt_gpu_module noKernels = {ADJ_RT_GPU_HSACO, 0,
                                              bare.data(), bare.size(),
                                              "bare"};
  REQUIRE(launchFrom(noKernels).message() ==
          "module bare: no amdhsa.kernels metadata (code object v3 or later "
          "has it)");
  // A code object for another chip: HIP's error names the module, the
  // device and its chip.
  static const adj_rt_gpu_module other = {ADJ_RT_GPU_HSACO, 0,
                                          codeObject().data(),
                                          codeObject().size(), "other"};
  j->refuseModuleLoads = true;
  Status refused = launchFrom(other);
  j->refuseModuleLoads = false;
  REQUIRE(refused.code() == StatusCode::Internal);
  REQUIRE(refused.message() ==
          "hipErrorNoBinaryForGpu (209: no kernel image is available for "
          "execution on the device) in hipModuleLoadData for module other on "
          "hip:0 (gfx942:sramecc+:xnack-)");
  static const adj_rt_gpu_module cuda = {ADJ_RT_GPU_CUDA, 0,
                                         codeObject().data(),
                                         codeObject().size(), "cuda"};
  REQUIRE(launchFrom(cuda).message().find(
              "module cuda has format 2, which hip:0 does not load") !=
          std::string::npos);
  REQUIRE(j->moduleLoads == loads);
}

