//===- RocblasGemm.h - GEMMs through rocBLAS --------------------*- C++ -*-===//
//
// The HIP device's GEMM library, behind the measured choice of
// GPU/GemmRouter.h: C += A B as one rocblas_gemm_strided_batched_ex on the
// device's stream, D = C in place. rocBLAS is column-major: a row-major C
// is computed as C^T = B^T A^T, each operand transposed or not as its
// storage says, as for cuBLASLt. f16 products accumulate in f32 (as the
// interpreter and the kernel do). Problems with a size, leading dimension
// or batch count past 32 bits stay with the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_ROCBLASGEMM_H
#define ADJOINT_LIB_RUNTIME_HIP_ROCBLASGEMM_H

#include "GPU/GemmRouter.h"
#include "HIP/Rocblas.h"

namespace adjoint::rt::hip {

class RocblasGemm final : public gpu::GemmLibrary {
public:
  /// GEMMs on `stream`; the rocBLAS handle is made on the first one, with
  /// the device current (rocBLAS binds a handle to the current device),
  /// and given `workspace`'s block where rocBLAS takes one (otherwise it
  /// keeps its own, which it may move when a GEMM needs more, under the
  /// feet of graphs that captured its kernels).
  RocblasGemm(const RocblasApi &api, hipStream_t stream,
              gpu::LibraryWorkspace workspace)
      : api_(api), stream_(stream), workspace_(std::move(workspace)) {}
  ~RocblasGemm() override;
  RocblasGemm(const RocblasGemm &) = delete;
  RocblasGemm &operator=(const RocblasGemm &) = delete;

  const char *name() const override { return "rocBLAS"; }
  Status prepare(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                 bool *available) override;
  Status enqueue(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                 void *a, void *b, void *c) override;

private:
  const RocblasApi &api_;
  hipStream_t stream_;
  gpu::LibraryWorkspace workspace_;
  rocblas_handle handle_ = nullptr;
};

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_ROCBLASGEMM_H
