//===- RocfftLibrary.h - A hip device's FFTs through rocFFT -----*- C++ -*-===//
//
// GPU/FftLibrary.h on rocFFT: one not-in-place plan per problem (lengths
// fastest-varying first, so the op's row-major lengths reversed; the
// default contiguous layout), made on its first call and kept with its
// work buffer size in a bounded cache (PlanCache.h); each execution on the device's
// stream with a work buffer from its pool; the inverses scaled with
// rocBLAS's scal on the same stream.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_ROCFFTLIBRARY_H
#define ADJOINT_LIB_RUNTIME_HIP_ROCFFTLIBRARY_H

#include "GPU/FftLibrary.h"
#include "GPU/PlanCache.h"
#include "HIP/Rocfft.h"

namespace adjoint::rt::hip {

class HipDevice;

class RocfftLibrary final : public gpu::FftLibrary {
public:
  RocfftLibrary(HipDevice &device, const RocfftApi &api);
  ~RocfftLibrary() override;

  const char *name() const override { return "rocFFT"; }

private:
  struct Plan {
    rocfft_plan plan = nullptr;
    size_t workBytes = 0;
  };
  Status transform(const gpu::LinearAlgebraProblem &problem, void *in,
                   void *out) override;
  Status scale(DType dtype, void *data, int count, double factor) override;
  /// The plan of `problem`, made on first use (with the device current).
  Status plan(const gpu::LinearAlgebraProblem &problem, Plan *out);

  HipDevice &hip_;
  const RocfftApi &api_;
  rocblas_handle blas_ = nullptr;
  /// Guarded by the device's lock (every use is inside withCurrent).
  gpu::PlanCache<Plan> plans_;
};

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_ROCFFTLIBRARY_H
