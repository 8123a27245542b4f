//===- FakeSolver.h - What the fake vendor solvers record -------*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESOLVER_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESOLVER_H

#include <dlfcn.h>
#include <string>
#include <vector>

/// What a fake solver library (FakeCusolver.cpp, FakeRocsolver.cpp) saw:
/// each routine it computed as "<routine> <s|d> <sizes...>", in order, and
/// the stream its handles were bound to.
struct FakeSolverJournal {
  std::vector<std::string> calls;
  const void *stream = nullptr;
  int handles = 0;
};

/// Each fake exports `void *fakeSolverJournal()` (a C symbol, for dlsym).
using FakeSolverJournalFn = void *(*)();

/// The journal of the fake library `soname` if this process loaded it.
inline FakeSolverJournal *findFakeSolverJournal(const char *soname) {
  void *library = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
  if (!library)
    return nullptr;
  auto journal = reinterpret_cast<FakeSolverJournalFn>(
      dlsym(library, "fakeSolverJournal"));
  return journal ? static_cast<FakeSolverJournal *>(journal()) : nullptr;
}

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKESOLVER_H
