//===- FakeCublasLt.h - What the fake cuBLASLt records ----------*- C++ -*-===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKECUBLASLT_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKECUBLASLT_H

#include <cstddef>
#include <cstdint>
#include <vector>

/// One cublasLtMatmul as the fake saw it: the column-major problem
/// (op(A) m x k, op(B) k x n), its batch, compute type and operations.
struct FakeLtMatmul {
  int32_t compute, scale;
  int32_t transa, transb;
  uint64_t m, n, k;
  int32_t batch;
  const void *a, *b;
  void *d;
  size_t workspaceBytes;
  const void *stream;
  /// The address alignment the algorithm was chosen for.
  uint32_t alignment;
  /// C's elements before the call, in column-major order of the problem
  /// (batch entry, column, row): compiled code's C comes from a zero fill
  /// that the fake CUDA driver does not run, so a test checks D - C.
  std::vector<double> cBefore;
};

/// The fake library's C symbols (for dlsym): `fakeCublasLtCalls`, the
/// address of its std::vector<FakeLtMatmul>; `fakeCublasLtSetAlgorithms`,
/// how many algorithms its heuristic offers from now on (1 by default; 0:
/// "no algorithm for this problem"); `fakeCublasLtSetMatmulMs`, how far
/// each matmul advances the fake CUDA driver's clock (0 by default).
using FakeLtCallsFn = void *(*)();
using FakeLtSetAlgorithmsFn = void (*)(int);
using FakeLtSetMatmulMsFn = void (*)(double);

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKECUBLASLT_H
