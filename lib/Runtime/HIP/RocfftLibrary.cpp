//===- RocfftLibrary.cpp - A hip device's FFTs through rocFFT -------------===//

#include "HIP/RocfftLibrary.h"
#include "GPU/DeviceScratch.h"
#include "HIP/HipDevice.h"

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
rocfft_transform_type typeOf(int64_t transform) {
  switch (transform) {
  case gpu::Ifft:
    return rocfft_transform_type_complex_inverse;
  case gpu::Rfft:
    return rocfft_transform_type_real_forward;
  case gpu::Irfft:
    return rocfft_transform_type_real_inverse;
  default:
    return rocfft_transform_type_complex_forward;
  }
}
} // namespace

RocfftLibrary::RocfftLibrary(HipDevice &device, const RocfftApi &api)
    : FftLibrary(device), hip_(device), api_(api),
      plans_([this](Plan &p) { api_.rocfft_plan_destroy(p.plan); },
             [this] { return hip_.synchronize(); }) {}

RocfftLibrary::~RocfftLibrary() {
  if (blas_)
    api_.rocblas_destroy_handle(blas_);
}

Status RocfftLibrary::plan(const gpu::LinearAlgebraProblem &problem,
                           Plan *out) {
  if (Plan *known = plans_.find(problem)) {
    *out = *known;
    return Status::success();
  }
  const int64_t *s = problem.scalars.data();
  size_t rank = size_t(s[2]), lengths[3];
  for (size_t i = 0; i < rank; ++i)
    lengths[i] = size_t(s[3 + rank - 1 - i]);
  Plan p;
  if (Status status = checkRocfft(
          api_.rocfft_plan_create(&p.plan, rocfft_placement_notinplace,
                                  typeOf(s[1]),
                                  problem.dtype == DType::F64
                                      ? rocfft_precision_double
                                      : rocfft_precision_single,
                                  rank, lengths, size_t(s[0]), nullptr),
          "rocfft_plan_create");
      !status.ok())
    return status;
  if (Status status = checkRocfft(
          api_.rocfft_plan_get_work_buffer_size(p.plan, &p.workBytes),
          "rocfft_plan_get_work_buffer_size");
      !status.ok()) {
    api_.rocfft_plan_destroy(p.plan);
    return status;
  }
  *out = p;
  return plans_.insert(problem, p);
}

Status RocfftLibrary::transform(const gpu::LinearAlgebraProblem &problem,
                                void *in, void *out) {
  return hip_.withCurrent([&]() -> Status {
    Plan p;
    if (Status status = plan(problem, &p); !status.ok())
      return status;
    gpu::DeviceScratch work(hip_);
    if (p.workBytes)
      if (Status status = work.allocate(p.workBytes); !status.ok())
        return status;
    rocfft_execution_info info = nullptr;
    if (Status status = checkRocfft(api_.rocfft_execution_info_create(&info),
                                    "rocfft_execution_info_create");
        !status.ok())
      return status;
    Status status = checkRocfft(
        api_.rocfft_execution_info_set_stream(info, hip_.stream()),
        "rocfft_execution_info_set_stream");
    if (status.ok() && p.workBytes)
      status = checkRocfft(api_.rocfft_execution_info_set_work_buffer(
                               info, work.as<void>(), p.workBytes),
                           "rocfft_execution_info_set_work_buffer");
    if (status.ok())
      status = checkRocfft(api_.rocfft_execute(p.plan, &in, &out, info),
                           "rocfft_execute");
    api_.rocfft_execution_info_destroy(info);
    return status;
  });
}

Status RocfftLibrary::scale(DType dtype, void *data, int count,
                            double factor) {
  return hip_.withCurrent([&]() -> Status {
    if (Status status = ensureRocblasHandle(api_, hip_.stream(), &blas_);
        !status.ok())
      return status;
    if (dtype == DType::F64)
      return checkRocblas(api_.rocblas_status_to_string,
                          api_.rocblas_dscal(blas_, count, &factor,
                                             static_cast<double *>(data), 1),
                          "rocblas_dscal");
    float single = float(factor);
    return checkRocblas(api_.rocblas_status_to_string,
                        api_.rocblas_sscal(blas_, count, &single,
                                           static_cast<float *>(data), 1),
                        "rocblas_sscal");
  });
}
