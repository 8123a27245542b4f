//===- FakeLevelZero.h - What the fake Level Zero loader records -*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKELEVELZERO_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKELEVELZERO_H

#include <cstdint>
#include <string>
#include <vector>

/// One launch as zeCommandListAppendLaunchKernel saw it.
struct FakeZeLaunch {
  std::string kernel;
  uint32_t groups[3];
  uint32_t group[3];
  /// The bytes of each argument value.
  std::vector<std::string> args;
};

/// The fake loader exports `void *fakeZeLaunches()`, the address of its
/// std::vector<FakeZeLaunch> (a C symbol, for dlsym).
using FakeZeLaunchesFn = void *(*)();

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKELEVELZERO_H
