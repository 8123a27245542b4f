//===- FakeHip.h - What the fake HIP runtime records ------------*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEHIP_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEHIP_H

#include <cstddef>
#include <cstdint>
#include <dlfcn.h>
#include <string>
#include <vector>

/// One launch as hipModuleLaunchKernel saw it.
struct FakeHipLaunch {
  std::string function;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t sharedBytes;
  /// The bytes of each explicit argument, as many and as large as the
  /// kernel's arguments in the code object's metadata.
  std::vector<std::string> args;
};

/// Everything the fake runtime saw, in order. `stream` lists the work on
/// the device's stream: "HtoD <bytes> pinned|pageable", "DtoH <bytes>
/// pinned|pageable", "DtoD <bytes>", "memset <bytes> <value>", "launch
/// <function>", "event <milliseconds>".
struct FakeHipJournal {
  std::vector<FakeHipLaunch> launches;
  std::vector<std::string> stream;
  int moduleLoads = 0;
  int moduleUnloads = 0;
  /// hipSetDevice calls, and those that restored another device.
  int setDevices = 0;
  int streamSyncs = 0;
  int deviceAllocations = 0;
  int deviceFrees = 0;
  int pinnedAllocations = 0;
  int pinnedFrees = 0;
  /// Makes module loads fail with hipErrorNoBinaryForGpu (a code object
  /// for another chip).
  bool refuseModuleLoads = false;
  /// Device memory the fake hands out before hipErrorOutOfMemory.
  size_t memoryLimit = size_t(1) << 30;
  size_t liveDeviceBytes = 0;
  /// The clock events read (fakeHipSetClock), and how far each launch
  /// advances it.
  double clockMs = 0;
  double launchMs = 0;
};

/// The fake exports `void *fakeHipJournal()`, the address of its
/// FakeHipJournal (a C symbol, for dlsym).
using FakeHipJournalFn = void *(*)();

/// The journal of the libamdhip64 this process loaded, or null when it is
/// not loaded or is a real runtime.
inline FakeHipJournal *findFakeHipJournal() {
  void *runtime = dlopen("libamdhip64.so.6", RTLD_NOW | RTLD_NOLOAD);
  if (!runtime)
    return nullptr;
  auto journal =
      reinterpret_cast<FakeHipJournalFn>(dlsym(runtime, "fakeHipJournal"));
  return journal ? static_cast<FakeHipJournal *>(journal()) : nullptr;
}

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEHIP_H
