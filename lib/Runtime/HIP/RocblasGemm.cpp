//===- RocblasGemm.cpp - GEMMs through rocBLAS ----------------------------===//

#include "HIP/RocblasGemm.h"
#include "adjoint/Runtime/DType.h"

#include <climits>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
bool fitsInt32(uint64_t v) { return v <= uint64_t(INT32_MAX); }
} // namespace

RocblasGemm::~RocblasGemm() {
  if (handle_)
    (void)api_.rocblas_destroy_handle(handle_);
}

Status RocblasGemm::prepare(const adj_rt_gpu_gemm_desc &gemm,
                            const gpu::GemmKey &, bool *available) {
  *available = false;
  for (uint64_t v : {gemm.batch, gemm.m, gemm.n, gemm.k, gemm.a.ld, gemm.b.ld,
                     gemm.c.ld})
    if (!fitsInt32(v))
      return Status::success();
  if (!handle_) {
    if (Status s = checkRocblas(api_, api_.rocblas_create_handle(&handle_),
                                "rocblas_create_handle");
        !s.ok())
      return s;
    if (Status s = checkRocblas(api_, api_.rocblas_set_stream(handle_, stream_),
                                "rocblas_set_stream");
        !s.ok())
      return s;
    if (api_.rocblas_set_workspace) {
      void *block = nullptr;
      if (Status s = workspace_(&block); !s.ok())
        return s;
      if (Status s = checkRocblas(
              api_,
              api_.rocblas_set_workspace(handle_, block,
                                         gpu::kLibraryWorkspaceBytes),
              "rocblas_set_workspace");
          !s.ok())
        return s;
    }
    // The same product twice must give the same bits (rocBLAS 4.0's
    // default; older ones allow atomics).
    if (api_.rocblas_set_atomics_mode)
      if (Status s = checkRocblas(
              api_,
              api_.rocblas_set_atomics_mode(handle_,
                                            rocblas_atomics_not_allowed),
              "rocblas_set_atomics_mode");
          !s.ok())
        return s;
  }
  *available = true;
  return Status::success();
}

Status RocblasGemm::enqueue(const adj_rt_gpu_gemm_desc &gemm,
                            const gpu::GemmKey &, void *a, void *b, void *c) {
  rocblas_datatype type = rocblas_datatype_f32_r,
                   compute = rocblas_datatype_f32_r;
  const double one64 = 1.0, zero64 = 0.0;
  const float one32 = 1.0f, zero32 = 0.0f;
  const void *one = &one32, *zero = &zero32;
  switch (static_cast<DType>(gemm.dtype)) {
  case DType::F64:
    type = compute = rocblas_datatype_f64_r;
    one = &one64;
    zero = &zero64;
    break;
  case DType::F16:
    // Accumulated in f32, as the interpreter and the kernel do.
    type = rocblas_datatype_f16_r;
    break;
  default:
    break;
  }
  // A row-major C is computed as C^T = B^T A^T: rocBLAS's first operand is
  // then B, and the sizes swap.
  bool swapped = gemm.c.order == ADJ_RT_GPU_ROW_MAJOR;
  const adj_rt_gpu_matrix &first = swapped ? gemm.b : gemm.a;
  const adj_rt_gpu_matrix &second = swapped ? gemm.a : gemm.b;
  // Column-major storage of a row-major matrix is its transpose; the
  // swapped problem wants each operand transposed: the stored view is what
  // it wants when both or neither hold.
  auto op = [&](const adj_rt_gpu_matrix &matrix) {
    return (matrix.order == ADJ_RT_GPU_ROW_MAJOR) == swapped
               ? rocblas_operation_none
               : rocblas_operation_transpose;
  };
  // C = A B where C's prior values are not to be read, else C += A B.
  const void *beta = gemm.flags & ADJ_RT_GPU_GEMM_OVERWRITE ? zero : one;
  auto rows = int32_t(swapped ? gemm.n : gemm.m);
  auto cols = int32_t(swapped ? gemm.m : gemm.n);
  return checkRocblas(
      api_,
      api_.rocblas_gemm_strided_batched_ex(
          handle_, op(first), op(second), rows, cols, int32_t(gemm.k), one,
          swapped ? b : a, type, int32_t(first.ld),
          int64_t(first.batchStride), swapped ? a : b, type,
          int32_t(second.ld), int64_t(second.batchStride), beta, c, type,
          int32_t(gemm.c.ld), int64_t(gemm.c.batchStride), c, type,
          int32_t(gemm.c.ld), int64_t(gemm.c.batchStride),
          int32_t(gemm.batch), compute, rocblas_gemm_algo_standard, 0, 0),
      "rocblas_gemm_strided_batched_ex");
}
