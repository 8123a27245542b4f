//===- CudaTest.cpp - What only the CUDA driver does ----------------------===//
//
// The CUDA driver on its fake (FakeCuda.cpp; ctest puts it first on the
// library path, see CMakeLists.txt), for what StreamDeviceTest.cpp, written
// once for CUDA and HIP, does not cover: the registry's order, dynamic
// shared memory past 48 KiB, and CUDA images (fatbins, cubins, PTX) with
// the driver's load errors.
//
//===----------------------------------------------------------------------===//

#include "CUDA/CudaImage.h"
#include "StreamVendors.h"

#include <string>

using namespace adjoint::rt;
using namespace adjoint::rt::test;

namespace {
/// A PTX module with fma_f32(a, b, c: pointers, n: i64) (the fake reads
/// the parameters from the .entry; the NUL ends the text for the driver).
const char kPtx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry fma_f32(\n .param .u64 a,\n"
                    " .param .u64 b,\n .param .u64 c,\n .param .u64 n\n)\n"
                    "{\n ret;\n}\n";
const adj_rt_gpu_module &ptxModule() {
  static const adj_rt_gpu_module module = {ADJ_RT_GPU_CUDA, 0, kPtx,
                                           sizeof(kPtx), "ptx_kernels"};
  return module;
}
const adj_rt_gpu_kernel &ptxFma() {
  static const uint32_t sizes[] = {0, 0, 0, 8};
  static const adj_rt_gpu_kernel kernel = {&ptxModule(), "fma_f32", 4, 0,
                                           sizes};
  return kernel;
}
} // namespace

TEST_CASE("CUDA: devices come right after the cpu", "[gpu][cuda]") {
  FakeStreamJournal *j = nullptr;
  cuda::CudaDevice *device = fakeDevice<CudaVendor>(&j);
  if (!device)
    return;
  REQUIRE(devices().at(1) == device);
}

TEST_CASE("CUDA: dynamic shared memory past 48 KiB is allowed per function",
          "[gpu][cuda]") {
  FakeStreamJournal *j = nullptr;
  cuda::CudaDevice *device = fakeDevice<CudaVendor>(&j);
  if (!device)
    return;
  void *block = nullptr;
  REQUIRE(device->allocate(4096, &block).ok());
  int64_t count = 1000;
  void *args[] = {&block, &block, &block, &count};
  const uint64_t grid[3] = {2, 1, 1}, threads[3] = {64, 1, 1};
  size_t optIns = j->sharedOptIns.size();
  REQUIRE(device->launch(ptxFma(), grid, threads, 1024, args).ok());
  REQUIRE(j->sharedOptIns.size() == optIns);
  // Once per function: a larger amount, then a smaller one within it.
  REQUIRE(device->launch(ptxFma(), grid, threads, 100000, args).ok());
  REQUIRE(device->launch(ptxFma(), grid, threads, 65536, args).ok());
  REQUIRE(j->sharedOptIns.size() == optIns + 1);
  REQUIRE(j->sharedOptIns.back() == 100000);
  REQUIRE(j->launches.back().sharedBytes == 65536);
  // Past the device's opt-in maximum: refused before the driver sees it.
  size_t launches = j->launches.size();
  Status tooMuch = device->launch(ptxFma(), grid, threads, 300000, args);
  REQUIRE(tooMuch.code() == StatusCode::InvalidArgument);
  REQUIRE(j->launches.size() == launches);
  device->deallocate(block);
}

TEST_CASE("CUDA: module images are checked and load errors name the module",
          "[gpu][cuda]") {
  FakeStreamJournal *j = nullptr;
  cuda::CudaDevice *device = fakeDevice<CudaVendor>(&j);
  if (!device)
    return;
  auto launchFrom = [&](const adj_rt_gpu_module &module) {
    return launchFromModule(*device, module);
  };
  static const char text[] = "not a kernel";
  static const adj_rt_gpu_module junk = {ADJ_RT_GPU_CUDA, 0, text,
                                         sizeof(text) - 1, "junk"};
  REQUIRE(launchFrom(junk).message() ==
          "module junk is not a CUDA image: no fatbin or ELF header, and not "
          "NUL-terminated PTX");
  // A fatbin whose header claims more bytes than the module has.
  static const uint32_t header[4] = {cuda::kFatbinMagic, 0x00100001, 4096, 0};
  static const adj_rt_gpu_module cut = {ADJ_RT_GPU_CUDA, 0, header,
                                        sizeof(header), "cut"};
  REQUIRE(launchFrom(cut).message() ==
          "module cut is not a CUDA image: a fatbin of 4112 bytes in 16 "
          "(truncated)");
  // Well-framed PTX without kernels: the driver refuses it, with its log.
  static const char empty[] = ".version 8.0\n.target sm_90\n";
  static const adj_rt_gpu_module noKernels = {ADJ_RT_GPU_CUDA, 0, empty,
                                              sizeof(empty), "empty"};
  Status refused = launchFrom(noKernels);
  REQUIRE(refused.code() == StatusCode::Internal);
  REQUIRE(refused.message() ==
          "CUDA_ERROR_INVALID_IMAGE (200: device kernel image is invalid) in "
          "cuModuleLoadDataEx for module empty on cuda:0:\nfake: no kernel "
          "found in the image");
  static const adj_rt_gpu_module spirv = {ADJ_RT_GPU_SPIRV, 0, kPtx,
                                          sizeof(kPtx), "spirv"};
  REQUIRE(launchFrom(spirv).message().find(
              "module spirv has format 1, which cuda:0 does not load") !=
          std::string::npos);
}

TEST_CASE("CUDA images are framed before any driver reads them",
          "[gpu][cuda-image]") {
  auto check = [](const void *data, size_t size) {
    return cuda::checkCudaImage(data, size, "m");
  };
  static const char ptx[] = ".version 8.0\n.target sm_90\n";
  REQUIRE(check(ptx, sizeof(ptx)).ok());
  // Without its NUL the driver would read past the end.
  REQUIRE(check(ptx, sizeof(ptx) - 1).message() ==
          "module m is not a CUDA image: no fatbin or ELF header, and not "
          "NUL-terminated PTX");
  static const char text[] = "hello";
  REQUIRE(check(text, sizeof(text)).message() ==
          "module m is not a CUDA image: no fatbin or ELF header, and no PTX "
          ".version");
  static const char elf[] = "\x7f"
                            "ELF\2\1\1";
  REQUIRE(check(elf, sizeof(elf)).ok());
  REQUIRE(check(elf, 3).message() ==
          "module m is not a CUDA image: shorter than any header");
  // A fatbin whose payload fits, one whose header is cut, and one whose
  // header size is smaller than the header itself.
  uint32_t fatbin[8] = {cuda::kFatbinMagic, 0x00100001, 16, 0};
  REQUIRE(check(fatbin, sizeof(fatbin)).ok());
  REQUIRE(check(fatbin, 12).message() ==
          "module m is not a CUDA image: a fatbin header cut short");
  fatbin[1] = 0x00040001;
  REQUIRE(check(fatbin, sizeof(fatbin)).code() ==
          StatusCode::InvalidArgument);
}
