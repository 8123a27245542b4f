//===- FakeCuda.h - What the fake CUDA driver records -----------*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKECUDA_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKECUDA_H

#include <cstddef>
#include <cstdint>
#include <dlfcn.h>
#include <string>
#include <vector>

/// One launch as cuLaunchKernel saw it.
struct FakeCuLaunch {
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
/// <function>", "event <milliseconds>".
struct FakeCuJournal {
  std::vector<FakeCuLaunch> launches;
  std::vector<std::string> stream;
  int moduleLoads = 0;
  int moduleUnloads = 0;
  int pushes = 0;
  int pops = 0;
  int streamSyncs = 0;
  int deviceAllocations = 0;
  int deviceFrees = 0;
  int pinnedAllocations = 0;
  int pinnedFrees = 0;
  /// cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) values, in order.
  std::vector<int> sharedOptIns;
  /// Device memory the fake hands out before CUDA_ERROR_OUT_OF_MEMORY.
  size_t memoryLimit = size_t(1) << 30;
  size_t liveDeviceBytes = 0;
  /// The clock events read (fakeCudaSetClock), and how far each launch
  /// advances it.
  double clockMs = 0;
  double launchMs = 0;
};

/// The fake exports `void *fakeCudaJournal()`, the address of its
/// FakeCuJournal, and `void fakeCudaSetClock(double milliseconds)` (C
/// symbols, for dlsym).
using FakeCudaJournalFn = void *(*)();
using FakeCudaSetClockFn = void (*)(double);

/// The journal of the libcuda.so.1 this process loaded, or null when it is
/// not loaded or is a real driver.
inline FakeCuJournal *findFakeCudaJournal() {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!driver)
    return nullptr;
  auto journal =
      reinterpret_cast<FakeCudaJournalFn>(dlsym(driver, "fakeCudaJournal"));
  return journal ? static_cast<FakeCuJournal *>(journal()) : nullptr;
}

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKECUDA_H
