//===- StreamGraphs.cpp - CUDA and HIP graphs of the stream's work --------===//

#include "GPU/StreamDevice.h"

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {
/// cudaStreamCaptureModeRelaxed, hipStreamCaptureModeRelaxed: the pool
/// may allocate (cuMemAlloc) while the stream captures.
constexpr int kRelaxedCapture = 2;
} // namespace

GraphDriver *StreamDevice::graphDriver() {
  const StreamEntryPoints &e = entries_;
  bool complete = e.streamBeginCapture.fn && e.streamEndCapture.fn &&
                  e.graphInstantiate.fn && e.graphLaunch.fn &&
                  e.graphDestroy.fn && e.graphExecDestroy.fn;
  return complete ? &graphs_ : nullptr;
}

Status StreamDevice::Graphs::beginCapture() {
  StreamDevice &d = device_;
  Current current(d);
  if (!current.status().ok())
    return current.status();
  return d.call(d.entries_.streamBeginCapture, " on " + d.id(), d.stream_,
                kRelaxedCapture);
}

Status StreamDevice::Graphs::endCapture(void **graph) {
  StreamDevice &d = device_;
  Current current(d);
  if (!current.status().ok())
    return current.status();
  Graph captured = nullptr;
  Status status = d.call(d.entries_.streamEndCapture, " on " + d.id(),
                         d.stream_, &captured);
  *graph = captured;
  return status;
}

Status StreamDevice::Graphs::instantiate(void *graph, void **exec) {
  StreamDevice &d = device_;
  Current current(d);
  if (!current.status().ok())
    return current.status();
  GraphExec made = nullptr;
  Status status = d.call(d.entries_.graphInstantiate, " on " + d.id(), &made,
                         static_cast<Graph>(graph), 0ull);
  *exec = made;
  return status;
}

Status StreamDevice::Graphs::update(void *exec, void *graph, bool *updated) {
  StreamDevice &d = device_;
  Current current(d);
  if (!current.status().ok())
    return current.status();
  return d.updateGraph(static_cast<GraphExec>(exec), static_cast<Graph>(graph),
                       updated);
}

Status StreamDevice::Graphs::launch(void *exec) {
  StreamDevice &d = device_;
  Current current(d);
  if (!current.status().ok())
    return current.status();
  return d.call(d.entries_.graphLaunch, " on " + d.id(),
                static_cast<GraphExec>(exec), d.stream_);
}

void StreamDevice::Graphs::destroyGraph(void *graph) {
  StreamDevice &d = device_;
  Current current(d);
  if (!current.status().ok())
    return;
  (void)d.entries_.graphDestroy.fn(static_cast<Graph>(graph));
}

void StreamDevice::Graphs::destroyExec(void *exec) {
  StreamDevice &d = device_;
  Current current(d);
  if (!current.status().ok())
    return;
  (void)d.entries_.graphExecDestroy.fn(static_cast<GraphExec>(exec));
}
