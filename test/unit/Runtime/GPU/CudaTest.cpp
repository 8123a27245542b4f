//===- CudaTest.cpp - The CUDA driver on a fake libcuda -------------------===//
//
// No machine here has an NVIDIA GPU: these tests run against FakeCuda.cpp
// (ctest puts it first on the library path; see CMakeLists.txt), which
// records launches instead of running them. They check what the runtime
// asks of the driver: discovery and properties, memory, copies (pinned
// staging and bounce buffers), fills, module and kernel caching, launch
// arguments and shared memory, event timing, and its error messages.
//
//===----------------------------------------------------------------------===//

#include "CUDA/CudaDevice.h"
#include "CUDA/CudaImage.h"
#include "FakeCuda.h"
#include "GpuTestSupport.h"
#include "adjoint/Runtime/DLPack.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

namespace {
/// cuda:0 on the fake driver, or null (after a WARN) elsewhere.
cuda::CudaDevice *fakeCuda(FakeCuJournal **journal) {
  Device *device = deviceOrSkip("cuda:0");
  if (!device)
    return nullptr;
  *journal = findFakeCudaJournal();
  if (!*journal) {
    WARN("a real CUDA driver: the fake's checks are skipped");
    return nullptr;
  }
  return static_cast<cuda::CudaDevice *>(device);
}

template <typename T> std::string bytesOf(T value) {
  return std::string(reinterpret_cast<const char *>(&value), sizeof(T));
}

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

std::vector<std::string> since(const FakeCuJournal &j, size_t from) {
  return std::vector<std::string>(j.stream.begin() + from, j.stream.end());
}
} // namespace

TEST_CASE("CUDA: discovery and properties", "[gpu][cuda]") {
  FakeCuJournal *j = nullptr;
  cuda::CudaDevice *device = fakeCuda(&j);
  if (!device)
    return;
  REQUIRE(device->id() == "cuda:0");
  REQUIRE(device->kind() == DeviceKind::CUDA);
  Device *plain = nullptr;
  REQUIRE(findDevice("cuda", &plain).ok());
  REQUIRE(plain == device);
  // CUDA devices come right after the cpu.
  REQUIRE(devices().at(1) == device);
  const DeviceProperties &p = device->properties();
  REQUIRE(p.name == "Fake NVIDIA H100");
  REQUIRE(p.vendor == "NVIDIA");
  REQUIRE(p.chip == "sm_90");
  REQUIRE(p.driverVersion == "CUDA 13.0");
  REQUIRE(p.subgroupSizes == std::vector<uint32_t>{32});
  REQUIRE(p.maxWorkgroupSize == 1024);
  REQUIRE(p.maxWorkgroupDims[0] == 1024);
  REQUIRE(p.maxWorkgroupDims[2] == 64);
  // The opt-in maximum, not the 48 KiB every kernel gets.
  REQUIRE(p.localMemoryBytes == 232448);
  REQUIRE(p.computeUnits == 132);
  REQUIRE(p.memoryBytes == j->memoryLimit);
  REQUIRE(p.fp64);
  REQUIRE(p.fp16);
  Status past = findDevice("cuda:1", &plain);
  REQUIRE(past.message() == "cuda:1 does not exist: 1 cuda device");
}

TEST_CASE("CUDA: copies stage in pinned memory and bounce large transfers",
          "[gpu][cuda]") {
  FakeCuJournal *j = nullptr;
  cuda::CudaDevice *device = fakeCuda(&j);
  if (!device)
    return;
  int pushes = j->pushes;

  // A small upload is staged in a pinned block and queued.
  Tensor host = Tensor::fromDoubles(DType::F64, {4}, {1, 2, 3, 4});
  size_t from = j->stream.size();
  Tensor onDevice = host.to(*device);
  REQUIRE(since(*j, from).front() == "HtoD 32 pinned");
  REQUIRE(device->pinnedPool().liveBlocks() == 1);
  REQUIRE(onDevice.toHost().toDoubles() == host.toDoubles());
  // Once the queue has passed it, the block is back in the pool, and reused.
  REQUIRE(device->synchronize().ok());
  REQUIRE(device->pinnedPool().liveBlocks() == 0);
  int pinned = j->pinnedAllocations;
  Tensor again = host.to(*device);
  REQUIRE(j->pinnedAllocations == pinned);

  // Fill and device-to-device copy on the stream.
  from = j->stream.size();
  REQUIRE(device->fill(onDevice.data(), 0, 16).ok());
  REQUIRE(device->copyDeviceToDevice(again.data(), onDevice.data(), 32).ok());
  REQUIRE(since(*j, from) ==
          std::vector<std::string>{"memset 16 0", "DtoD 32"});
  REQUIRE(again.toHost().toDoubles() == std::vector<double>{0, 0, 3, 4});

  // 10 MiB from pageable memory: through the two 4 MiB pinned bounce
  // buffers, both ways.
  const size_t big = size_t(10) << 20;
  std::vector<uint8_t> data(big), back(big);
  std::iota(data.begin(), data.end(), uint8_t(7));
  void *block = nullptr;
  REQUIRE(device->allocate(big, &block).ok());
  from = j->stream.size();
  REQUIRE(device->copyHostToDevice(block, data.data(), big).ok());
  REQUIRE(device->copyDeviceToHost(back.data(), block, big).ok());
  REQUIRE(back == data);
  std::vector<std::string> chunks = {
      "HtoD 4194304 pinned", "HtoD 4194304 pinned", "HtoD 2097152 pinned",
      "DtoH 4194304 pinned", "DtoH 4194304 pinned", "DtoH 2097152 pinned"};
  std::vector<std::string> copies;
  for (const std::string &op : since(*j, from))
    if (op.rfind("event", 0) != 0)
      copies.push_back(op);
  REQUIRE(copies == chunks);

  // Host memory that is pinned already is copied directly.
  void *userPinned = nullptr;
  REQUIRE(device
              ->withContext([&] {
                return cuda::check(device->api(),
                                   device->api().cuMemHostAlloc(&userPinned,
                                                                big, 0),
                                   "cuMemHostAlloc");
              })
              .ok());
  std::memcpy(userPinned, data.data(), big);
  from = j->stream.size();
  REQUIRE(device->copyHostToDevice(block, userPinned, big).ok());
  REQUIRE(device->copyDeviceToHost(userPinned, block, big).ok());
  REQUIRE(since(*j, from) ==
          std::vector<std::string>{"HtoD 10485760 pinned",
                                   "DtoH 10485760 pinned"});
  REQUIRE(device->withContext([&] {
                  return cuda::check(device->api(),
                                     device->api().cuMemFreeHost(userPinned),
                                     "cuMemFreeHost");
                }).ok());
  device->deallocate(block);
  // Every driver call ran with the context pushed, and popped it.
  REQUIRE(j->pushes > pushes);
  REQUIRE(j->pushes == j->pops);
}

TEST_CASE("CUDA: modules load once, launches pass their arguments",
          "[gpu][cuda]") {
  FakeCuJournal *j = nullptr;
  cuda::CudaDevice *device = fakeCuda(&j);
  if (!device)
    return;
  const int64_t n = 1000;
  Tensor a = Tensor::fromDoubles(DType::F32, {n}, ramp(n, 1, 0));
  std::vector<Tensor> inputs = {a.to(*device), a.to(*device)};
  std::vector<Tensor> outputs;
  Signature sig = vectorSignature(DType::F32, n, 2);
  gHost = HostCode{&ptxFma(), 128, false};
  int loads = j->moduleLoads;
  size_t launches = j->launches.size();
  REQUIRE(invoke(fmaEntry, sig, inputs, outputs, nullptr, device).ok());
  REQUIRE(invoke(fmaEntry, sig, inputs, outputs, nullptr, device).ok());
  REQUIRE(j->moduleLoads == loads + 1);
  REQUIRE(j->launches.size() == launches + 2);
  const FakeCuLaunch &launch = j->launches.back();
  REQUIRE(launch.function == "fma_f32");
  REQUIRE(launch.grid[0] == 8); // ceil(1000 / 128)
  REQUIRE(launch.grid[1] == 1);
  REQUIRE(launch.block[0] == 128);
  REQUIRE(launch.block[2] == 1);
  REQUIRE(launch.sharedBytes == 0);
  // Pointers as their 8 bytes, the scalar as its bytes (cuLaunchKernel's
  // kernelParams are the GpuABI's args).
  REQUIRE(launch.args.size() == 4);
  REQUIRE(launch.args[0] == bytesOf(inputs[0].data()));
  REQUIRE(launch.args[1] == bytesOf(inputs[1].data()));
  REQUIRE(launch.args[2] == bytesOf(outputs[0].data()));
  REQUIRE(launch.args[3] == bytesOf(n));

  // Dynamic shared memory past 48 KiB is allowed per function, once.
  void *pa = inputs[0].data(), *pb = inputs[1].data(), *pc = outputs[0].data();
  int64_t count = n;
  void *args[] = {&pa, &pb, &pc, &count};
  const uint64_t grid[3] = {2, 1, 1}, block[3] = {64, 1, 1};
  size_t optIns = j->sharedOptIns.size();
  REQUIRE(device->launch(ptxFma(), grid, block, 1024, args).ok());
  REQUIRE(j->sharedOptIns.size() == optIns);
  REQUIRE(device->launch(ptxFma(), grid, block, 100000, args).ok());
  REQUIRE(device->launch(ptxFma(), grid, block, 65536, args).ok());
  REQUIRE(j->sharedOptIns.size() == optIns + 1);
  REQUIRE(j->sharedOptIns.back() == 100000);
  REQUIRE(j->launches.back().sharedBytes == 65536);
  Status tooMuch = device->launch(ptxFma(), grid, block, 300000, args);
  REQUIRE(tooMuch.code() == StatusCode::InvalidArgument);
  const uint64_t wide[3] = {1, 70000, 1};
  Status tooWide = device->launch(ptxFma(), wide, block, 0, args);
  REQUIRE(tooWide.message().find("grid dimension 1 of 70000 blocks exceeds "
                                 "cuda:0's limit 65535") == 0);
  REQUIRE(device->loadedModules() >= 1);
  size_t kernels = device->loadedKernels();

  // Descriptors that disagree with the kernel are refused before a launch.
  static const uint32_t threeSizes[] = {0, 0, 0};
  static const adj_rt_gpu_kernel three = {&ptxModule(), "fma_f32", 3, 0,
                                          threeSizes};
  REQUIRE(device->launch(three, grid, block, 0, args).message() ==
          "kernel fma_f32 on cuda:0: takes more than the 3 arguments of its "
          "descriptor");
  static const uint32_t narrowSizes[] = {0, 0, 0, 4};
  static const adj_rt_gpu_kernel narrow = {&ptxModule(), "fma_f32", 4, 0,
                                           narrowSizes};
  REQUIRE(device->launch(narrow, grid, block, 0, args).message() ==
          "kernel fma_f32 on cuda:0: argument #3 has 8 bytes, its "
          "descriptor says 4");
  static const adj_rt_gpu_kernel missing = {&ptxModule(), "no_such", 4, 0,
                                            threeSizes};
  REQUIRE(device->launch(missing, grid, block, 0, args).message() ==
          "CUDA_ERROR_NOT_FOUND (500: named symbol not found) in "
          "cuModuleGetFunction for kernel no_such");
  REQUIRE(device->loadedKernels() == kernels);
  REQUIRE(j->moduleLoads == loads + 1);
}

TEST_CASE("CUDA: imported memory goes back to its producer after our queue",
          "[gpu][cuda]") {
  FakeCuJournal *j = nullptr;
  cuda::CudaDevice *device = fakeCuda(&j);
  if (!device)
    return;
  // A producer's CUDA buffer (torch's, say), imported without a copy.
  Tensor producer = Tensor::allocateOn(*device, DType::F32, {4});
  int64_t shape[] = {4};
  dlpack::DLTensor view{producer.data(), {dlpack::kDLCUDA, 0}, 1,
                        {2, 32, 1},      shape,          nullptr, 0};
  int syncsAtRelease = -1;
  auto owner = std::shared_ptr<void>(nullptr, [&](void *) {
    syncsAtRelease = j->streamSyncs;
  });
  Tensor imported = dlpack::importTensor(view, std::move(owner));
  REQUIRE(imported.data() == producer.data());
  REQUIRE(device->fill(imported.data(), 0, 16).ok()); // queued work on it
  int syncs = j->streamSyncs;
  imported = Tensor();
  // The stream was synchronized before the producer got its memory back.
  REQUIRE(syncsAtRelease > syncs);
}

TEST_CASE("CUDA: module images are checked and load errors name the module",
          "[gpu][cuda]") {
  FakeCuJournal *j = nullptr;
  cuda::CudaDevice *device = fakeCuda(&j);
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

TEST_CASE("CUDA: timeOnStream measures the work between two events",
          "[gpu][cuda]") {
  FakeCuJournal *j = nullptr;
  cuda::CudaDevice *device = fakeCuda(&j);
  if (!device)
    return;
  auto setClock = reinterpret_cast<FakeCudaSetClockFn>(
      dlsym(dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD),
            "fakeCudaSetClock"));
  REQUIRE(setClock);
  setClock(100);
  j->launchMs = 2.5;
  void *block = nullptr;
  REQUIRE(device->allocate(64, &block).ok());
  int64_t n = 0;
  void *args[] = {&block, &block, &block, &n};
  const uint64_t grid[3] = {1, 1, 1}, threads[3] = {32, 1, 1};
  size_t from = j->stream.size();
  double ms = -1;
  REQUIRE(device
              ->timeOnStream(
                  [&] {
                    Status first =
                        device->launch(ptxFma(), grid, threads, 0, args);
                    return first.ok() ? device->launch(ptxFma(), grid,
                                                       threads, 0, args)
                                      : first;
                  },
                  &ms)
              .ok());
  REQUIRE(ms == 5.0);
  REQUIRE(since(*j, from) ==
          std::vector<std::string>{"event 100.000000", "launch fma_f32",
                                   "launch fma_f32", "event 105.000000"});
  // The work's failure is the result, and the events are released.
  Status failed = device->timeOnStream(
      [] { return Status::error(StatusCode::Internal, "enqueue failed"); },
      &ms);
  REQUIRE(failed.message() == "enqueue failed");
  j->launchMs = 0;
  device->deallocate(block);
}

TEST_CASE("CUDA: a refused allocation empties the cache and retries",
          "[gpu][cuda]") {
  FakeCuJournal *j = nullptr;
  cuda::CudaDevice *device = fakeCuda(&j);
  if (!device)
    return;
  device->emptyCache();
  size_t limit = j->memoryLimit;
  j->memoryLimit = j->liveDeviceBytes + (size_t(3) << 19); // 1.5 MiB more
  void *a = nullptr, *b = nullptr;
  REQUIRE(device->allocate(size_t(1) << 20, &a).ok());
  device->deallocate(a); // cached, still the driver's
  int frees = j->deviceFrees;
  REQUIRE(device->allocate(size_t(5) << 18, &b).ok()); // 1.25 MiB
  REQUIRE(j->deviceFrees == frees + 1);
  REQUIRE(device->memoryStats().bytesCached == 0);
  void *huge = nullptr;
  Status refused = device->allocate(size_t(1) << 31, &huge);
  REQUIRE(refused.code() == StatusCode::OutOfMemory);
  REQUIRE(refused.message().find("CUDA_ERROR_OUT_OF_MEMORY (2: out of "
                                 "memory) in cuMemAlloc_v2 (") == 0);
  REQUIRE(huge == nullptr);
  device->deallocate(b);
  j->memoryLimit = limit;
}

TEST_CASE("CUDA: a driver without a GPU means no cuda devices",
          "[cuda-no-gpu]") {
  // Run by ctest with FAKE_CUDA_NO_DEVICE=1 (cuInit fails as without GPUs).
  const char *none = std::getenv("FAKE_CUDA_NO_DEVICE");
  if (!none || std::string(none) != "1") {
    WARN("runs only on the fake driver with FAKE_CUDA_NO_DEVICE=1");
    return;
  }
  Device *device = nullptr;
  Status status = findDevice("cuda:0", &device);
  REQUIRE(status.code() == StatusCode::Unavailable);
  REQUIRE(status.toString() ==
          "unavailable: the CUDA driver has no usable GPU: "
          "CUDA_ERROR_NO_DEVICE (100: no CUDA-capable device is detected) in "
          "cuInit");
  REQUIRE(device == nullptr);
  for (Device *d : devices())
    REQUIRE(d->kind() != DeviceKind::CUDA);
}

TEST_CASE("the pinned pool reuses blocks per power of two, up to a cap",
          "[gpu][pool]") {
  int allocated = 0, released = 0;
  bool refuse = false;
  gpu::PinnedPool pool(
      gpu::PinnedPool::Backend{
          [&](size_t bytes, void **ptr) {
            if (refuse)
              return Status::error(StatusCode::OutOfMemory, "no pinning");
            ++allocated;
            *ptr = std::malloc(bytes);
            return Status::success();
          },
          [&](void *ptr) {
            ++released;
            std::free(ptr);
          }},
      /*maxCachedBytes=*/16384);
  void *a = nullptr, *b = nullptr, *c = nullptr;
  REQUIRE(pool.allocate(100, &a).ok()); // a 4 KiB block
  REQUIRE(pool.release(a));
  REQUIRE(!pool.release(a)); // not live any more
  REQUIRE(pool.cachedBytes() == 4096);
  REQUIRE(pool.allocate(4000, &b).ok());
  REQUIRE(b == a);
  REQUIRE(allocated == 1);
  REQUIRE(pool.allocate(4097, &c).ok()); // the next power of two
  REQUIRE(allocated == 2);
  REQUIRE(pool.liveBlocks() == 2);
  // 4 KiB + 8 KiB cached fit under the cap; a 16 KiB block does not.
  void *d = nullptr;
  REQUIRE(pool.allocate(16384, &d).ok());
  REQUIRE(pool.release(b));
  REQUIRE(pool.release(c));
  REQUIRE(pool.release(d));
  REQUIRE(pool.cachedBytes() == 12288);
  REQUIRE(released == 1);
  refuse = true;
  void *e = nullptr;
  REQUIRE(pool.allocate(65536, &e).code() == StatusCode::OutOfMemory);
  REQUIRE(pool.liveBlocks() == 0);
  pool.trim();
  REQUIRE(pool.cachedBytes() == 0);
  REQUIRE(released == 3);
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
