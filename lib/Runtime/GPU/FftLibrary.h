//===- FftLibrary.h - adj.fft through a vendor's FFT library ----*- C++ -*-===//
//
// The library route of adj.fft (GpuABI.h's ADJ_RT_GPU_FFT) on a device
// with a vendor FFT (cuFFT, rocFFT): what every such library needs of the
// op, around the vendor's transform. The op's inverses divide by the number
// of points, which the vendors' do not, so the result is scaled after;
// irfft's input is the caller's, which the vendors' complex-to-real
// transforms may overwrite, so they read a copy. Sizes must fit the
// vendors' 32-bit integers (others take the generated FFT or the host).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_FFTLIBRARY_H
#define ADJOINT_LIB_RUNTIME_GPU_FFTLIBRARY_H

#include "GPU/LinearAlgebraRouter.h"
#include "adjoint/Runtime/Device.h"

namespace adjoint::rt::gpu {

/// adj::FftType's values, as an FFT problem's second scalar has them.
enum FftTransform : int64_t { Fft = 0, Ifft = 1, Rfft = 2, Irfft = 3 };

class FftLibrary : public LinearAlgebraLibrary {
public:
  explicit FftLibrary(Device &device) : device_(device) {}

  /// FFTs whose lengths, batch and points fit 32-bit integers.
  bool computes(const LinearAlgebraProblem &problem) const override;
  Status compute(const LinearAlgebraProblem &problem,
                 void *const *buffers) override;

protected:
  /// Queues the unnormalized transform of `problem` from `in` (which it
  /// may overwrite) to `out` on the device's queue.
  virtual Status transform(const LinearAlgebraProblem &problem, void *in,
                           void *out) = 0;
  /// Queues `data[i] *= factor` for `count` values of `dtype` (F32, F64).
  virtual Status scale(DType dtype, void *data, int count, double factor) = 0;

  Device &device_;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_FFTLIBRARY_H
