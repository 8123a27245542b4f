//===- CufftLibrary.cpp - A cuda device's FFTs through cuFFT --------------===//

#include "CUDA/CufftLibrary.h"
#include "CUDA/CudaDevice.h"

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

namespace {
cufftType typeOf(int64_t transform, bool f64) {
  switch (transform) {
  case gpu::Rfft:
    return f64 ? CUFFT_D2Z : CUFFT_R2C;
  case gpu::Irfft:
    return f64 ? CUFFT_Z2D : CUFFT_C2R;
  default:
    return f64 ? CUFFT_Z2Z : CUFFT_C2C;
  }
}
} // namespace

CufftLibrary::CufftLibrary(CudaDevice &device, const CufftApi &api)
    : FftLibrary(device), cuda_(device), api_(api),
      plans_([this](cufftHandle &plan) { api_.cufftDestroy(plan); },
             [this] { return cuda_.synchronize(); }) {}

CufftLibrary::~CufftLibrary() {
  if (blas_)
    api_.cublasDestroy_v2(blas_);
}

Status CufftLibrary::plan(const gpu::LinearAlgebraProblem &problem,
                          cufftHandle *out) {
  if (cufftHandle *known = plans_.find(problem)) {
    *out = *known;
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
  if (Status status = checkCufft(api_.cufftSetStream(handle, cuda_.stream()),
                                 "cufftSetStream");
      !status.ok()) {
    api_.cufftDestroy(handle);
    return status;
  }
  *out = handle;
  return plans_.insert(problem, handle);
}

Status CufftLibrary::transform(const gpu::LinearAlgebraProblem &problem,
                               void *in, void *out) {
  return cuda_.withCurrent([&]() -> Status {
    cufftHandle handle;
    if (Status status = plan(problem, &handle); !status.ok())
      return status;
    bool f64 = problem.dtype == DType::F64;
    cufftResult result;
    switch (problem.scalars[1]) {
    case gpu::Rfft:
      result = f64 ? api_.cufftExecD2Z(handle, in, out)
                   : api_.cufftExecR2C(handle, in, out);
      break;
    case gpu::Irfft:
      result = f64 ? api_.cufftExecZ2D(handle, in, out)
                   : api_.cufftExecC2R(handle, in, out);
      break;
    default: {
      int direction =
          problem.scalars[1] == gpu::Ifft ? CUFFT_INVERSE : CUFFT_FORWARD;
      result = f64 ? api_.cufftExecZ2Z(handle, in, out, direction)
                   : api_.cufftExecC2C(handle, in, out, direction);
    }
    }
    return checkCufft(result, "cufftExec");
  });
}

Status CufftLibrary::scale(DType dtype, void *data, int count,
                           double factor) {
  return cuda_.withCurrent([&]() -> Status {
    if (Status status = ensureCublasHandle(api_, cuda_.stream(), &blas_);
        !status.ok())
      return status;
    if (dtype == DType::F64)
      return checkCublas(api_.cublasDscal_v2(blas_, count, &factor,
                                             static_cast<double *>(data), 1),
                         "cublasDscal_v2");
    float single = float(factor);
    return checkCublas(api_.cublasSscal_v2(blas_, count, &single,
                                           static_cast<float *>(data), 1),
                       "cublasSscal_v2");
  });
}
