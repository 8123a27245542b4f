//===- SolverLinearAlgebra.h - Decompositions by a vendor solver -*- C++ -*-===//
//
// The library route of a GPU device with a vendor solver (DenseSolver.h):
// the factorization, O(n^3), runs on the device's buffers; what makes the
// solver's column-major results the ops' results (transposes, pivots as a
// permutation, zeros outside a factor, the signs of vectors,
// CPU/LinearAlgebraConventions.h), O(n^2), runs on the host on copies, so
// that every route of every device agrees to the last convention. Per op:
//
//   cholesky          device copy A -> L, potrf (A^T's upper triangle, as
//                     on the CPU), the triangle above cleared on the host;
//   triangular_solve  device copy B -> X, trsm on the other side and
//                     triangle (X^T op(A)^T = B^T), nothing on the host;
//   lu, qr            A transposed on the host, getrf or geqrf and orgqr
//                     on the device, the results transposed on the host;
//   eigh              device copy A -> V, syevd of the other triangle,
//                     the vectors signed and transposed on the host;
//   svd               gesvd of A^T (the buffer as it is) when it is tall,
//                     else of A (transposed on the host), signs on the host.
//
// A matrix is one solver call: batches of small matrices are the generated
// kernels' case, and the router measures where. Empty problems and sizes
// beyond 32-bit integers go to `fallback` (LAPACK on the host).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_SOLVERLINEARALGEBRA_H
#define ADJOINT_LIB_RUNTIME_GPU_SOLVERLINEARALGEBRA_H

#include "GPU/DenseSolver.h"
#include "GPU/LinearAlgebraRouter.h"
#include "adjoint/Runtime/Device.h"

#include <memory>

namespace adjoint::rt::gpu {

class SolverLinearAlgebra : public LinearAlgebraLibrary {
public:
  SolverLinearAlgebra(Device &device, std::unique_ptr<DenseSolver> solver,
                      LinearAlgebraLibrary &fallback);
  ~SolverLinearAlgebra() override;

  const char *name() const override { return solver_->name(); }
  bool computes(const LinearAlgebraProblem &problem) const override;
  Status compute(const LinearAlgebraProblem &problem,
                 void *const *buffers) override;

private:
  template <typename T>
  Status computeAs(const LinearAlgebraProblem &problem, void *const *buffers);

  Device &device_;
  std::unique_ptr<DenseSolver> solver_;
  LinearAlgebraLibrary &fallback_;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_SOLVERLINEARALGEBRA_H
