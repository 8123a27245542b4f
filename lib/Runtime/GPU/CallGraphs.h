//===- CallGraphs.h - Compiled calls on a device and their graphs -*- C++ -*-===//
//
// The state GpuDeviceSteps.cpp keeps per device: each compiled function's
// calls so far, the executable graphs of its recorded work (a few, for the
// address patterns a training loop alternates between) or why its calls
// are not recorded, and the one call recording now.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_CALLGRAPHS_H
#define ADJOINT_LIB_RUNTIME_GPU_CALLGRAPHS_H

#include "GPU/GpuDevice.h"
#include "GPU/StepLog.h"

#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace adjoint::rt::gpu {

class CallGraphs {
public:
  /// Calls of a function that run plainly before its calls are recorded:
  /// they load its code and measure its GEMMs' routes (GemmRouter.h), which
  /// waits for the device.
  static constexpr uint64_t kPlainCalls = 2;
  /// Executable graphs kept per function, the least recently used updated
  /// or replaced past this.
  static constexpr size_t kGraphsPerFunction = 4;

  /// An executable graph of a function's work.
  struct Graph {
    /// The StepLog signature of the work it runs.
    std::string signature;
    void *exec = nullptr;
    /// What one launch of it runs.
    WorkCounts counts;
    uint64_t lastUse = 0;
  };
  struct Function {
    uint64_t calls = 0;
    /// Why its calls are no longer recorded (empty while they are).
    std::string fallback;
    std::vector<Graph> graphs;
  };
  /// The call recording its work: its thread and function, what it queued
  /// so far; once stopped, the rest of the call runs plainly and `error`
  /// is the failure of queuing what it had recorded.
  struct Recording {
    std::thread::id thread;
    const void *function = nullptr;
    StepLog log;
    bool stopped = false;
    Status error;
  };

  std::unordered_map<const void *, Function> functions;
  std::unique_ptr<Recording> recording;
  /// Calls begun, calls whose work ran as a graph, graphs captured and, of
  /// those, graphs updated in place, and recording calls interrupted.
  uint64_t calls = 0;
  uint64_t graphCalls = 0;
  uint64_t captures = 0;
  uint64_t updates = 0;
  uint64_t interrupts = 0;
  /// Ticks at each graph launch (Graph::lastUse).
  uint64_t clock = 0;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_CALLGRAPHS_H
