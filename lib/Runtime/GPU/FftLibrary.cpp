//===- FftLibrary.cpp - adj.fft through a vendor's FFT library ------------===//

#include "GPU/FftLibrary.h"
#include "CPU/LinearAlgebra.h"
#include "GPU/DeviceScratch.h"
#include "adjoint/Runtime/GpuABI.h"

#include <climits>
#include <vector>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

bool FftLibrary::computes(const LinearAlgebraProblem &problem) const {
  const int64_t *s = problem.scalars.data();
  if (problem.op != ADJ_RT_GPU_FFT || s[2] < 1 || s[2] > 3 || s[1] < 0 ||
      s[1] > 3 || s[0] < 1 || s[0] > INT_MAX)
    return false;
  // Every length, and the values of the batch (scale's count), fit int.
  int64_t values = 2 * s[0];
  for (int i = 0; i < 3; ++i) {
    if (s[3 + i] < 1 || s[3 + i] > INT_MAX || values > INT_MAX / s[3 + i])
      return false;
    values *= s[3 + i];
  }
  return true;
}

Status FftLibrary::compute(const LinearAlgebraProblem &problem,
                           void *const *buffers) {
  std::vector<cpu::LinearAlgebraBuffer> layout;
  if (Status status = cpu::linearAlgebraBuffers(
          problem.op, problem.dtype, problem.scalars.data(), &layout);
      !status.ok())
    return status;
  const int64_t *s = problem.scalars.data();
  DeviceScratch copy(device_);
  void *in = buffers[0], *out = buffers[1];
  if (s[1] == Irfft) {
    if (Status status = copy.allocate(layout[0].bytes); !status.ok())
      return status;
    if (Status status =
            device_.copyDeviceToDevice(copy.as<void>(), in, layout[0].bytes);
        !status.ok())
      return status;
    in = copy.as<void>();
  }
  if (Status status = transform(problem, in, out); !status.ok())
    return status;
  if (s[1] != Ifft && s[1] != Irfft)
    return Status::success();
  int64_t points = s[3] * s[4] * s[5];
  size_t size = problem.dtype == DType::F64 ? sizeof(double) : sizeof(float);
  return scale(problem.dtype, out, int(layout[1].bytes / size),
               1.0 / double(points));
}
