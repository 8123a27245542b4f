//===- GraphDriver.h - A driver's graphs of queued work ---------*- C++ -*-===//
//
// CUDA and HIP record the work queued on a stream into a graph (stream
// capture), instantiate it as an executable graph, update an instantiated
// one in place to a new graph of the same shape (new arguments, addresses)
// and launch it with one call. A GPU device whose driver has graphs gives
// them to the shared part (GpuDevice::graphDriver()), which replays
// compiled calls through them (GpuDeviceSteps.cpp). Every hook is called
// with the device's lock held.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_GRAPHDRIVER_H
#define ADJOINT_LIB_RUNTIME_GPU_GRAPHDRIVER_H

#include "adjoint/Runtime/Status.h"

namespace adjoint::rt::gpu {

class GraphDriver {
public:
  virtual ~GraphDriver();
  /// From here on the queue's work is recorded into a graph, not run.
  virtual Status beginCapture() = 0;
  /// Ends the capture begun last (also after a failure inside it) and
  /// gives the graph of the work queued since.
  virtual Status endCapture(void **graph) = 0;
  virtual Status instantiate(void *graph, void **exec) = 0;
  /// Gives `exec` the parameters of `graph`; `*updated` is false, and the
  /// status ok, where the driver cannot (the graphs differ in shape).
  virtual Status update(void *exec, void *graph, bool *updated) = 0;
  /// Queues `exec` as one piece of work.
  virtual Status launch(void *exec) = 0;
  virtual void destroyGraph(void *graph) = 0;
  /// No queued launch uses `exec` any more.
  virtual void destroyExec(void *exec) = 0;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_GRAPHDRIVER_H
