//===- CufftLibrary.h - A cuda device's FFTs through cuFFT ------*- C++ -*-===//
//
// The library route of adj.fft on a cuda device (GpuABI.h's
// ADJ_RT_GPU_FFT): one cuFFT plan per problem (transform, type, lengths,
// batch), made on its first call with the basic contiguous layout and
// bound to the device's stream, kept for the process; the inverse
// transforms divided by the number of points with cuBLAS's scal on the
// same stream (cuFFT does not normalize); irfft's input copied first
// (C2R overwrites it, and it is the caller's).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUFFTLIBRARY_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUFFTLIBRARY_H

#include "CUDA/Cufft.h"
#include "GPU/LinearAlgebraRouter.h"

#include <mutex>
#include <unordered_map>

namespace adjoint::rt::cuda {

class CudaDevice;

class CufftLibrary final : public gpu::LinearAlgebraLibrary {
public:
  CufftLibrary(CudaDevice &device, const CufftApi &api)
      : device_(device), api_(api) {}
  ~CufftLibrary() override;

  const char *name() const override { return "cuFFT"; }
  /// FFTs whose lengths and batch fit cuFFT's 32-bit integers.
  bool computes(const gpu::LinearAlgebraProblem &problem) const override;
  Status compute(const gpu::LinearAlgebraProblem &problem,
                 void *const *buffers) override;

private:
  /// The plan of `problem`, made on first use (in the device's context).
  Status plan(const gpu::LinearAlgebraProblem &problem, cufftHandle *out);

  CudaDevice &device_;
  const CufftApi &api_;
  cublasHandle_t blas_ = nullptr;
  std::mutex mutex_;
  std::unordered_map<gpu::LinearAlgebraProblem, cufftHandle,
                     gpu::LinearAlgebraProblemHash>
      plans_;
};

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUFFTLIBRARY_H
