//===- FakeStreamDriver.h - A stream driver on host memory ------*- C++ -*-===//
//
// What the fake CUDA driver (FakeCuda.cpp) and the fake HIP runtime
// (FakeHip.cpp) share: one device whose memory is host memory, pinned host
// blocks, one stream on which copies and fills are done at once and
// launches recorded instead of run, events on a clock the tests set, and
// the journal (FakeStreamJournal.h). Each fake adapts these to its vendor's
// entry points and adds what differs: module formats, the current context
// or device, properties and error names.
//
// Linked into each fake library with hidden visibility: the two fakes keep
// separate state even when one process loads both.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESTREAMDRIVER_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESTREAMDRIVER_H

#include "FakeStreamJournal.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fake {

/// Result codes: the values CUDA's and HIP's share.
enum Result : int {
  Success = 0,
  InvalidValue = 1,
  OutOfMemory = 2,
  NoDevice = 100,
  InvalidDevice = 101,
  InvalidImage = 200,
  InvalidContext = 201,
  InvalidHandle = 400,
  NotFound = 500,
  StreamCaptureUnsupported = 900,
  StreamCaptureInvalidated = 901,
  GraphExecUpdateFailure = 910,
};

/// A kernel: its parameters' sizes as its image declares them, and the
/// dynamic shared memory a launch may use.
struct Function {
  std::string name;
  std::vector<uint32_t> params;
  uint32_t sharedLimit = 0;
};
struct Module {
  std::map<std::string, Function> functions;
};

FakeStreamJournal &journal();
/// The device's one stream; work on any other handle is refused.
void *stream();

Result allocateDevice(size_t bytes, void **ptr);
Result freeDevice(void *ptr);
Result allocatePinned(size_t bytes, void **ptr);
Result freePinned(void *ptr);
bool isPinned(const void *host);

enum class Copy { HtoD, DtoH, DtoD };
Result copy(Copy kind, void *dst, const void *src, size_t bytes,
            const void *stream);
Result fill(void *dst, unsigned char value, size_t bytes, const void *stream);
Result synchronize(const void *stream);
/// Records the launch, copying as many argument bytes as `function`
/// declares.
Result launch(const Function &function, const unsigned grid[3],
              const unsigned block[3], unsigned sharedBytes,
              const void *stream, void **params, void **extra);

// Graphs. While the stream captures, copies, fills and launches become
// nodes of the graph being captured (their arguments read then, host
// sources read when the graph runs) instead of running; a synchronize or
// an event recorded meanwhile invalidates the capture. A launched graph
// runs its nodes in order, as the plain calls would.
Result beginCapture(const void *stream, int mode);
Result endCapture(const void *stream, void **graph);
Result instantiate(void **exec, void *graph);
/// Gives `exec` the nodes of `graph` when both have nodes of the same kinds
/// and sizes (kernels: the same function) in the same order; otherwise
/// GraphExecUpdateFailure and `exec` unchanged.
Result update(void *exec, void *graph);
Result launchGraph(void *exec, const void *stream);
Result destroyGraph(void *graph);
Result destroyExec(void *exec);

/// Queues `fn(data)` on the stream (cuLaunchHostFunc, hipLaunchHostFunc):
/// the fake libraries' work, run at once or as a node of a captured graph.
Result hostWork(const void *stream, void (*fn)(void *), void *data);

Result createEvent(void **event);
Result recordEvent(void *event, const void *stream);
Result elapsed(float *milliseconds, void *start, void *end);
void destroyEvent(void *event);

} // namespace fake

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESTREAMDRIVER_H
