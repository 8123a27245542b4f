//===- FakeRocblas.h - What the fake rocBLAS records ------------*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEROCBLAS_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEROCBLAS_H

#include <dlfcn.h>
#include <string>
#include <vector>

/// Every GEMM the fake computed, as "<N|T> <N|T> m n k lda ldb ldc
/// strideA strideB strideC batch <f32|f64>", and the stream of the handle.
struct FakeRocblasJournal {
  std::vector<std::string> gemms;
  /// Every scal, as "<s|d> n".
  std::vector<std::string> scals;
  void *stream = nullptr;
  int handles = 0;
  /// The workspace rocblas_set_workspace gave the last handle.
  void *workspace = nullptr;
  size_t workspaceBytes = 0;
  /// How far each GEMM advances the fake HIP runtime's clock.
  double gemmMs = 0;
};

/// The fake exports `void *fakeRocblasJournal()` (a C symbol, for dlsym).
using FakeRocblasJournalFn = void *(*)();

/// The journal of the librocblas this process loaded, or null.
inline FakeRocblasJournal *findFakeRocblasJournal() {
  void *library = dlopen("librocblas.so.4", RTLD_NOW | RTLD_NOLOAD);
  if (!library)
    return nullptr;
  auto journal = reinterpret_cast<FakeRocblasJournalFn>(
      dlsym(library, "fakeRocblasJournal"));
  return journal ? static_cast<FakeRocblasJournal *>(journal()) : nullptr;
}

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEROCBLAS_H
