//===- CublasLtGemm.h - GEMMs through cuBLASLt ------------------*- C++ -*-===//
//
// The CUDA device's GEMM library, behind the measured choice of
// GPU/GemmRouter.h (ADJOINT_CUDA_GEMM=library or kernels forces a route):
// C += A B as one cublasLtMatmul on the device's stream, D = C in place.
//
// The plans (matmul and layout descriptors, the heuristic's algorithm and
// workspace size) are made once per problem. Row-major matrices are
// cuBLASLt's column-major ones transposed: a row-major C is computed as
// C^T = B^T A^T. The workspace is the device's library workspace
// (gpu::LibraryWorkspace), lent as a function so that this class is tested
// on its own against a fake libcublasLt.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUBLASLTGEMM_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUBLASLTGEMM_H

#include "CUDA/CublasLt.h"
#include "GPU/Gemm.h"
#include "GPU/GemmRouter.h"

#include <memory>
#include <unordered_map>

namespace adjoint::rt::cuda {

class CublasLtGemm final : public gpu::GemmLibrary {
public:
  /// GEMMs on `stream`, in the workspace `workspace` gives; the cuBLASLt
  /// handle is made on the first one.
  CublasLtGemm(const CublasLtApi &api, cudaStream_t stream,
               gpu::LibraryWorkspace workspace);
  ~CublasLtGemm() override;
  CublasLtGemm(const CublasLtGemm &) = delete;
  CublasLtGemm &operator=(const CublasLtGemm &) = delete;

  const char *name() const override { return "cuBLASLt"; }
  /// Makes the plan; not available where cuBLASLt offers no algorithm or
  /// a size is past its 32 bits.
  Status prepare(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                 bool *available) override;
  Status enqueue(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
                 void *a, void *b, void *c) override;

private:
  struct Plan;
  /// The plan of `key`'s problem, made on first use; null (with a success
  /// status) when cuBLASLt offers no algorithm for it.
  Status plan(const adj_rt_gpu_gemm_desc &gemm, const gpu::GemmKey &key,
              Plan **out);

  const CublasLtApi &api_;
  cudaStream_t stream_;
  gpu::LibraryWorkspace workspace_;
  cublasLtHandle_t handle_ = nullptr;
  std::unordered_map<gpu::GemmKey, std::unique_ptr<Plan>, gpu::GemmKeyHash>
      plans_;
};

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUBLASLTGEMM_H
