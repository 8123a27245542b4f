//===- Gemm.h - GEMM descriptors of compiled code ---------------*- C++ -*-===//
//
// What every device does with an adj_rt_gpu_gemm_desc before computing it:
// the checks that turn a malformed descriptor into a Status, and the
// problem key under which a device caches its choice of route and its
// library plans (descriptors of different programs may describe the same
// problem).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_GEMM_H
#define ADJOINT_LIB_RUNTIME_GPU_GEMM_H

#include "adjoint/Runtime/GpuABI.h"
#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>

namespace adjoint::rt::gpu {

/// InvalidArgument naming the first problem of `gemm` (an unknown element
/// type or order, a leading dimension smaller than the matrix, no fallback
/// kernel), or success.
Status checkGemm(const adj_rt_gpu_gemm_desc &gemm);

/// Whether the product is empty (no element of C changes).
inline bool isEmptyGemm(const adj_rt_gpu_gemm_desc &gemm) {
  return gemm.batch == 0 || gemm.m == 0 || gemm.n == 0 || gemm.k == 0;
}

/// Bytes of one element of `gemm`.
size_t gemmElementBytes(const adj_rt_gpu_gemm_desc &gemm);

/// Elements from a matrix's first element to one past its last, over all
/// `batch` entries: the extent a scratch copy of it needs.
uint64_t matrixExtent(const adj_rt_gpu_matrix &matrix, uint64_t rows,
                      uint64_t cols, uint64_t batch);

/// The problem a descriptor describes, without its fallback kernel, and
/// the alignment of its addresses where a library's choice depends on it:
/// the key of per-problem caches.
struct GemmKey {
  uint32_t dtype, flags;
  uint64_t batch, m, n, k;
  uint64_t layout[3][3]; // order, ld, batchStride of A, B, C
  uint32_t alignment;

  explicit GemmKey(const adj_rt_gpu_gemm_desc &gemm, uint32_t alignment = 0);
  bool operator==(const GemmKey &other) const;
};

struct GemmKeyHash {
  size_t operator()(const GemmKey &key) const;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_GEMM_H
