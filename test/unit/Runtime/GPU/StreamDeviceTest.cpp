//===- StreamDeviceTest.cpp - CUDA and HIP on their fake drivers ----------===//
//
// No machine here has an NVIDIA or AMD GPU: these tests run each stream
// driver (GPU/StreamDevice.h) against its fake (FakeCuda.cpp, FakeHip.cpp;
// ctest puts one first on the library path, see CMakeLists.txt), which
// records launches instead of running them. Written once for both vendors
// (StreamVendors.h), they check what the runtime asks of the driver:
// discovery and properties, memory, copies (pinned staging and bounce
// buffers), fills, module and kernel caching, launch arguments and their
// checks, event timing, imported memory, the calling thread's device, and
// the error messages. An instantiation whose fake is not loaded passes
// with a warning.
//
//===----------------------------------------------------------------------===//

#include "StreamVendors.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

#define STREAM_VENDORS CudaVendor, HipVendor

TEMPLATE_TEST_CASE("stream devices: discovery and properties",
                   "[gpu][stream-device]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  REQUIRE(device->id() == TestType::id);
  REQUIRE(device->kind() == TestType::kind);
  Device *plain = nullptr;
  REQUIRE(findDevice(TestType::prefix, &plain).ok());
  REQUIRE(plain == device);
  const DeviceProperties &p = device->properties();
  REQUIRE(p.name == TestType::name);
  REQUIRE(p.vendor == TestType::vendor);
  REQUIRE(p.chip == TestType::chip);
  REQUIRE(p.driverVersion == TestType::driverVersion);
  REQUIRE(p.subgroupSizes == std::vector<uint32_t>{TestType::subgroup});
  REQUIRE(p.maxWorkgroupSize == 1024);
  REQUIRE(p.maxWorkgroupDims[0] == 1024);
  REQUIRE(p.maxWorkgroupDims[2] == TestType::maxBlockDimZ);
  REQUIRE(p.localMemoryBytes == TestType::localMemoryBytes);
  REQUIRE(p.computeUnits == TestType::computeUnits);
  REQUIRE(p.memoryBytes == j->memoryLimit);
  REQUIRE(p.fp64);
  REQUIRE(p.fp16);
  std::string past = std::string(TestType::prefix) + ":1";
  REQUIRE(findDevice(past, &plain).message() ==
          past + " does not exist: 1 " + TestType::prefix + " device");
}

TEMPLATE_TEST_CASE("stream devices: copies stage in pinned memory and "
                   "bounce large transfers",
                   "[gpu][stream-device]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
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
  // Once the queue has passed it, the block is back in the pool, and reused.
  REQUIRE(device->synchronize().ok());
  REQUIRE(device->pinnedPool().liveBlocks() == 0);
  int pinned = j->pinnedAllocations;
  Tensor again = host.to(*device);
  REQUIRE(j->pinnedAllocations == pinned);

  // Fill and device-to-device copy on the stream; a small download goes
  // directly from pageable memory.
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

  // 10 MiB from pageable memory: through the two 4 MiB pinned bounce
  // buffers, both ways.
  const size_t big = size_t(10) << 20;
  std::vector<uint8_t> data(big), bounced(big);
  std::iota(data.begin(), data.end(), uint8_t(7));
  void *block = nullptr;
  REQUIRE(device->allocate(big, &block).ok());
  from = j->stream.size();
  REQUIRE(device->copyHostToDevice(block, data.data(), big).ok());
  REQUIRE(device->copyDeviceToHost(bounced.data(), block, big).ok());
  REQUIRE(bounced == data);
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
  REQUIRE(TestType::pin(*device, big, &userPinned).ok());
  std::memcpy(userPinned, data.data(), big);
  from = j->stream.size();
  REQUIRE(device->copyHostToDevice(block, userPinned, big).ok());
  REQUIRE(device->copyDeviceToHost(userPinned, block, big).ok());
  REQUIRE(since(*j, from) ==
          std::vector<std::string>{"HtoD 10485760 pinned",
                                   "DtoH 10485760 pinned"});
  REQUIRE(TestType::unpin(*device, userPinned).ok());
  device->deallocate(block);
}

TEMPLATE_TEST_CASE("stream devices: modules load once, launches pass their "
                   "arguments",
                   "[gpu][stream-device]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  const adj_rt_gpu_kernel &scale = TestType::scale();
  void *in = nullptr, *out = nullptr;
  REQUIRE(device->allocate(4000, &in).ok());
  REQUIRE(device->allocate(4000, &out).ok());
  float factor = 2.5f;
  int64_t n = 1000;
  void *args[] = {&out, &in, &factor, &n};
  const uint64_t grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
  int loads = j->moduleLoads;
  size_t launches = j->launches.size();
  REQUIRE(device->launch(scale, grid, block, 0, args).ok());
  REQUIRE(device->launch(scale, grid, block, 128, args).ok());
  REQUIRE(j->moduleLoads == loads + 1);
  REQUIRE(j->launches.size() == launches + 2);
  const FakeLaunch &launch = j->launches.back();
  REQUIRE(launch.function == "scale");
  REQUIRE(launch.grid[0] == 4);
  REQUIRE(launch.grid[1] == 1);
  REQUIRE(launch.block[0] == 256);
  REQUIRE(launch.block[2] == 1);
  REQUIRE(launch.sharedBytes == 128);
  // As many arguments as the loaded code declares, each of its size:
  // pointers as their 8 bytes, the scalars as theirs.
  REQUIRE(launch.args.size() == 4);
  REQUIRE(launch.args[0] == bytesOf(out));
  REQUIRE(launch.args[1] == bytesOf(in));
  REQUIRE(launch.args[2] == bytesOf(factor));
  REQUIRE(launch.args[3] == bytesOf(n));
  REQUIRE(device->loadedModules() >= 1);
  size_t kernels = device->loadedKernels();

  const uint64_t wide[3] = {1, 70000, 1};
  REQUIRE(device->launch(scale, wide, block, 0, args).message() ==
          "grid dimension 1 of 70000 blocks exceeds " + std::string(TestType::id) +
              "'s limit " + std::to_string(TestType::maxGridY) +
              " for kernel scale");
  // Descriptors that disagree with the loaded code are refused before a
  // launch.
  const std::string on = "kernel scale on " + std::string(TestType::id);
  static const uint32_t threeSizes[] = {0, 0, 4};
  static const adj_rt_gpu_kernel three = {scale.module, "scale", 3, 0,
                                          threeSizes};
  REQUIRE(device->launch(three, grid, block, 0, args).message() ==
          on + ": takes 4 arguments, its descriptor says 3");
  static const uint32_t narrowSizes[] = {0, 0, 4, 4};
  static const adj_rt_gpu_kernel narrow = {scale.module, "scale", 4, 0,
                                           narrowSizes};
  REQUIRE(device->launch(narrow, grid, block, 0, args).message() ==
          on + ": argument #3 has 8 bytes, its descriptor says 4");
  static const adj_rt_gpu_kernel missing = {scale.module, "no_such", 4, 0,
                                            scale.argSizes};
  REQUIRE(device->launch(missing, grid, block, 0, args).message() ==
          std::string(TestType::notFound) + " for kernel no_such");
  REQUIRE(device->loadedKernels() == kernels);
  REQUIRE(j->moduleLoads == loads + 1);
  device->deallocate(in);
  device->deallocate(out);
}

TEMPLATE_TEST_CASE("stream devices: timeOnStream measures the work between "
                   "two events",
                   "[gpu][stream-device]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  j->clockMs = 100;
  j->launchMs = 1.5;
  void *block = nullptr;
  REQUIRE(device->allocate(64, &block).ok());
  float factor = 1;
  int64_t n = 0;
  void *args[] = {&block, &block, &factor, &n};
  const uint64_t grid[3] = {1, 1, 1}, threads[3] = {64, 1, 1};
  auto launch = [&] {
    return device->launch(TestType::scale(), grid, threads, 0, args);
  };
  size_t from = j->stream.size();
  double ms = -1;
  REQUIRE(device
              ->timeOnStream(
                  [&] {
                    Status first = launch();
                    return first.ok() ? launch() : first;
                  },
                  &ms)
              .ok());
  REQUIRE(ms == 3.0);
  REQUIRE(since(*j, from) ==
          std::vector<std::string>{"event 100.000000", "launch scale",
                                   "launch scale", "event 103.000000"});
  // The work's failure is the result, and the events are released.
  Status failed = device->timeOnStream(
      [] { return Status::error(StatusCode::Internal, "enqueue failed"); },
      &ms);
  REQUIRE(failed.message() == "enqueue failed");
  j->launchMs = 0;
  device->deallocate(block);
}

TEMPLATE_TEST_CASE("stream devices: DLPack exchanges device memory without "
                   "copies, handed back after our queue",
                   "[gpu][stream-device]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  Tensor t = Tensor::fromDoubles(DType::F32, {3}, {1, 2, 3}).to(*device);
  dlpack::DLDevice where = dlpack::deviceOf(t);
  REQUIRE(where.device_type == TestType::dlpackType);
  REQUIRE(where.device_id == 0);
  // A producer's buffer (torch's) imported without a copy: the same
  // memory, handed back only after our stream passed our work on it.
  int64_t shape[] = {3};
  dlpack::DLTensor view{t.data(), {TestType::dlpackType, 0}, 1,
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

TEMPLATE_TEST_CASE("stream devices: a refused allocation empties the cache "
                   "and retries",
                   "[gpu][stream-device]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
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
  REQUIRE(refused.message().find(TestType::outOfMemory) == 0);
  REQUIRE(huge == nullptr);
  device->deallocate(b);
  j->memoryLimit = limit;
}

TEMPLATE_TEST_CASE("stream devices: the calling thread's device is restored",
                   "[gpu][stream-device]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  auto selectOther = fakeSymbol<TestType, FakeSelectOtherFn>("fakeSelectOther");
  auto current = fakeSymbol<TestType, FakeCurrentFn>("fakeCurrent");
  REQUIRE(selectOther);
  REQUIRE(current);
  // Another library made its device (context) current on this thread: the
  // runtime's work goes to ours (the fake refuses it elsewhere), then the
  // thread's choice is back.
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

TEMPLATE_TEST_CASE("stream devices: a driver without a GPU means no devices",
                   "[stream-no-gpu]", STREAM_VENDORS) {
  // Run by ctest with FAKE_CUDA_NO_DEVICE=1 or FAKE_HIP_NO_DEVICE=1 (the
  // driver's initialization fails as without GPUs).
  const char *none = std::getenv(TestType::noDeviceVariable);
  if (!none || std::string(none) != "1") {
    WARN("runs only on the fake driver with " << TestType::noDeviceVariable
                                              << "=1");
    return;
  }
  Device *device = nullptr;
  Status status = findDevice(TestType::id, &device);
  REQUIRE(status.code() == StatusCode::Unavailable);
  REQUIRE(status.toString() == TestType::noDevice);
  REQUIRE(device == nullptr);
  for (Device *d : devices())
    REQUIRE(d->kind() != TestType::kind);
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
