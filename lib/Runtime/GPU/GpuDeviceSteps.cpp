//===- GpuDeviceSteps.cpp - Compiled calls as graph launches --------------===//
//
// A compiled training step queues hundreds of launches, GEMMs, copies and
// fills, each a driver call of several microseconds of host time. Where the
// driver has graphs (CUDA, HIP), a function's calls from the third on
// (CallGraphs::kPlainCalls) record their work in a StepLog instead of
// queuing it, and at the call's end replay it:
//
//   - as one launch of an executable graph of the same function whose
//     recorded work had the same signature: the same kernels, shapes,
//     argument values and addresses;
//   - otherwise captured from the queue into a new graph, which updates
//     the function's least recently used executable graph in place where
//     the driver can (only arguments changed) or is instantiated, and is
//     then launched.
//
// Why equal signatures make a graph safe to launch again: every address the
// recorded work uses was handed to this call (its inputs, the outputs and
// temporaries it allocated from the pool, staging it filled), belongs to
// the loaded code (constants), or is the device's library workspace (one
// block kept for the device's life: GemmRouter.h). A block freed and
// handed to someone else changes the next call's addresses, hence its
// signature.
//
// A call that needs the device before its end (a read of device memory for
// host control flow, a vendor decomposition) queues what it recorded so far
// and runs on plainly, and its function is not recorded again: the reason
// is listed in DeviceCounters::graphFallbacks. So does a call while another
// thread queues work on the device, once. ADJOINT_GPU_GRAPHS=0 turns
// recording off, and so does profiling (which times each kernel).
//
//===----------------------------------------------------------------------===//

#include "GPU/CallGraphs.h"
#include "GPU/GpuDevice.h"
#include "GPU/GraphDriver.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

GraphDriver::~GraphDriver() = default;

namespace {
/// Kernels this thread queued: tells a library GEMM from its fallback.
thread_local uint64_t tKernelsIssued = 0;

bool graphsEnabled() {
  const char *value = std::getenv("ADJOINT_GPU_GRAPHS");
  return !value || std::strcmp(value, "0") != 0;
}
} // namespace

//===----------------------------------------------------------------------===//
// Queuing one operation
//===----------------------------------------------------------------------===//

Status GpuDevice::issueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                              const uint64_t grid[3], const uint64_t block[3],
                              uint32_t sharedBytes, void **args) {
  ++sink_->kernels;
  ++tKernelsIssued;
  auto enqueue = [&] {
    return enqueueLaunch(handle, kernel, grid, block, sharedBytes, args);
  };
  if (!profiling_)
    return enqueue();
  double milliseconds = -1;
  Status status = timeQueued(enqueue, &milliseconds);
  if (status.ok())
    addKernelTime(kernel.name, milliseconds);
  return status;
}

Status GpuDevice::issueGemm(const adj_rt_gpu_gemm_desc &gemm, void *a,
                            void *b, void *c, void **fallbackArgs) {
  uint64_t kernelsBefore = tKernelsIssued;
  double milliseconds = -1;
  auto enqueue = [&] { return enqueueGemm(gemm, a, b, c, fallbackArgs); };
  Status status = profiling_ ? timeQueued(enqueue, &milliseconds) : enqueue();
  // The fallback kernel counts (and is timed) as a launch.
  if (!status.ok() || tKernelsIssued != kernelsBefore)
    return status;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ++sink_->libraryCalls;
  if (profiling_)
    addKernelTime("library GEMM " + std::to_string(gemm.batch) + "x" +
                      std::to_string(gemm.m) + "x" + std::to_string(gemm.n) +
                      "x" + std::to_string(gemm.k),
                  milliseconds);
  return status;
}

void GpuDevice::addKernelTime(const std::string &name, double milliseconds) {
  KernelTime &time = kernelTimes_[name];
  time.name = name;
  ++time.calls;
  time.milliseconds += milliseconds;
}

Status GpuDevice::issueCopy(void *dst, const void *src, size_t bytes,
                            CopyKind kind) {
  ++sink_->copies;
  return enqueueCopy(dst, src, bytes, kind, /*blocking=*/false);
}

Status GpuDevice::issueFill(void *dst, uint8_t value, size_t bytes) {
  ++sink_->fills;
  return enqueueFill(dst, value, bytes);
}

void GpuDevice::adoptStaging(const StepLog &log) {
  for (const StepLog::Op &op : log.ops())
    if (op.staged)
      staging_.push_back(const_cast<void *>(op.src));
}

Status GpuDevice::issueAll(const StepLog &log) {
  for (const StepLog::Op &op : log.ops()) {
    std::vector<void *> args = log.args(op);
    Status status;
    switch (op.kind) {
    case StepLog::Kind::Launch:
      status = issueLaunch(op.handle, *op.kernel, op.grid, op.block,
                           op.sharedBytes, args.data());
      break;
    case StepLog::Kind::Gemm:
      status = issueGemm(*op.gemm, op.operands[0], op.operands[1],
                         op.operands[2], args.data());
      break;
    case StepLog::Kind::Copy:
      status = issueCopy(op.dst, op.src, op.bytes, op.copyKind);
      break;
    case StepLog::Kind::Fill:
      status = issueFill(op.dst, op.value, op.bytes);
      break;
    }
    if (!status.ok())
      return status;
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Recording a call
//===----------------------------------------------------------------------===//

bool GpuDevice::beginCall(const void *function) {
  GraphDriver *driver = graphDriver();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  ++calls_->calls;
  if (calls_->recording) {
    // One call records at a time; a call inside it (a callback) or beside
    // it (another thread) runs plainly, after what it recorded so far.
    settleRecording("calls another compiled function inside it", false);
    return false;
  }
  if (!driver)
    return false;
  // Plain calls count too: they loaded the code and measured the GEMMs.
  CallGraphs::Function &f = calls_->functions[function];
  if (++f.calls <= CallGraphs::kPlainCalls || !f.fallback.empty() ||
      profiling_ || !graphsEnabled())
    return false;
  calls_->recording = std::make_unique<CallGraphs::Recording>();
  calls_->recording->thread = std::this_thread::get_id();
  calls_->recording->function = function;
  return true;
}

Status GpuDevice::endCall(bool recorded, bool completed) {
  if (!recorded)
    return Status::success();
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::unique_ptr<CallGraphs::Recording> recording =
      std::move(calls_->recording);
  if (!recording || recording->stopped)
    return recording ? recording->error : Status::success();
  // A failed call's results are discarded: its work need not run.
  if (!completed) {
    for (const StepLog::Op &op : recording->log.ops())
      if (op.staged)
        releaseStaging(const_cast<void *>(op.src));
    return Status::success();
  }
  if (recording->log.empty())
    return Status::success();
  return launchAsGraph(recording->function, recording->log);
}

StepLog *GpuDevice::recordingHere() {
  CallGraphs::Recording *recording = calls_->recording.get();
  return recording && !recording->stopped &&
                 recording->thread == std::this_thread::get_id()
             ? &recording->log
             : nullptr;
}

Status GpuDevice::settleRecording(const char *why, bool always) {
  CallGraphs::Recording *recording = calls_->recording.get();
  if (!recording || recording->stopped)
    return Status::success();
  if (recording->thread == std::this_thread::get_id())
    return why ? interruptRecording(why, always) : Status::success();
  // The recording call learns of a failure at its end (endCall).
  (void)interruptRecording("another thread used the device during a call",
                           false);
  return Status::success();
}

Status GpuDevice::interruptRecording(const char *why, bool always) {
  CallGraphs::Recording &recording = *calls_->recording;
  ++calls_->interrupts;
  recording.stopped = true;
  StepLog log = std::move(recording.log);
  recording.log = StepLog();
  Status status = issueAll(log);
  adoptStaging(log);
  if (status.ok() && always)
    calls_->functions[recording.function].fallback = why;
  if (!status.ok() && recording.error.ok())
    recording.error = status;
  return status;
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

Status GpuDevice::launchAsGraph(const void *function, StepLog &log) {
  GraphDriver &driver = *graphDriver();
  CallGraphs::Function &f = calls_->functions[function];
  uint64_t now = ++calls_->clock;
  // Queued one way or another: the device holds the staging from here on.
  struct Adopt {
    GpuDevice &device;
    const StepLog &log;
    ~Adopt() { device.adoptStaging(log); }
  } adopt{*this, log};
  for (CallGraphs::Graph &graph : f.graphs)
    if (graph.signature == log.signature()) {
      Status status = driver.launch(graph.exec);
      if (status.ok()) {
        counts_.add(graph.counts);
        ++calls_->graphCalls;
        graph.lastUse = now;
      }
      return status;
    }

  // Capture the work, counted on the graph's account.
  WorkCounts counts;
  sink_ = &counts;
  Status status = driver.beginCapture();
  Status issued = status.ok() ? issueAll(log) : status;
  void *captured = nullptr;
  if (status.ok())
    status = driver.endCapture(&captured);
  if (status.ok())
    status = issued;
  sink_ = &counts_;
  // Nothing captured ran: the work is queued plainly. A failure then is
  // the call's own; otherwise the function is not recorded again.
  auto fallBack = [&](const std::string &why) {
    if (captured)
      driver.destroyGraph(captured);
    Status plain = issueAll(log);
    if (plain.ok())
      f.fallback = why;
    return plain;
  };
  if (!status.ok())
    return fallBack("the driver could not capture its work: " +
                    status.message());

  // A free slot, or the least recently used graph, updated in place where
  // the driver can.
  CallGraphs::Graph *slot = nullptr;
  bool updated = false;
  if (f.graphs.size() >= CallGraphs::kGraphsPerFunction) {
    slot = &*std::min_element(
        f.graphs.begin(), f.graphs.end(),
        [](const auto &x, const auto &y) { return x.lastUse < y.lastUse; });
    if (!driver.update(slot->exec, captured, &updated).ok())
      updated = false;
  }
  void *exec = slot && updated ? slot->exec : nullptr;
  if (!exec)
    if (Status made = driver.instantiate(captured, &exec); !made.ok())
      return fallBack("the driver could not instantiate its graph: " +
                      made.message());
  driver.destroyGraph(captured);
  if (!slot)
    slot = &f.graphs.emplace_back();
  else if (!updated)
    // Launches of the old graph queued before still run (the driver
    // frees it after them).
    driver.destroyExec(slot->exec);
  slot->signature = log.signature();
  slot->exec = exec;
  slot->counts = counts;
  slot->lastUse = now;
  ++calls_->captures;
  calls_->updates += updated;
  status = driver.launch(exec);
  if (status.ok()) {
    counts_.add(counts);
    ++calls_->graphCalls;
  }
  return status;
}

void GpuDevice::dropGraphs() {
  // The functions' calls and reasons stay: code loaded later at the same
  // entry may be counted as warm or be left unrecorded, never replayed.
  GraphDriver *driver = graphDriver();
  for (auto &[function, f] : calls_->functions) {
    for (CallGraphs::Graph &graph : f.graphs)
      driver->destroyExec(graph.exec);
    f.graphs.clear();
  }
}

//===----------------------------------------------------------------------===//
// Counters and profiling
//===----------------------------------------------------------------------===//

DeviceCounters GpuDevice::counters() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  DeviceCounters c;
  c.kernels = counts_.kernels;
  c.libraryCalls = counts_.libraryCalls;
  c.copies = counts_.copies;
  c.fills = counts_.fills;
  c.calls = calls_->calls;
  c.graphCalls = calls_->graphCalls;
  c.graphCaptures = calls_->captures;
  c.graphUpdates = calls_->updates;
  c.graphInterrupts = calls_->interrupts;
  for (const auto &[function, f] : calls_->functions)
    if (!f.fallback.empty())
      c.graphFallbacks.push_back(f.fallback);
  std::sort(c.graphFallbacks.begin(), c.graphFallbacks.end());
  return c;
}

void GpuDevice::setProfiling(bool on) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (on && !profiling_)
    kernelTimes_.clear();
  profiling_ = on;
}

std::vector<KernelTime> GpuDevice::kernelTimes() const {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<KernelTime> times;
  for (const auto &[name, time] : kernelTimes_)
    times.push_back(time);
  std::stable_sort(times.begin(), times.end(),
                   [](const KernelTime &x, const KernelTime &y) {
                     return x.milliseconds > y.milliseconds;
                   });
  return times;
}
