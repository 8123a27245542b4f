//===- GpuTest.cpp - OpenCL devices, device tensors, the GpuABI -----------===//
//
// Runs on opencl:0 (Intel's CPU OpenCL runtime on the build machines, set
// up by scripts/setup.sh); each test passes with a WARN where there is no
// OpenCL device. The kernels are GPU/kernels.mlir lowered to SPIR-V at build
// time; "host code" is written by hand here exactly as the GPU lowering
// emits it: descriptors of device pointers, adj_rt_gpu_* calls, invoke().
//
//===----------------------------------------------------------------------===//

#include "GPU/GpuDevice.h"
#include "GpuTestSupport.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Tensor.h"
#include "adjoint/Support/Error.h"

#include <cmath>
#include <cstring>
#include <string>
#include <thread>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

namespace {

/// A constant of the "host object": x of the axpy entry.
constexpr int64_t kRows = 3, kCols = 50;
const double kX[kRows * kCols] = {
#define X10(i) i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8, i + 9
    X10(0),   X10(10),  X10(20),  X10(30),  X10(40),
    X10(50),  X10(60),  X10(70),  X10(80),  X10(90),
    X10(100), X10(110), X10(120), X10(130), X10(140)
#undef X10
};

/// (y: tensor<3x50xf64>) -> tensor<3x50xf64>: y + 0.5 * x on a 2-D grid,
/// with x a device constant, alpha read back from the device (host control
/// flow on a device value) and y copied into a fresh block first.
void axpyEntry(void **args) {
  auto *out = static_cast<int64_t *>(args[0]);
  auto *yIn = static_cast<int64_t *>(args[1]);
  uint64_t bytes = kRows * kCols * sizeof(double);
  void *x = adj_rt_gpu_constant(kX, sizeof(kX));
  void *y = adj_rt_gpu_alloc(bytes);
  adj_rt_gpu_memcpy(y, reinterpret_cast<void *>(yIn[1]), bytes);
  double half = 0.5, alpha = 0;
  void *scalar = adj_rt_gpu_alloc(sizeof(double));
  adj_rt_gpu_write(scalar, &half, sizeof(double));
  adj_rt_gpu_read(&alpha, scalar, sizeof(double));
  adj_rt_gpu_free(scalar);
  int64_t cols = kCols;
  void *argv[] = {&alpha, &x, &y, &cols};
  uint64_t block = 16;
  adj_rt_gpu_launch(&axpyKernel(), (kCols + block - 1) / block, kRows, 1,
                    block, 1, 1, 0, argv);
  int64_t y64 = static_cast<int64_t>(reinterpret_cast<intptr_t>(y));
  int64_t desc[] = {y64, y64, 0, kRows, kCols, kCols, 1};
  std::memcpy(out, desc, sizeof(desc));
}

gpu::GpuDevice &asGpu(Device &device) {
  return static_cast<gpu::GpuDevice &>(device);
}

} // namespace

TEST_CASE("device memory: pool reuse, round trips, copies, fills",
          "[gpu][opencl]") {
  Device *device = openclOrSkip();
  if (!device)
    return;
  device->emptyCache();
  PoolStats before = device->memoryStats();
  void *a = nullptr, *b = nullptr;
  REQUIRE(device->allocate(4000, &a).ok());
  REQUIRE(reinterpret_cast<uintptr_t>(a) % 256 == 0);
  REQUIRE(device->allocate(4000, &b).ok());
  std::vector<int32_t> host(1000), back(1000, -1);
  for (int i = 0; i < 1000; ++i)
    host[i] = i * 7 - 300;
  REQUIRE(device->copyHostToDevice(a, host.data(), 4000).ok());
  host.assign(1000, 0); // the copy was staged: the source may change now
  REQUIRE(device->copyDeviceToDevice(b, a, 4000).ok());
  REQUIRE(device->fill(a, 0xff, 400).ok());
  REQUIRE(device->copyDeviceToHost(back.data(), b, 4000).ok());
  for (int i = 0; i < 1000; ++i)
    REQUIRE(back[i] == i * 7 - 300);
  REQUIRE(device->copyDeviceToHost(back.data(), a, 4000).ok());
  REQUIRE(back[0] == -1);
  REQUIRE(back[99] == -1);
  REQUIRE(back[100] == 400);
  REQUIRE(device->synchronize().ok());

  PoolStats s = device->memoryStats();
  REQUIRE(s.liveBlocks == before.liveBlocks + 2);
  device->deallocate(a);
  device->deallocate(b);
  void *again = nullptr;
  REQUIRE(device->allocate(3990, &again).ok());
  REQUIRE((again == a || again == b));
  REQUIRE(device->memoryStats().reused == s.reused + 1);
  device->deallocate(again);
  REQUIRE(device->memoryStats().bytesCached > 0);
  device->emptyCache();
  REQUIRE(device->memoryStats().bytesCached == 0);
  REQUIRE(device->memoryStats().bytesInUse == before.bytesInUse);

  // The driver's refusal is an OutOfMemory status naming the call.
  void *huge = nullptr;
  Status refused = device->allocate(uint64_t(1) << 52, &huge);
  REQUIRE(refused.code() == StatusCode::OutOfMemory);
  REQUIRE(huge == nullptr);
  REQUIRE((refused.message().find("in clDeviceMemAllocINTEL (") !=
               std::string::npos ||
           refused.message().find("clSVMAlloc refused") == 0));
}

TEST_CASE("device tensors: placement, copies, host-only access",
          "[gpu][opencl]") {
  Device *device = openclOrSkip();
  if (!device)
    return;
  uint64_t inUse = device->memoryStats().bytesInUse;
  Tensor host = Tensor::fromDoubles(DType::F32, {2, 3}, {1, -2, 3, 4.5, 5, 6});
  REQUIRE(host.isOnHost());
  REQUIRE(host.device().id() == "cpu");
  {
    Tensor onDevice = host.to(*device);
    REQUIRE(&onDevice.device() == device);
    REQUIRE(!onDevice.isOnHost());
    REQUIRE(onDevice.typeString() == "tensor<2x3xf32>");
    REQUIRE(device->memoryStats().bytesInUse > inUse);
    REQUIRE(onDevice.to(*device).data() == onDevice.data()); // no copy
    try {
      (void)onDevice.at(0);
      FAIL("at() on a device tensor must throw");
    } catch (const adjoint::Error &e) {
      REQUIRE(std::string(e.what()) ==
              "Tensor::at(): tensor<2x3xf32> is on opencl:0; copy it to the "
              "host first (toHost())");
    }
    REQUIRE_THROWS_AS(onDevice.toDoubles(), adjoint::Error);
    REQUIRE_THROWS_AS(onDevice.data<float>(), adjoint::Error);
    Tensor copy = onDevice.clone();
    REQUIRE(&copy.device() == device);
    REQUIRE(copy.data() != onDevice.data());
    REQUIRE(copy.toHost().toDoubles() == host.toDoubles());
    Tensor zeros = Tensor::allocateOn(*device, DType::I32, {5});
    REQUIRE(device->fill(zeros.data(), 0, zeros.byteSize()).ok());
    REQUIRE(zeros.toHost().toDoubles() == std::vector<double>(5, 0.0));
  }
  // The last copy of each device tensor gave its block back to the pool.
  REQUIRE(device->memoryStats().bytesInUse == inUse);
}

TEST_CASE("invoke runs host code that launches SPIR-V kernels",
          "[gpu][opencl]") {
  Device *device = openclOrSkip();
  if (!device)
    return;
  const int64_t n = 1000; // not a multiple of the block: the guard matters
  Tensor a = Tensor::fromDoubles(DType::F32, {n}, ramp(n, 0.25, -3));
  Tensor b = Tensor::fromDoubles(DType::F32, {n}, ramp(n, -0.5, 2));
  std::vector<Tensor> inputs = {a.to(*device), b.to(*device)};
  std::vector<Tensor> outputs;
  gHost = HostCode{&fmaKernel(), 64, false};
  Signature sig = vectorSignature(DType::F32, n, 2);
  uint64_t inUse = device->memoryStats().bytesInUse;
  InvokeStats stats;
  Status status = invoke(fmaEntry, sig, inputs, outputs, &stats, device);
  REQUIRE(status.toString() == "ok");
  REQUIRE(outputs.size() == 1);
  REQUIRE(&outputs[0].device() == device);
  REQUIRE(stats.outputsCopied == 0);
  std::vector<double> c = outputs[0].toHost().toDoubles();
  for (int64_t i = 0; i < n; ++i) {
    float expected = float(a.at(i)) * float(b.at(i)) + 1.0f;
    REQUIRE(c[i] == expected);
  }
  // Loaded once, then cached per device by descriptor address.
  auto &gpu = asGpu(*device);
  size_t modules = gpu.loadedModules();
  REQUIRE(invoke(fmaEntry, sig, inputs, outputs, nullptr, device).ok());
  REQUIRE(gpu.loadedModules() == modules);
  outputs.clear();
  REQUIRE(device->memoryStats().bytesInUse == inUse);

  // An output that is an input is copied into a new block.
  gHost.returnInput = true;
  REQUIRE(invoke(fmaEntry, sig, inputs, outputs, &stats, device).ok());
  REQUIRE(stats.outputsCopied == 1);
  REQUIRE(stats.blocksReleased == 0);
  REQUIRE(outputs[0].data() != inputs[0].data());
  REQUIRE(outputs[0].toHost().toDoubles() == a.toDoubles());
  gHost.returnInput = false;

  // f64, a scalar argument, a 2-D grid, constants, reads and writes.
  Tensor y = Tensor::fromDoubles(DType::F64, {kRows, kCols},
                                 ramp(kRows * kCols, 1.5, -7));
  Signature axpy;
  axpy.inputs.push_back({DType::F64, {kRows, kCols}});
  axpy.outputs.push_back({DType::F64, {kRows, kCols}});
  REQUIRE(invoke(axpyEntry, axpy, {y.to(*device)}, outputs, nullptr, device)
              .ok());
  std::vector<double> r = outputs[0].toHost().toDoubles();
  for (int64_t i = 0; i < kRows * kCols; ++i)
    REQUIRE(r[i] == y.at(i) + 0.5 * kX[i]);
  // The constant was uploaded once for both calls.
  REQUIRE(invoke(axpyEntry, axpy, {y.to(*device)}, outputs, nullptr, device)
              .ok());
  REQUIRE(outputs[0].toHost().toDoubles() == r);
}

TEST_CASE("GpuABI failures come back from invoke as a Status",
          "[gpu][opencl]") {
  Device *device = openclOrSkip();
  if (!device)
    return;
  const int64_t n = 100;
  Tensor a = Tensor::fromDoubles(DType::F32, {n}, ramp(n, 1, 0));
  std::vector<Tensor> inputs = {a.to(*device), a.to(*device)};
  std::vector<Tensor> outputs;
  Signature sig = vectorSignature(DType::F32, n, 2);
  uint64_t inUse = device->memoryStats().bytesInUse;

  SECTION("a kernel name the module lacks") {
    static const uint32_t sizes[] = {0, 0, 0, 8};
    static const adj_rt_gpu_kernel missing = {&kernelModule(), "no_such",
                                              4, 0, sizes};
    gHost = HostCode{&missing, 64, false};
    Status status = invoke(fmaEntry, sig, inputs, outputs, nullptr, device);
    REQUIRE(status.code() == StatusCode::Internal);
    REQUIRE(status.message() == "CL_INVALID_KERNEL_NAME (-46) in "
                                "clCreateKernel for kernel no_such");
  }
  SECTION("an argument count that does not match the kernel") {
    static const uint32_t sizes[] = {0, 0, 0};
    static const adj_rt_gpu_kernel three = {&kernelModule(), "fma_f32", 3,
                                            0, sizes};
    gHost = HostCode{&three, 64, false};
    Status status = invoke(fmaEntry, sig, inputs, outputs, nullptr, device);
    REQUIRE(status.code() == StatusCode::InvalidArgument);
    REQUIRE(status.message() ==
            "kernel fma_f32 takes 4 arguments, its descriptor says 3");
  }
  SECTION("a truncated module never reaches the driver") {
    static const adj_rt_gpu_module cut = {
        ADJ_RT_GPU_SPIRV, 0, kernelBytes().data(), kernelBytes().size() - 3,
        "cut"};
    static const uint32_t sizes[] = {0, 0, 0, 8};
    static const adj_rt_gpu_kernel kernel = {&cut, "fma_f32", 4, 0, sizes};
    gHost = HostCode{&kernel, 64, false};
    Status status = invoke(fmaEntry, sig, inputs, outputs, nullptr, device);
    REQUIRE(status.code() == StatusCode::InvalidArgument);
    REQUIRE(status.message().find("module cut is not valid SPIR-V: ") == 0);
  }
  SECTION("a block past the device's workgroup limit") {
    gHost = HostCode{&fmaKernel(),
                     device->properties().maxWorkgroupSize * 2, false};
    Status status = invoke(fmaEntry, sig, inputs, outputs, nullptr, device);
    REQUIRE(status.code() == StatusCode::InvalidArgument);
    REQUIRE(status.message().find("launch of kernel fma_f32 on opencl:0: "
                                  "block ") == 0);
  }
  SECTION("device memory runs out inside the call") {
    gHost = HostCode{&fmaKernel(), 64, false};
    // A cached block of the right size would serve it within any limit.
    device->emptyCache();
    device->setMemoryLimit(device->memoryStats().bytesInUse + 64);
    Status status = invoke(fmaEntry, sig, inputs, outputs, nullptr, device);
    device->setMemoryLimit(0);
    REQUIRE(status.code() == StatusCode::OutOfMemory);
    REQUIRE(status.message().find("cannot allocate 400 bytes of device "
                                  "memory") == 0);
  }
  SECTION("inputs on another device") {
    gHost = HostCode{&fmaKernel(), 64, false};
    Status status = invoke(fmaEntry, sig, {a, a}, outputs, nullptr, device);
    REQUIRE(status.code() == StatusCode::InvalidArgument);
    REQUIRE(status.message() == "input #0 is on cpu, the call runs on "
                                "opencl:0: copy it with Tensor::to()");
    Status onCpu = invoke(fmaEntry, sig, inputs, outputs, nullptr);
    REQUIRE(onCpu.message() == "input #0 is on opencl:0, the call runs on "
                               "cpu: copy it with Tensor::to()");
  }
  REQUIRE(outputs.empty());
  // Whatever failed, the call's blocks went back to the pool.
  REQUIRE(device->memoryStats().bytesInUse == inUse);
  // And the device still works.
  gHost = HostCode{&fmaKernel(), 64, false};
  REQUIRE(invoke(fmaEntry, sig, inputs, outputs, nullptr, device).ok());
  REQUIRE(outputs[0].toHost().at(3) == 3.0 * 3.0 + 1.0);
}

namespace {

/// The GEMM descriptor gemmEntry passes; its fallback is fma_f32, so that
/// the result shows which arguments the launch got.
adj_rt_gpu_gemm_desc gGemm;

/// (a, b: tensor<n x f32>) -> tensor<n x f32>: adj_rt_gpu_gemm(gGemm, a, b,
/// c) with fma_f32(a, b, c, n)'s arguments as the fallback's.
void gemmEntry(void **args) {
  auto *out = static_cast<int64_t *>(args[0]);
  auto *a = static_cast<int64_t *>(args[1]);
  auto *b = static_cast<int64_t *>(args[2]);
  int64_t n = a[3];
  void *pa = reinterpret_cast<void *>(a[1]);
  void *pb = reinterpret_cast<void *>(b[1]);
  void *c = adj_rt_gpu_alloc(uint64_t(n) * sizeof(float));
  void *argv[] = {&pa, &pb, &c, &n};
  adj_rt_gpu_gemm(&gGemm, pa, pb, c, argv);
  writeDescriptor(out, c, n);
}

} // namespace

TEST_CASE("a device without a GEMM library launches the GEMM's fallback",
          "[gpu][opencl]") {
  Device *device = openclOrSkip();
  if (!device)
    return;
  const int64_t n = 100;
  Tensor a = Tensor::fromDoubles(DType::F32, {n}, ramp(n, 1, 0));
  Tensor b = Tensor::fromDoubles(DType::F32, {n}, ramp(n, 2, 1));
  std::vector<Tensor> inputs = {a.to(*device), b.to(*device)};
  std::vector<Tensor> outputs;
  Signature sig = vectorSignature(DType::F32, n, 2);
  // A 1 x n x 1 product of row-major matrices (its shape is checked, not
  // computed: the fallback is whatever kernel the compiler made).
  gGemm = {};
  gGemm.dtype = uint32_t(DType::F32);
  gGemm.batch = 1;
  gGemm.m = 1;
  gGemm.n = n;
  gGemm.k = 1;
  gGemm.a = {ADJ_RT_GPU_ROW_MAJOR, 0, 1, 0};
  gGemm.b = {ADJ_RT_GPU_ROW_MAJOR, 0, uint64_t(n), 0};
  gGemm.c = {ADJ_RT_GPU_ROW_MAJOR, 0, uint64_t(n), 0};
  gGemm.fallback = &fmaKernel();
  gGemm.grid[0] = 2;
  gGemm.grid[1] = gGemm.grid[2] = 1;
  gGemm.block[0] = 64;
  gGemm.block[1] = gGemm.block[2] = 1;

  SECTION("the fallback runs with its launch and arguments") {
    REQUIRE(invoke(gemmEntry, sig, inputs, outputs, nullptr, device).ok());
    Tensor c = outputs[0].toHost();
    std::vector<double> x = ramp(n, 1, 0), y = ramp(n, 2, 1);
    for (int64_t i = 0; i < n; ++i)
      REQUIRE(c.at(i) == float(x[i] * y[i] + 1));
  }
  SECTION("a malformed descriptor is a Status of the call") {
    gGemm.b.ld = 3;
    uint64_t inUse = device->memoryStats().bytesInUse;
    Status status = invoke(gemmEntry, sig, inputs, outputs, nullptr, device);
    REQUIRE(status.code() == StatusCode::InvalidArgument);
    REQUIRE(status.message() == "adj_rt_gpu_gemm: B is 1x100 row-major with "
                                "leading dimension 3");
    REQUIRE(outputs.empty());
    REQUIRE(device->memoryStats().bytesInUse == inUse);
  }
}

TEST_CASE("calls from several threads share one device's queue and caches",
          "[gpu][opencl]") {
  Device *device = openclOrSkip();
  if (!device)
    return;
  const int64_t n = 300;
  Tensor a = Tensor::fromDoubles(DType::F32, {n}, ramp(n, 0.5, 1));
  Tensor onDevice = a.to(*device);
  gHost = HostCode{&fmaKernel(), 32, false};
  Signature sig = vectorSignature(DType::F32, n, 2);
  std::vector<std::string> failures(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 10; ++round) {
        std::vector<Tensor> outputs;
        Status status =
            invoke(fmaEntry, sig, {onDevice, onDevice}, outputs, nullptr,
                   device);
        if (!status.ok()) {
          failures[t] = status.toString();
          return;
        }
        std::vector<double> c = outputs[0].toHost().toDoubles();
        for (int64_t i = 0; i < n; ++i)
          if (c[i] != double(float(a.at(i)) * float(a.at(i)) + 1.0f)) {
            failures[t] = "wrong value at " + std::to_string(i);
            return;
          }
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &failure : failures)
    REQUIRE(failure.empty());
}
