//===- StepGraphTest.cpp - Compiled calls as CUDA and HIP graphs ----------===//
//
// GpuDeviceSteps.cpp on the fake drivers, for both vendors: a function's
// calls from the third on are captured into a graph and launched as one,
// launched again while the work is the same, updated in place or
// instantiated anew when addresses change, and run plainly (with the
// reason in the device's counters) where the call needs the device before
// its end or the driver refuses the capture. The fakes run copies (so a
// graph's copies show in the data) and record launches with their
// arguments (so a graph's launches show in the journal, as plain ones do).
//
//===----------------------------------------------------------------------===//

#include "StreamVendors.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstdlib>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

#define STREAM_VENDORS CudaVendor, HipVendor

namespace {
constexpr int64_t kN = 64;

/// The kernel the entries launch: the vendor's `scale` from a module
/// descriptor of these tests' own (the device caches modules by the
/// descriptor's address; the other tests count their module loads).
const adj_rt_gpu_kernel *gScale = nullptr;

template <typename Vendor> const adj_rt_gpu_kernel *ownScale() {
  static const adj_rt_gpu_module module = *Vendor::scale().module;
  static const adj_rt_gpu_kernel kernel = {&module, "scale", 4, 0,
                                           Vendor::scale().argSizes};
  return &kernel;
}

/// (x: tensor<n x f32>) -> y: y = a copy of x, then scale(y, y, 2, n) (the
/// fake runs no kernel, so y's data is the copy's).
void copyScaleEntry(void **args) {
  auto *out = static_cast<int64_t *>(args[0]);
  void *x = reinterpret_cast<void *>(static_cast<int64_t *>(args[1])[1]);
  int64_t n = kN;
  void *y = adj_rt_gpu_alloc(uint64_t(n) * sizeof(float));
  adj_rt_gpu_memcpy(y, x, uint64_t(n) * sizeof(float));
  float factor = 2;
  void *argv[] = {&y, &y, &factor, &n};
  adj_rt_gpu_launch(gScale, 1, 1, 1, 64, 1, 1, 0, argv);
  writeDescriptor(out, y, n);
}

/// copyScaleEntry's work, then a read of y's first element on the host,
/// as host control flow on a device value does.
void readingEntry(void **args) {
  copyScaleEntry(args);
  auto *out = static_cast<int64_t *>(args[0]);
  float first = 0;
  adj_rt_gpu_read(&first, reinterpret_cast<void *>(out[1]), sizeof(float));
}

/// The values gUploadEntry uploads; changed between calls.
std::vector<float> gUpload(kN);

/// (x) -> y: y = the host's gUpload (a staged upload), then y += x by the
/// scale kernel (not run by the fake): y's data is the upload's.
void uploadEntry(void **args) {
  auto *out = static_cast<int64_t *>(args[0]);
  int64_t n = kN;
  void *y = adj_rt_gpu_alloc(uint64_t(n) * sizeof(float));
  adj_rt_gpu_write(y, gUpload.data(), uint64_t(n) * sizeof(float));
  float factor = 1;
  void *argv[] = {&y, &y, &factor, &n};
  adj_rt_gpu_launch(gScale, 1, 1, 1, 64, 1, 1, 0, argv);
  writeDescriptor(out, y, n);
}

Signature oneVector();

/// The input and device of nestingEntry's inner call.
Tensor gNestedInput;
Device *gNestedDevice = nullptr;

/// copyScaleEntry, with a call of copyScaleEntry on the same device in the
/// middle (as a callback into compiled code makes).
void nestingEntry(void **args) {
  copyScaleEntry(args);
  std::vector<Tensor> outputs;
  Status inner = invoke(copyScaleEntry, oneVector(), {gNestedInput}, outputs,
                        nullptr, gNestedDevice);
  if (!inner.ok())
    failCompiledCall(inner.code(), inner.message().c_str());
}

/// copyScaleEntry's copy and launch, then a launch without a kernel: the
/// call fails after recording work.
void failingEntry(void **args) {
  copyScaleEntry(args);
  adj_rt_gpu_launch(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr);
}

Signature oneVector() { return vectorSignature(DType::F32, kN, 1); }

/// Calls `entry` on `x`; the output's values.
std::vector<double> call(Device &device, PackedEntry entry, const Tensor &x,
                         Tensor *output = nullptr) {
  std::vector<Tensor> outputs;
  Status status = invoke(entry, oneVector(), {x}, outputs, nullptr, &device);
  INFO(status.toString());
  REQUIRE(status.ok());
  if (output)
    *output = outputs[0];
  return outputs[0].toHost().toDoubles();
}

Tensor input(Device &device, double offset) {
  return Tensor::fromDoubles(DType::F32, {kN}, ramp(kN, 1, offset))
      .to(device);
}

bool hasFallback(const DeviceCounters &c, const std::string &why) {
  for (const std::string &line : c.graphFallbacks)
    if (line.find(why) != std::string::npos)
      return true;
  return false;
}
} // namespace

TEMPLATE_TEST_CASE("stream devices: a function's calls from the third on "
                   "run as one graph launch",
                   "[gpu][stream-device][graphs]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  gScale = ownScale<TestType>();
  unsetenv("ADJOINT_GPU_GRAPHS");
  Tensor x = input(*device, 1);
  std::vector<double> expected = ramp(kN, 1, 1);

  // Two plain calls: launches and copies, no graph.
  DeviceCounters before = device->counters();
  int captures = j->graphCaptures, graphLaunches = j->graphLaunches;
  for (int i = 0; i < 2; ++i)
    REQUIRE(call(*device, copyScaleEntry, x) == expected);
  REQUIRE(j->graphCaptures == captures);
  DeviceCounters plain = device->counters();
  REQUIRE(plain.kernels == before.kernels + 2);
  REQUIRE(plain.copies >= before.copies + 2);
  REQUIRE(plain.graphCalls == before.graphCalls);

  // The third is captured and launched: the same work in the same order,
  // each launch with its arguments.
  size_t from = j->stream.size(), launches = j->launches.size();
  Tensor y;
  REQUIRE(call(*device, copyScaleEntry, x, &y) == expected);
  REQUIRE(j->graphCaptures == captures + 1);
  REQUIRE(j->graphLaunches == graphLaunches + 1);
  std::vector<std::string> work = since(*j, from);
  REQUIRE(work.size() >= 3);
  REQUIRE(work[0] == "graph 2");
  REQUIRE(work[1] == "DtoD " + std::to_string(kN * 4));
  REQUIRE(work[2] == "launch scale");
  REQUIRE(j->launches.size() == launches + 1);
  const FakeLaunch &launch = j->launches.back();
  REQUIRE(launch.args[0] == bytesOf(y.data()));
  REQUIRE(launch.args[1] == bytesOf(y.data()));
  REQUIRE(launch.args[2] == bytesOf(2.0f));
  REQUIRE(launch.args[3] == bytesOf(kN));
  DeviceCounters graphed = device->counters();
  REQUIRE(graphed.graphCalls == plain.graphCalls + 1);
  REQUIRE(graphed.graphCaptures == plain.graphCaptures + 1);
  // A graph's kernels count as run.
  REQUIRE(graphed.kernels == plain.kernels + 1);

  // The same work at the same addresses (y's block back in the pool and
  // handed out again) launches the graph again, captured once; x's new
  // contents show that the graph's copy ran.
  void *address = y.data();
  y = Tensor();
  std::vector<double> changed = ramp(kN, 3, -7);
  REQUIRE(device
              ->copyHostToDevice(
                  const_cast<void *>(x.data()),
                  Tensor::fromDoubles(DType::F32, {kN}, changed).data(),
                  kN * sizeof(float))
              .ok());
  launches = j->launches.size();
  Tensor again;
  REQUIRE(call(*device, copyScaleEntry, x, &again) == changed);
  REQUIRE(again.data() == address);
  REQUIRE(j->graphCaptures == captures + 1);
  REQUIRE(j->graphLaunches == graphLaunches + 2);
  REQUIRE(j->launches.size() == launches + 1);
  REQUIRE(j->launches.back().args[0] == bytesOf(address));
  REQUIRE(device->counters().graphCalls == plain.graphCalls + 2);
}

TEMPLATE_TEST_CASE("stream devices: new addresses update a function's "
                   "graph in place",
                   "[gpu][stream-device][graphs]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  gScale = ownScale<TestType>();
  unsetenv("ADJOINT_GPU_GRAPHS");
  PackedEntry entry = [](void **args) { copyScaleEntry(args); };
  // Inputs and outputs all kept alive: every call's addresses are new.
  std::vector<Tensor> inputs, outputs(8);
  for (int i = 0; i < 8; ++i)
    inputs.push_back(input(*device, 10 * i));
  int instantiations = j->graphInstantiations, updates = j->graphUpdates;
  int execs = j->liveGraphExecs;
  for (int i = 0; i < 8; ++i) {
    size_t launches = j->launches.size();
    REQUIRE(call(*device, entry, inputs[i], &outputs[i]) ==
            ramp(kN, 1, 10 * i));
    // The launch that ran is this call's, on this call's addresses.
    REQUIRE(j->launches.size() == launches + 1);
    REQUIRE(j->launches.back().args[0] == bytesOf(outputs[i].data()));
  }
  // Two plain calls, a graph each for the next four address patterns (the
  // function's most), then the least recently used updated in place.
  REQUIRE(j->graphInstantiations == instantiations + 4);
  REQUIRE(j->graphUpdates == updates + 2);
  REQUIRE(j->liveGraphs == 0);
  REQUIRE(j->liveGraphExecs == execs + 4);
  // Unloading code releases every graph; the next call captures anew.
  int captures = j->graphCaptures;
  device->forgetLoadedCode();
  REQUIRE(j->liveGraphExecs == 0);
  REQUIRE(call(*device, entry, inputs[0]) == ramp(kN, 1, 0));
  REQUIRE(j->graphCaptures == captures + 1);
}

TEMPLATE_TEST_CASE("stream devices: a call that reads device memory runs "
                   "plainly and says why",
                   "[gpu][stream-device][graphs]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  gScale = ownScale<TestType>();
  unsetenv("ADJOINT_GPU_GRAPHS");
  Tensor x = input(*device, 3);
  int captures = j->graphCaptures;
  for (int i = 0; i < 5; ++i) {
    size_t from = j->stream.size();
    REQUIRE(call(*device, readingEntry, x) == ramp(kN, 1, 3));
    // The copy and the launch were queued before the read, in order.
    std::vector<std::string> work = since(*j, from);
    REQUIRE(work.size() >= 3);
    REQUIRE(work[0] == "DtoD " + std::to_string(kN * 4));
    REQUIRE(work[1] == "launch scale");
    REQUIRE(work[2].rfind("DtoH 4", 0) == 0);
  }
  REQUIRE(j->graphCaptures == captures);
  REQUIRE(hasFallback(device->counters(), "reads device memory on the host"));
}

TEMPLATE_TEST_CASE("stream devices: a capture the driver refuses runs the "
                   "call plainly",
                   "[gpu][stream-device][graphs]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  gScale = ownScale<TestType>();
  unsetenv("ADJOINT_GPU_GRAPHS");
  // A function of its own: a lambda without captures is a new entry.
  PackedEntry entry = [](void **args) { copyScaleEntry(args); };
  Tensor x = input(*device, 5);
  j->refuseCapture = true;
  int captures = j->graphCaptures;
  size_t launches = j->launches.size();
  for (int i = 0; i < 4; ++i)
    REQUIRE(call(*device, entry, x) == ramp(kN, 1, 5));
  j->refuseCapture = false;
  REQUIRE(j->graphCaptures == captures);
  REQUIRE(j->launches.size() == launches + 4);
  REQUIRE(hasFallback(device->counters(),
                      "the driver could not capture its work"));
}

TEMPLATE_TEST_CASE("stream devices: ADJOINT_GPU_GRAPHS=0 and profiling run "
                   "every call plainly",
                   "[gpu][stream-device][graphs]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  gScale = ownScale<TestType>();
  PackedEntry entry = [](void **args) { copyScaleEntry(args); };
  Tensor x = input(*device, 7);
  int graphLaunches = j->graphLaunches;
  setenv("ADJOINT_GPU_GRAPHS", "0", 1);
  for (int i = 0; i < 4; ++i)
    REQUIRE(call(*device, entry, x) == ramp(kN, 1, 7));
  unsetenv("ADJOINT_GPU_GRAPHS");
  REQUIRE(j->graphLaunches == graphLaunches);

  // Profiling times each launch on the device's events.
  j->launchMs = 0.25;
  device->setProfiling(true);
  uint64_t kernels = device->counters().kernels;
  for (int i = 0; i < 3; ++i)
    REQUIRE(call(*device, entry, x) == ramp(kN, 1, 7));
  device->setProfiling(false);
  j->launchMs = 0;
  REQUIRE(j->graphLaunches == graphLaunches);
  REQUIRE(device->counters().kernels == kernels + 3);
  std::vector<KernelTime> times = device->kernelTimes();
  REQUIRE(times.size() == 1);
  REQUIRE(times[0].name == "scale");
  REQUIRE(times[0].calls == 3);
  REQUIRE(times[0].milliseconds == Approx(0.75));
  // Graphs again once profiling is off.
  REQUIRE(call(*device, entry, x) == ramp(kN, 1, 7));
  REQUIRE(j->graphLaunches == graphLaunches + 1);
}

TEMPLATE_TEST_CASE("stream devices: recorded uploads, nested calls and "
                   "failed calls",
                   "[gpu][stream-device][graphs]", STREAM_VENDORS) {
  FAKE_DEVICE_OR_RETURN(device, j);
  gScale = ownScale<TestType>();
  unsetenv("ADJOINT_GPU_GRAPHS");
  Tensor x = input(*device, 11);

  SECTION("each call's upload lands, graph or not") {
    PackedEntry entry = [](void **args) { uploadEntry(args); };
    uint64_t graphCalls = device->counters().graphCalls;
    for (int i = 0; i < 6; ++i) {
      for (int e = 0; e < kN; ++e)
        gUpload[e] = float(e * (i + 1));
      std::vector<double> expected(gUpload.begin(), gUpload.end());
      REQUIRE(call(*device, entry, x) == expected);
    }
    REQUIRE(device->counters().graphCalls == graphCalls + 4);
  }
  SECTION("a call inside a recording call runs both plainly") {
    PackedEntry entry = [](void **args) { nestingEntry(args); };
    gNestedInput = x;
    gNestedDevice = device;
    DeviceCounters before = device->counters();
    for (int i = 0; i < 4; ++i)
      REQUIRE(call(*device, entry, x) == ramp(kN, 1, 11));
    DeviceCounters after = device->counters();
    // The outer calls from the third on began recording and were
    // interrupted by the inner call.
    REQUIRE(after.graphInterrupts == before.graphInterrupts + 2);
    REQUIRE(after.kernels == before.kernels + 8);
    gNestedInput = Tensor();
  }
  SECTION("a failed call's recorded work is dropped") {
    PackedEntry entry = [](void **args) { failingEntry(args); };
    for (int i = 0; i < 4; ++i) {
      size_t from = j->stream.size();
      std::vector<Tensor> outputs;
      Status status =
          invoke(entry, oneVector(), {x}, outputs, nullptr, device);
      REQUIRE(status.code() == StatusCode::InvalidArgument);
      // The plain calls queued their copy and launch before failing; the
      // recorded ones never queue theirs.
      REQUIRE(since(*j, from).size() == (i < 2 ? 2u : 0u));
    }
    REQUIRE(call(*device, copyScaleEntry, x) == ramp(kN, 1, 11));
  }
}
