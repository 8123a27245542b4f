//===- DeviceRegistryTest.cpp - devices(), findDevice(), the pool ---------===//

#include "GPU/CachingAllocator.h"
#include "GPU/SpirvCheck.h"
#include "GpuTestSupport.h"
#include "adjoint/Runtime/Symbols.h"
#include "adjoint/Runtime/Tensor.h"
#include "adjoint/Support/Error.h"

#include <cstring>
#include <dlfcn.h>

using namespace adjoint::rt;
using namespace adjoint::rt::test;

TEST_CASE("devices() lists the cpu first and every usable driver device",
          "[gpu][opencl]") {
  const std::vector<Device *> &all = devices();
  REQUIRE(!all.empty());
  REQUIRE(all.front()->id() == "cpu");
  REQUIRE(all.front() == &cpuDevice());
  Device *cpu = nullptr;
  REQUIRE(findDevice("cpu", &cpu).ok());
  REQUIRE(cpu == &cpuDevice());
  REQUIRE(!cpu->properties().name.empty());

  Device *device = openclOrSkip();
  if (!device)
    return;
  REQUIRE(device->id() == "opencl:0");
  REQUIRE(device->kind() == DeviceKind::OpenCL);
  REQUIRE(std::find(all.begin(), all.end(), device) != all.end());
  Device *plain = nullptr;
  REQUIRE(findDevice("opencl", &plain).ok());
  REQUIRE(plain == device);
  const DeviceProperties &p = device->properties();
  REQUIRE(!p.name.empty());
  REQUIRE(p.maxWorkgroupSize >= 64);
  REQUIRE(p.maxWorkgroupDims[0] >= 64);
  REQUIRE(p.memoryBytes > 0);
  if (p.vendor.find("Intel") != std::string::npos) {
    // Intel's CPU runtime (scripts/setup.sh): subgroups of 4 to 64 lanes,
    // fp64 and fp16.
    REQUIRE(std::find(p.subgroupSizes.begin(), p.subgroupSizes.end(), 16) !=
            p.subgroupSizes.end());
    REQUIRE(std::is_sorted(p.subgroupSizes.begin(), p.subgroupSizes.end()));
    REQUIRE(p.fp64);
  }
}

TEST_CASE("findDevice says why a device is missing", "[gpu]") {
  Device *device = nullptr;
  Status bad = findDevice("opencl:x", &device);
  REQUIRE(bad.code() == StatusCode::InvalidArgument);
  REQUIRE(bad.message().find("malformed device id 'opencl:x'") == 0);
  Status unknown = findDevice("tpu:0", &device);
  REQUIRE(unknown.code() == StatusCode::InvalidArgument);
  REQUIRE(unknown.message().find("unknown device kind 'tpu'") == 0);
  REQUIRE(device == nullptr);

  // Level Zero: no loader on the build machines, so its reason shows.
  Status levelZero = findDevice("level_zero:0", &device);
  if (!levelZero.ok()) {
    REQUIRE(levelZero.code() == StatusCode::Unavailable);
    REQUIRE(levelZero.toString().find("unavailable: ") == 0);
    REQUIRE(driverStatus(DeviceKind::LevelZero).message() ==
            levelZero.message());
    bool noLoader =
        levelZero.message().find("libze_loader.so.1 not found") == 0;
    bool noGpu = levelZero.message().find("Level Zero") != std::string::npos;
    REQUIRE((noLoader || noGpu));
  }
  // CUDA: where this process cannot load libcuda.so.1 (the build machines;
  // ctest's fake driver runs are separate), dlopen's reason shows.
  if (void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(driver);
  } else {
    Status cuda = findDevice("cuda:0", &device);
    REQUIRE(cuda.code() == StatusCode::Unavailable);
    REQUIRE(cuda.toString().find("unavailable: libcuda.so.1 not found (") ==
            0);
    REQUIRE(cuda.message().find("libcuda.so.1: cannot open shared object "
                                "file") != std::string::npos);
    REQUIRE(driverStatus(DeviceKind::CUDA).message() == cuda.message());
  }
  // HIP: likewise where no libamdhip64 loads (ctest's fake runs are
  // separate); the newest soname's dlopen reason shows.
  if (void *runtime = dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(runtime);
  } else {
    Status hip = findDevice("hip:0", &device);
    REQUIRE(hip.code() == StatusCode::Unavailable);
    REQUIRE(hip.toString().find(
                "unavailable: libamdhip64.so.6, libamdhip64.so.5 or "
                "libamdhip64.so not found (") == 0);
    REQUIRE(hip.message().find("libamdhip64.so.6: cannot open shared "
                               "object file") != std::string::npos);
    REQUIRE(driverStatus(DeviceKind::HIP).message() == hip.message());
  }

  if (!openclOrSkip())
    return;
  Status past = findDevice("opencl:99", &device);
  REQUIRE(past.code() == StatusCode::Unavailable);
  REQUIRE(past.message().find("opencl:99 does not exist: ") == 0);
}

TEST_CASE("the caching allocator reuses, retries and counts",
          "[gpu][pool]") {
  // A fake driver: blocks from the heap, refusing while `refuse` is set
  // unless the cache was just given back (as a full device would).
  int released = 0, quiesced = 0;
  bool refuseUntilRelease = false, cannotWait = false;
  gpu::CachingAllocator pool(gpu::CachingAllocator::Backend{
      [&](size_t bytes, void **ptr) {
        if (refuseUntilRelease && released == 0)
          return Status::error(StatusCode::OutOfMemory, "fake driver full");
        *ptr = std::aligned_alloc(gpu::kDeviceAlignment, bytes);
        return Status::success();
      },
      [&](void *ptr) {
        ++released;
        std::free(ptr);
      },
      [&] {
        ++quiesced;
        return !cannotWait;
      }});
  size_t size = gpu::CachingAllocator::roundSize(1000);
  REQUIRE(size >= 1000);
  REQUIRE(size % gpu::kDeviceAlignment == 0);
  void *a = nullptr;
  REQUIRE(pool.allocate(1000, &a).ok());
  REQUIRE(reinterpret_cast<uintptr_t>(a) % gpu::kDeviceAlignment == 0);
  REQUIRE(pool.stats().bytesInUse == size);
  REQUIRE(pool.deallocate(a));
  REQUIRE(!pool.deallocate(a)); // not live any more
  REQUIRE(pool.stats().bytesCached == size);
  void *b = nullptr;
  REQUIRE(pool.allocate(990, &b).ok()); // same size class
  REQUIRE(b == a);
  PoolStats s = pool.stats();
  REQUIRE(s.reused == 1);
  REQUIRE(s.systemAllocations == 1);
  REQUIRE(s.bytesCached == 0);

  // The driver refuses until the cache goes back: one retry succeeds.
  void *c = nullptr;
  REQUIRE(pool.allocate(5000, &c).ok());
  REQUIRE(pool.deallocate(c));
  refuseUntilRelease = true;
  void *d = nullptr;
  REQUIRE(pool.allocate(100000, &d).ok());
  REQUIRE(released == 1);
  REQUIRE(quiesced == 1);
  REQUIRE(pool.stats().bytesCached == 0);

  // A byte limit: the cache goes first, then the allocation fails.
  REQUIRE(pool.deallocate(b));
  pool.setByteLimit(pool.stats().bytesInUse + 512);
  void *e = nullptr;
  Status full = pool.allocate(4096, &e);
  REQUIRE(full.code() == StatusCode::OutOfMemory);
  REQUIRE(full.message().find("limit") != std::string::npos);
  REQUIRE(e == nullptr);
  REQUIRE(released == 2); // b's block went back before failing
  REQUIRE(pool.stats().failures == 1);
  REQUIRE(pool.stats().peakBytesInUse >= pool.stats().bytesInUse);
  pool.setByteLimit(0);
  REQUIRE(pool.deallocate(d));
  pool.emptyCache();
  REQUIRE(pool.stats().bytesCached == 0);
  REQUIRE(pool.stats().liveBlocks == 0);

  // A device that cannot wait for its queue (a graph being captured)
  // keeps its cache: queued work may still use the blocks.
  void *kept = nullptr;
  REQUIRE(pool.allocate(3000, &kept).ok());
  REQUIRE(pool.deallocate(kept));
  size_t cached = pool.stats().bytesCached;
  cannotWait = true;
  int quiescedBefore = quiesced, releasedBefore = released;
  pool.emptyCache();
  cannotWait = false;
  REQUIRE(quiesced == quiescedBefore + 1);
  REQUIRE(released == releasedBefore);
  REQUIRE(pool.stats().bytesCached == cached);
  void *again = nullptr;
  REQUIRE(pool.allocate(3000, &again).ok());
  REQUIRE(again == kept);
  REQUIRE(pool.deallocate(again));
  pool.emptyCache();
  REQUIRE(pool.stats().bytesCached == 0);
}

TEST_CASE("SPIR-V is checked before any driver sees it", "[gpu][spirv]") {
  const std::vector<char> &bytes = kernelBytes();
  REQUIRE(bytes.size() > 100);
  REQUIRE(gpu::checkSpirv(bytes.data(), bytes.size(), "kernels").ok());
  Status odd = gpu::checkSpirv(bytes.data(), bytes.size() - 2, "kernels");
  REQUIRE(odd.code() == StatusCode::InvalidArgument);
  REQUIRE(odd.message().find("not a whole number of 32-bit words") !=
          std::string::npos);
  // Cut inside an instruction of several words: the word counts no longer
  // end at the end of the module.
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  size_t at = 5;
  while (at < 20 || (words[at] >> 16) < 2)
    at += words[at] >> 16;
  Status cut = gpu::checkSpirv(bytes.data(), (at + 1) * 4, "kernels");
  REQUIRE(cut.code() == StatusCode::InvalidArgument);
  REQUIRE(cut.message() == "module kernels is not valid SPIR-V: the "
                           "instruction at word " +
                               std::to_string(at) +
                               " runs past the end (truncated)");
  std::vector<char> swapped(bytes);
  std::swap(swapped[0], swapped[3]);
  REQUIRE(gpu::checkSpirv(swapped.data(), swapped.size(), "kernels")
              .message()
              .find("magic number") != std::string::npos);
  REQUIRE(gpu::checkSpirv(bytes.data(), 12, "kernels").message().find(
              "shorter than any kernel module") != std::string::npos);
}

TEST_CASE("the JIT's symbol table resolves every GpuABI function", "[gpu]") {
  std::vector<std::string> wanted = {
      "adj_rt_gpu_alloc",    "adj_rt_gpu_free",  "adj_rt_gpu_memcpy",
      "adj_rt_gpu_read",     "adj_rt_gpu_write", "adj_rt_gpu_constant",
      "adj_rt_gpu_launch"};
  for (const std::string &name : wanted) {
    const RuntimeSymbol *found = nullptr;
    for (const RuntimeSymbol &symbol : runtimeSymbols())
      if (name == symbol.name)
        found = &symbol;
    INFO(name);
    REQUIRE(found);
    REQUIRE(found->address != nullptr);
  }
  const RuntimeSymbol *launch = nullptr;
  for (const RuntimeSymbol &symbol : runtimeSymbols())
    if (std::string(symbol.name) == "adj_rt_gpu_launch")
      launch = &symbol;
  REQUIRE(launch->address == reinterpret_cast<void *>(&adj_rt_gpu_launch));
}
