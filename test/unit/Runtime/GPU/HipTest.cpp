//===- HipTest.cpp - The HIP driver on a fake libamdhip64 -----------------===//
//
// No machine here has an AMD GPU: these tests run against FakeHip.cpp
// (ctest puts it first on the library path; see CMakeLists.txt), which
// records launches instead of running them, with a real code object built
// by llc and ld.lld from hip-kernels.ll. They check what the runtime asks
// of HIP: discovery and properties, memory, copies (pinned staging), fills,
// module and kernel caching, launch arguments, event timing, the device
// selection of the calling thread, and the error messages. The code object
// checks (HipImage.h) run everywhere.
//
//===----------------------------------------------------------------------===//

#include "FakeHip.h"
#include "GpuTestSupport.h"
#include "HIP/HipDevice.h"
#include "HIP/HipImage.h"
#include "HIP/KernelMetadata.h"
#include "adjoint/Runtime/DLPack.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

namespace {
/// hip:0 on the fake runtime, or null (after a WARN) elsewhere.
hip::HipDevice *fakeHip(FakeHipJournal **journal) {
  Device *device = deviceOrSkip("hip:0");
  if (!device)
    return nullptr;
  *journal = findFakeHipJournal();
  if (!*journal) {
    WARN("a real HIP runtime: the fake's checks are skipped");
    return nullptr;
  }
  return static_cast<hip::HipDevice *>(device);
}

template <typename T> std::string bytesOf(T value) {
  return std::string(reinterpret_cast<const char *>(&value), sizeof(T));
}

/// The HSACO built from hip-kernels.ll.
const std::vector<char> &codeObject() {
  static const std::vector<char> bytes = [] {
    std::ifstream in(ADJOINT_TEST_HSACO, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}
const adj_rt_gpu_module &hsacoModule() {
  static const adj_rt_gpu_module module = {
      ADJ_RT_GPU_HSACO, 0, codeObject().data(), codeObject().size(),
      "hip_kernels"};
  return module;
}
/// scale(out, in: pointers, factor: f32, n: i64).
const adj_rt_gpu_kernel &scaleKernel() {
  static const uint32_t sizes[] = {0, 0, 4, 8};
  static const adj_rt_gpu_kernel kernel = {&hsacoModule(), "scale", 4, 0,
                                           sizes};
  return kernel;
}

std::vector<std::string> since(const FakeHipJournal &j, size_t from) {
  return std::vector<std::string>(j.stream.begin() + from, j.stream.end());
}

using SelectOtherFn = void (*)();
using CurrentFn = int (*)();
template <typename Fn> Fn fakeSymbol(const char *name) {
  return reinterpret_cast<Fn>(
      dlsym(dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_NOLOAD), name));
}
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

TEST_CASE("HIP: discovery and properties", "[gpu][hip]") {
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  REQUIRE(device->id() == "hip:0");
  REQUIRE(device->kind() == DeviceKind::HIP);
  Device *plain = nullptr;
  REQUIRE(findDevice("hip", &plain).ok());
  REQUIRE(plain == device);
  const DeviceProperties &p = device->properties();
  REQUIRE(p.name == "Fake AMD Instinct MI300X");
  REQUIRE(p.vendor == "AMD");
  // The architecture with its target features, as Target's hip chips.
  REQUIRE(p.chip == "gfx942:sramecc+:xnack-");
  REQUIRE(p.driverVersion == "HIP 6.2");
  REQUIRE(p.subgroupSizes == std::vector<uint32_t>{64});
  REQUIRE(p.maxWorkgroupSize == 1024);
  REQUIRE(p.maxWorkgroupDims[2] == 1024);
  REQUIRE(p.localMemoryBytes == 65536);
  REQUIRE(p.computeUnits == 304);
  REQUIRE(p.memoryBytes == j->memoryLimit);
  REQUIRE(p.fp64);
  REQUIRE(p.fp16);
  Status past = findDevice("hip:1", &plain);
  REQUIRE(past.message() == "hip:1 does not exist: 1 hip device");
}

TEST_CASE("HIP: an RDNA GPU runs 32-wide wavefronts", "[hip-rdna]") {
  // Run by ctest with FAKE_HIP_ARCH=gfx1100.
  const char *arch = std::getenv("FAKE_HIP_ARCH");
  if (!arch || std::string(arch) != "gfx1100") {
    WARN("runs only on the fake runtime with FAKE_HIP_ARCH=gfx1100");
    return;
  }
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  REQUIRE(device->properties().chip == "gfx1100");
  REQUIRE(device->properties().subgroupSizes == std::vector<uint32_t>{32});
}

TEST_CASE("HIP: memory, copies through pinned staging, fills",
          "[gpu][hip]") {
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  // A small upload is staged in a pinned block and queued; with the pool's
  // cache empty (earlier tests left blocks there) it allocates anew.
  device->emptyCache();
  Tensor host = Tensor::fromDoubles(DType::F64, {4}, {1, 2, 3, 4});
  size_t from = j->stream.size();
  int allocations = j->deviceAllocations;
  Tensor onDevice = host.to(*device);
  REQUIRE(j->deviceAllocations == allocations + 1);
  REQUIRE(since(*j, from).front() == "HtoD 32 pinned");
  REQUIRE(device->pinnedPool().liveBlocks() == 1);
  REQUIRE(onDevice.toHost().toDoubles() == host.toDoubles());
  REQUIRE(device->synchronize().ok());
  REQUIRE(device->pinnedPool().liveBlocks() == 0);
  // The staging block and the device block are reused.
  int pinned = j->pinnedAllocations;
  Tensor again = host.to(*device);
  REQUIRE(j->pinnedAllocations == pinned);

  from = j->stream.size();
  REQUIRE(device->fill(onDevice.data(), 0, 16).ok());
  REQUIRE(device->copyDeviceToDevice(again.data(), onDevice.data(), 32).ok());
  REQUIRE(since(*j, from) ==
          std::vector<std::string>{"memset 16 0", "DtoD 32"});
  std::vector<double> back(4);
  from = j->stream.size();
  REQUIRE(device->copyDeviceToHost(back.data(), again.data(), 32).ok());
  REQUIRE(since(*j, from) == std::vector<std::string>{"DtoH 32 pageable"});
  REQUIRE(back == std::vector<double>{0, 0, 3, 4});

  // Out of device memory: the pool gives back its cache, then says so.
  void *huge = nullptr;
  Status full = device->allocate(j->memoryLimit + 1, &huge);
  REQUIRE(full.code() == StatusCode::OutOfMemory);
  REQUIRE(full.message().find("hipErrorOutOfMemory (2: out of memory) in "
                              "hipMalloc") != std::string::npos);
}

TEST_CASE("HIP: modules load once, launches pass their arguments",
          "[gpu][hip]") {
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  void *in = nullptr, *out = nullptr;
  REQUIRE(device->allocate(4000, &in).ok());
  REQUIRE(device->allocate(4000, &out).ok());
  float factor = 2.5f;
  int64_t n = 1000;
  void *args[] = {&out, &in, &factor, &n};
  const uint64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
  int loads = j->moduleLoads;
  size_t launches = j->launches.size();
  REQUIRE(device->launch(scaleKernel(), grid, block, 0, args).ok());
  REQUIRE(device->launch(scaleKernel(), grid, block, 128, args).ok());
  REQUIRE(j->moduleLoads == loads + 1);
  REQUIRE(j->launches.size() == launches + 2);
  const FakeHipLaunch &launch = j->launches.back();
  REQUIRE(launch.function == "scale");
  REQUIRE(launch.grid[0] == 4);
  REQUIRE(launch.block[0] == 256);
  REQUIRE(launch.sharedBytes == 128);
  // The explicit arguments of the metadata, each of its size: pointers as
  // their 8 bytes, the scalars as theirs.
  REQUIRE(launch.args.size() == 4);
  REQUIRE(launch.args[0] == bytesOf(out));
  REQUIRE(launch.args[1] == bytesOf(in));
  REQUIRE(launch.args[2] == bytesOf(factor));
  REQUIRE(launch.args[3] == bytesOf(n));
  REQUIRE(device->loadedModules() >= 1);
  size_t kernels = device->loadedKernels();

  const uint64_t wide[3] = {1, 70000, 1};
  REQUIRE(device->launch(scaleKernel(), wide, block, 0, args).message() ==
          "grid dimension 1 of 70000 blocks exceeds hip:0's limit 65536 for "
          "kernel scale");
  // Past the LDS of a workgroup: HIP refuses it, naming the kernel.
  Status lds = device->launch(scaleKernel(), grid, block, 70000, args);
  REQUIRE(!lds.ok());
  // Descriptors that disagree with the code object are refused before a
  // launch.
  static const uint32_t threeSizes[] = {0, 0, 4};
  static const adj_rt_gpu_kernel three = {&hsacoModule(), "scale", 3, 0,
                                          threeSizes};
  REQUIRE(device->launch(three, grid, block, 0, args).message() ==
          "kernel scale on hip:0: takes 4 arguments, its descriptor says 3");
  static const uint32_t narrowSizes[] = {0, 0, 4, 4};
  static const adj_rt_gpu_kernel narrow = {&hsacoModule(), "scale", 4, 0,
                                           narrowSizes};
  REQUIRE(device->launch(narrow, grid, block, 0, args).message() ==
          "kernel scale on hip:0: argument #3 has 8 bytes, its descriptor "
          "says 4");
  static const uint32_t sizes[] = {0, 0, 4, 8};
  static const adj_rt_gpu_kernel missing = {&hsacoModule(), "no_such", 4, 0,
                                            sizes};
  REQUIRE(device->launch(missing, grid, block, 0, args).message() ==
          "hipErrorNotFound (500: named symbol not found) in "
          "hipModuleGetFunction for kernel no_such");
  REQUIRE(device->loadedKernels() == kernels);
  REQUIRE(j->moduleLoads == loads + 1);
  device->deallocate(in);
  device->deallocate(out);
}

TEST_CASE("HIP: module errors name the module and the device",
          "[gpu][hip]") {
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  auto launchFrom = [&](const adj_rt_gpu_module &module) {
    static const uint32_t sizes[] = {0};
    adj_rt_gpu_kernel kernel = {&module, "k", 1, 0, sizes};
    void *p = nullptr;
    void *args[] = {&p};
    const uint64_t one[3] = {1, 1, 1};
    return device->launch(kernel, one, one, 0, args);
  };
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

TEST_CASE("HIP: timeOnStream measures the work between two events",
          "[gpu][hip]") {
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  j->clockMs = 100;
  j->launchMs = 1.5;
  void *block = nullptr;
  REQUIRE(device->allocate(64, &block).ok());
  float factor = 1;
  int64_t n = 0;
  void *args[] = {&block, &block, &factor, &n};
  const uint64_t grid[3] = {1, 1, 1}, threads[3] = {64, 1, 1};
  size_t from = j->stream.size();
  double ms = -1;
  REQUIRE(device
              ->timeOnStream(
                  [&] {
                    Status first =
                        device->launch(scaleKernel(), grid, threads, 0, args);
                    return first.ok() ? device->launch(scaleKernel(), grid,
                                                       threads, 0, args)
                                      : first;
                  },
                  &ms)
              .ok());
  REQUIRE(ms == 3.0);
  std::vector<std::string> work = since(*j, from);
  REQUIRE(work.size() == 4);
  REQUIRE(work[0].rfind("event 100", 0) == 0);
  REQUIRE(work[1] == "launch scale");
  REQUIRE(work[3].rfind("event 103", 0) == 0);
  j->launchMs = 0;
  device->deallocate(block);
}

TEST_CASE("HIP: DLPack exchanges ROCm memory without copies",
          "[gpu][hip]") {
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  Tensor t = Tensor::fromDoubles(DType::F32, {3}, {1, 2, 3}).to(*device);
  dlpack::DLDevice where = dlpack::deviceOf(t);
  REQUIRE(where.device_type == dlpack::kDLROCM);
  REQUIRE(where.device_id == 0);
  // A producer's ROCm buffer (torch's on an AMD GPU) imported on hip:0:
  // the same memory, handed back only after our stream passed our work.
  int64_t shape[] = {3};
  dlpack::DLTensor view{t.data(), {dlpack::kDLROCM, 0}, 1,
                        {2, 32, 1}, shape, nullptr, 0};
  int syncsAtRelease = -1;
  auto owner = std::shared_ptr<void>(nullptr, [&](void *) {
    syncsAtRelease = j->streamSyncs;
  });
  Tensor imported = dlpack::importTensor(view, std::move(owner));
  REQUIRE(imported.data() == t.data());
  REQUIRE(&imported.device() == device);
  REQUIRE(imported.toHost().toDoubles() == std::vector<double>{1, 2, 3});
  REQUIRE(device->fill(imported.data(), 0, 4).ok());
  int syncs = j->streamSyncs;
  imported = Tensor();
  REQUIRE(syncsAtRelease > syncs);
  REQUIRE(t.toHost().toDoubles() == std::vector<double>{0, 2, 3});
}

TEST_CASE("HIP: the calling thread's device is restored", "[gpu][hip]") {
  FakeHipJournal *j = nullptr;
  hip::HipDevice *device = fakeHip(&j);
  if (!device)
    return;
  auto selectOther = fakeSymbol<SelectOtherFn>("fakeHipSelectOther");
  auto current = fakeSymbol<CurrentFn>("fakeHipCurrent");
  REQUIRE(selectOther);
  REQUIRE(current);
  // Another library selected its device on this thread: the runtime's
  // work goes to hip:0 (the fake refuses it elsewhere), then the thread's
  // choice is back.
  selectOther();
  void *block = nullptr;
  REQUIRE(device->allocate(4096, &block).ok());
  REQUIRE(device->fill(block, 7, 4096).ok());
  REQUIRE(device->synchronize().ok());
  REQUIRE(current() == 1);
  device->deallocate(block);
  device->emptyCache();
  REQUIRE(current() == 1);
}

TEST_CASE("HIP: a runtime without a GPU means no hip devices",
          "[hip-no-gpu]") {
  // Run by ctest with FAKE_HIP_NO_DEVICE=1 (hipInit fails as without GPUs).
  const char *none = std::getenv("FAKE_HIP_NO_DEVICE");
  if (!none || std::string(none) != "1") {
    WARN("runs only on the fake runtime with FAKE_HIP_NO_DEVICE=1");
    return;
  }
  Device *device = nullptr;
  Status status = findDevice("hip:0", &device);
  REQUIRE(status.code() == StatusCode::Unavailable);
  REQUIRE(status.toString() ==
          "unavailable: the HIP runtime has no usable GPU: hipErrorNoDevice "
          "(100: no ROCm-capable device is detected) in hipInit");
  REQUIRE(device == nullptr);
  for (Device *d : devices())
    REQUIRE(d->kind() != DeviceKind::HIP);
}
