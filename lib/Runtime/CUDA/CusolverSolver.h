//===- CusolverSolver.h - A cuda device's dense solver ----------*- C++ -*-===//
//
// GPU/DenseSolver.h on cuSOLVER (and cuBLAS's trsm): both libraries' handles
// are made on the device's first decomposition and bound to its stream, so
// their work is ordered with every copy and launch; each routine's
// workspace comes from the device's pool for the length of the call.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUSOLVERSOLVER_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUSOLVERSOLVER_H

#include "CUDA/Cusolver.h"
#include "GPU/DenseSolver.h"

namespace adjoint::rt::cuda {

class CudaDevice;

class CusolverSolver final : public gpu::DenseSolver {
public:
  CusolverSolver(CudaDevice &device, const CusolverApi &api)
      : device_(device), api_(api) {}
  ~CusolverSolver() override;

  const char *name() const override { return "cuSOLVER"; }
  bool takesComplex() const override { return true; }
  Status withDevice(const std::function<Status()> &work) override;
  Status potrf(DType type, int n, void *a, int lda, int *info) override;
  Status trsm(DType type, gpu::TriangularSolveFlags flags, int m, int n,
              const void *a, int lda, void *b, int ldb) override;
  Status getrf(DType type, int m, int n, void *a, int lda, int *ipiv,
               int *info) override;
  Status geqrf(DType type, int m, int n, void *a, int lda, void *tau,
               int *info) override;
  Status orgqr(DType type, int m, int n, int k, void *a, int lda,
               const void *tau, int *info) override;
  Status syevd(DType type, bool vectors, bool upper, int n, void *a, int lda,
               void *w, int *info) override;
  Status gesvd(DType type, gpu::SingularVectors job, int m, int n, void *a,
               int lda, void *s, void *u, int ldu, void *vt, int ldvt,
               int *info) override;

private:
  /// Runs `call(routines, T{})` with T the element type of `type`.
  template <typename Call> Status typed(DType type, Call call);

  CudaDevice &device_;
  const CusolverApi &api_;
  cusolverDnHandle_t solver_ = nullptr;
  cublasHandle_t blas_ = nullptr;
};

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUSOLVERSOLVER_H
