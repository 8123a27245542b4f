//===- RocsolverSolver.h - A hip device's dense solver ----------*- C++ -*-===//
//
// GPU/DenseSolver.h on rocSOLVER (and rocBLAS's trsm): one rocBLAS handle,
// made on the device's first decomposition and bound to its stream, so
// that the work is ordered with every copy and launch. rocSOLVER keeps its
// workspaces in the handle; the scratch its routines take as arguments
// (syevd's and gesvd's off-diagonals) comes from the device's pool.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_ROCSOLVERSOLVER_H
#define ADJOINT_LIB_RUNTIME_HIP_ROCSOLVERSOLVER_H

#include "GPU/DenseSolver.h"
#include "HIP/Rocsolver.h"

namespace adjoint::rt::hip {

class HipDevice;

class RocsolverSolver final : public gpu::DenseSolver {
public:
  RocsolverSolver(HipDevice &device, const RocsolverApi &api)
      : device_(device), api_(api) {}
  ~RocsolverSolver() override;

  const char *name() const override { return "rocSOLVER"; }
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
  Status check(rocblas_status status, const char *call) const {
    return checkRocblas(api_.rocblas_status_to_string, status, call);
  }

  HipDevice &device_;
  const RocsolverApi &api_;
  rocblas_handle handle_ = nullptr;
};

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_ROCSOLVERSOLVER_H
