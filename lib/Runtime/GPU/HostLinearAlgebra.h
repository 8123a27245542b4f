//===- HostLinearAlgebra.h - Decompositions by host LAPACK ------*- C++ -*-===//
//
// The library route of every GPU device without a vendor solver (and the
// fallback where one is missing): the operands are copied to the host, the
// CPU's LAPACK kernels (CPU/LinearAlgebra.h) compute the decomposition with
// exactly the op's conventions, and the results are copied back. The
// generated kernels factor one matrix per workgroup, in O(n^3) steps on one
// compute unit; LAPACK's blocked algorithms on the host's cores win on
// large matrices despite the copies, and LinearAlgebraRouter measures
// where. FFTs (ADJ_RT_GPU_FFT) run FFTW the same way, measured against the
// generated FFT.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_HOSTLINEARALGEBRA_H
#define ADJOINT_LIB_RUNTIME_GPU_HOSTLINEARALGEBRA_H

#include "GPU/LinearAlgebraRouter.h"
#include "adjoint/Runtime/Device.h"

namespace adjoint::rt::gpu {

class HostLinearAlgebra : public LinearAlgebraLibrary {
public:
  explicit HostLinearAlgebra(Device &device) : device_(device) {}
  const char *name() const override { return "LAPACK on the host"; }
  /// Whether LAPACK (FFTW for an FFT) loads (else the kernels compute
  /// everything).
  bool computes(const LinearAlgebraProblem &problem) const override;
  Status compute(const LinearAlgebraProblem &problem,
                 void *const *buffers) override;

private:
  Device &device_;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_HOSTLINEARALGEBRA_H
