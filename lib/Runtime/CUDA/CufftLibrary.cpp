//===- CufftLibrary.cpp - A cuda device's FFTs through cuFFT --------------===//

#include "CUDA/CufftLibrary.h"
#include "CPU/LinearAlgebra.h"
#include "CUDA/CudaDevice.h"
#include "GPU/DeviceScratch.h"

#include <climits>
#include <vector>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {

/// adj::FftType's values, as the problem's second scalar has them.
enum Transform : int64_t { Fft = 0, Ifft = 1, Rfft = 2, Irfft = 3 };

cufftType typeOf(int64_t transform, bool f64) {
  switch (transform) {
  case Rfft:
    return f64 ? CUFFT_D2Z : CUFFT_R2C;
  case Irfft:
    return f64 ? CUFFT_Z2D : CUFFT_C2R;
  default:
    return f64 ? CUFFT_Z2Z : CUFFT_C2C;
  }
}

} // namespace

CufftLibrary::~CufftLibrary() {
  for (auto &[problem, handle] : plans_)
    api_.cufftDestroy(handle);
  if (blas_)
    api_.cublasDestroy_v2(blas_);
}

bool CufftLibrary::computes(const gpu::LinearAlgebraProblem &problem) const {
  const int64_t *s = problem.scalars.data();
  if (problem.op != ADJ_RT_GPU_FFT || s[2] < 1 || s[2] > 3 || s[1] < 0 ||
      s[1] > 3 || s[0] < 1 || s[0] > INT_MAX)
    return false;
  // Every length, and the points of the batch (scal's count), fit int.
  int64_t points = 2 * s[0];
  for (int i = 0; i < 3; ++i) {
    if (s[3 + i] < 1 || s[3 + i] > INT_MAX || points > INT_MAX / s[3 + i])
      return false;
    points *= s[3 + i];
  }
  return true;
}

Status CufftLibrary::plan(const gpu::LinearAlgebraProblem &problem,
                          cufftHandle *out) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = plans_.find(problem); it != plans_.end()) {
    *out = it->second;
    return Status::success();
  }
  const int64_t *s = problem.scalars.data();
  int lengths[3] = {int(s[3]), int(s[4]), int(s[5])};
  cufftHandle handle = 0;
  if (Status status = checkCufft(
          api_.cufftPlanMany(&handle, int(s[2]), lengths, nullptr, 1, 0,
                             nullptr, 1, 0,
                             typeOf(s[1], problem.dtype == DType::F64),
                             int(s[0])),
          "cufftPlanMany");
      !status.ok())
    return status;
  if (Status status = checkCufft(api_.cufftSetStream(handle, device_.stream()),
                                 "cufftSetStream");
      !status.ok()) {
    api_.cufftDestroy(handle);
    return status;
  }
  plans_[problem] = handle;
  *out = handle;
  return Status::success();
}

Status CufftLibrary::compute(const gpu::LinearAlgebraProblem &problem,
                             void *const *buffers) {
  std::vector<cpu::LinearAlgebraBuffer> layout;
  if (Status status = cpu::linearAlgebraBuffers(
          problem.op, problem.dtype, problem.scalars.data(), &layout);
      !status.ok())
    return status;
  const int64_t *s = problem.scalars.data();
  bool f64 = problem.dtype == DType::F64;
  // C2R overwrites its input, which is the caller's: it reads a copy.
  gpu::DeviceScratch copy(device_);
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
  return device_.withContext([&]() -> Status {
    cufftHandle handle;
    if (Status status = plan(problem, &handle); !status.ok())
      return status;
    cufftResult result;
    switch (s[1]) {
    case Rfft:
      result = f64 ? api_.cufftExecD2Z(handle, in, out)
                   : api_.cufftExecR2C(handle, in, out);
      break;
    case Irfft:
      result = f64 ? api_.cufftExecZ2D(handle, in, out)
                   : api_.cufftExecC2R(handle, in, out);
      break;
    default: {
      int direction = s[1] == Ifft ? CUFFT_INVERSE : CUFFT_FORWARD;
      result = f64 ? api_.cufftExecZ2Z(handle, in, out, direction)
                   : api_.cufftExecC2C(handle, in, out, direction);
    }
    }
    if (Status status = checkCufft(result, "cufftExec"); !status.ok())
      return status;
    if (s[1] != Ifft && s[1] != Irfft)
      return Status::success();
    // The op's inverse divides by the number of points; cuFFT does not.
    if (Status status = ensureCublasHandle(api_, device_.stream(), &blas_);
        !status.ok())
      return status;
    int64_t points = s[3] * s[4] * s[5];
    int count = int(layout[1].bytes / (f64 ? sizeof(double) : sizeof(float)));
    if (f64) {
      double scale = 1.0 / double(points);
      return checkCublas(api_.cublasDscal_v2(blas_, count, &scale,
                                             static_cast<double *>(out), 1),
                         "cublasDscal_v2");
    }
    float scale = 1.0f / float(points);
    return checkCublas(api_.cublasSscal_v2(blas_, count, &scale,
                                           static_cast<float *>(out), 1),
                       "cublasSscal_v2");
  });
}
