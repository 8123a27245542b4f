//===- FakeStreamJournal.h - What the fake CUDA and HIP drivers record -*- C++ -*-===//
//
// The fake libcuda.so.1 (FakeCuda.cpp) and libamdhip64.so.6 (FakeHip.cpp)
// are one fake stream driver (FakeStreamDriver.h) under each vendor's
// names; each keeps this journal of what the runtime asked of it.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESTREAMJOURNAL_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESTREAMJOURNAL_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <dlfcn.h>
#include <functional>
#include <string>
#include <vector>

/// One launch as the driver saw it.
struct FakeLaunch {
  std::string function;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t sharedBytes;
  /// The bytes of each argument, as many and as large as the kernel's
  /// parameters in its image.
  std::vector<std::string> args;
};

/// Everything the fake driver saw, in order. `stream` lists the work on the
/// device's stream: "HtoD <bytes> pinned|pageable", "DtoH <bytes>
/// pinned|pageable", "DtoD <bytes>", "memset <bytes> <value>", "launch
/// <function>", "event <milliseconds>", and "graph <nodes>" before the
/// work of a launched graph.
struct FakeStreamJournal {
  std::vector<FakeLaunch> launches;
  std::vector<std::string> stream;
  int moduleLoads = 0;
  int moduleUnloads = 0;
  int streamSyncs = 0;
  int deviceAllocations = 0;
  int deviceFrees = 0;
  int pinnedAllocations = 0;
  int pinnedFrees = 0;
  /// Graphs captured, instantiated, updated in place and launched, and
  /// graphs and executable graphs not destroyed yet.
  int graphCaptures = 0;
  int graphInstantiations = 0;
  int graphUpdates = 0;
  int graphLaunches = 0;
  int liveGraphs = 0;
  int liveGraphExecs = 0;
  /// Makes the next captures fail (at their end), as for work a driver
  /// cannot capture.
  bool refuseCapture = false;
  /// Dynamic shared memory allowed per function past the default (CUDA's
  /// cuFuncSetAttribute), in order.
  std::vector<int> sharedOptIns;
  /// Makes module loads fail as for a code object of another chip.
  bool refuseModuleLoads = false;
  /// Device memory the fake hands out before running out.
  size_t memoryLimit = size_t(1) << 30;
  size_t liveDeviceBytes = 0;
  /// The clock events read, and how far each launch advances it.
  double clockMs = 0;
  double launchMs = 0;
};

/// Each fake exports (C symbols, for dlsym): `void *fakeStreamJournal()`,
/// the address of its journal; `void fakeSelectOther()`, which makes
/// another device (context) current on the calling thread, as another
/// library might; and `int fakeCurrent()`, what is current on it (0 the
/// fake's device, 1 the other, -1 nothing).
using FakeStreamJournalFn = void *(*)();
using FakeSelectOtherFn = void (*)();
using FakeCurrentFn = int (*)();

/// The journal of the fake `library` this process loaded, or null when it
/// is not loaded or is a real driver.
inline FakeStreamJournal *findFakeJournal(const char *library) {
  void *driver = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  if (!driver)
    return nullptr;
  auto journal = reinterpret_cast<FakeStreamJournalFn>(
      dlsym(driver, "fakeStreamJournal"));
  dlclose(driver);
  return journal ? static_cast<FakeStreamJournal *>(journal()) : nullptr;
}
inline FakeStreamJournal *findFakeCudaJournal() {
  return findFakeJournal("libcuda.so.1");
}
inline FakeStreamJournal *findFakeHipJournal() {
  return findFakeJournal("libamdhip64.so.6");
}

/// Runs a fake library's `work` on `stream` of the fake driver `library`
/// through its host-function entry point `hostFunction` (cuLaunchHostFunc,
/// hipLaunchHostFunc), as the real library queues kernels: at once, or
/// each time a graph that captured it runs. Runs it at once where that
/// driver is not loaded. The work is kept for the process (a graph may run
/// it again).
inline void runOnFakeStream(const char *library, const char *hostFunction,
                            void *stream, std::function<void()> work) {
  using HostFn = int (*)(void *, void (*)(void *), void *);
  static std::deque<std::function<void()>> kept;
  void *driver = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  auto queue =
      driver ? reinterpret_cast<HostFn>(dlsym(driver, hostFunction)) : nullptr;
  if (driver)
    dlclose(driver);
  if (!queue) {
    work();
    return;
  }
  kept.push_back(std::move(work));
  queue(stream, [](void *w) { (*static_cast<std::function<void()> *>(w))(); },
        &kept.back());
}

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESTREAMJOURNAL_H
