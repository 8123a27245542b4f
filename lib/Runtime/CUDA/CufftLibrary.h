//===- CufftLibrary.h - A cuda device's FFTs through cuFFT ------*- C++ -*-===//
//
// GPU/FftLibrary.h on cuFFT: one plan per problem (transform, type,
// lengths, batch), made on its first call with the basic contiguous layout
// and bound to the device's stream, kept in a bounded cache (PlanCache.h);
// the inverses scaled with cuBLAS's scal on the same stream.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUFFTLIBRARY_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUFFTLIBRARY_H

#include "CUDA/Cufft.h"
#include "GPU/FftLibrary.h"
#include "GPU/PlanCache.h"

namespace adjoint::rt::cuda {

class CudaDevice;

class CufftLibrary final : public gpu::FftLibrary {
public:
  CufftLibrary(CudaDevice &device, const CufftApi &api);
  ~CufftLibrary() override;

  const char *name() const override { return "cuFFT"; }

private:
  Status transform(const gpu::LinearAlgebraProblem &problem, void *in,
                   void *out) override;
  Status scale(DType dtype, void *data, int count, double factor) override;
  /// The plan of `problem`, made on first use (in the device's context).
  Status plan(const gpu::LinearAlgebraProblem &problem, cufftHandle *out);

  CudaDevice &cuda_;
  const CufftApi &api_;
  cublasHandle_t blas_ = nullptr;
  /// Guarded by the device's lock (every use is inside withCurrent).
  gpu::PlanCache<cufftHandle> plans_;
};

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUFFTLIBRARY_H
