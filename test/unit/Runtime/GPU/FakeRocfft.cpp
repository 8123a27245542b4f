//===- FakeRocfft.cpp - rocFFT on host memory -----------------------------===//
//
// Built as librocfft.so.0 and put first on LD_LIBRARY_PATH by ctest for the
// hip device's FFT route. The fake HIP runtime's device memory is host
// memory, so each execution computes at once what rocFFT computes for the
// plan (FakeDft.h; lengths fastest-varying first, the default contiguous
// layout, unnormalized inverses). It asks for a work buffer and refuses an
// execution without one, or without a stream, or of an in-place plan,
// which the runtime does not make; calls are recorded (FakeSolver.h's
// journal). Nothing of AMD's is copied: the types are the runtime's
// declarations (lib/Runtime/HIP/Rocfft.h).
//
//===----------------------------------------------------------------------===//

#include "FakeDft.h"
#include "FakeSolver.h"
#include "HIP/Rocfft.h"

#include <string>
#include <vector>

using namespace adjoint::rt::hip;

// The handles' types, which the runtime only declares.
namespace adjoint::rt::hip {
struct RocfftPlanOpaque {
  std::vector<int> n; // row-major: slowest first
  rocfft_transform_type type;
  bool f64;
  int batch;
};
struct RocfftExecutionInfoOpaque {
  void *stream = nullptr;
  void *work = nullptr;
  size_t workBytes = 0;
};
} // namespace adjoint::rt::hip

namespace {

constexpr rocfft_status kFailure = 1, kInvalidArgValue = 2,
                        kInvalidWorkBuffer = 8;
/// What every plan asks for: a work buffer must be passed.
constexpr size_t kWorkBytes = 256;

FakeSolverJournal &journal() {
  static FakeSolverJournal instance;
  return instance;
}

const char *nameOf(rocfft_transform_type type) {
  switch (type) {
  case rocfft_transform_type_complex_forward:
    return "complex_forward";
  case rocfft_transform_type_complex_inverse:
    return "complex_inverse";
  case rocfft_transform_type_real_forward:
    return "real_forward";
  default:
    return "real_inverse";
  }
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void *fakeSolverJournal() {
  return &journal();
}

rocfft_status rocfft_setup() { return rocfft_status_success; }

rocfft_status rocfft_plan_create(rocfft_plan *plan,
                                 rocfft_result_placement placement,
                                 rocfft_transform_type type,
                                 rocfft_precision precision,
                                 size_t dimensions, const size_t *lengths,
                                 size_t transforms,
                                 rocfft_plan_description description) {
  if (placement != rocfft_placement_notinplace || description ||
      dimensions < 1 || dimensions > 3 || transforms < 1 || int(type) < 0 ||
      int(type) > 3)
    return kInvalidArgValue;
  auto *p = new RocfftPlanOpaque{{}, type, precision == rocfft_precision_double,
                                 int(transforms)};
  for (size_t i = dimensions; i-- > 0;)
    p->n.push_back(int(lengths[i]));
  *plan = p;
  ++journal().handles;
  return rocfft_status_success;
}

rocfft_status rocfft_plan_get_work_buffer_size(rocfft_plan, size_t *bytes) {
  *bytes = kWorkBytes;
  return rocfft_status_success;
}

rocfft_status rocfft_plan_destroy(rocfft_plan plan) {
  delete plan;
  return rocfft_status_success;
}

rocfft_status rocfft_execution_info_create(rocfft_execution_info *info) {
  *info = new RocfftExecutionInfoOpaque;
  return rocfft_status_success;
}

rocfft_status rocfft_execution_info_destroy(rocfft_execution_info info) {
  delete info;
  return rocfft_status_success;
}

rocfft_status rocfft_execution_info_set_stream(rocfft_execution_info info,
                                               void *stream) {
  info->stream = stream;
  return rocfft_status_success;
}

rocfft_status rocfft_execution_info_set_work_buffer(rocfft_execution_info info,
                                                    void *buffer,
                                                    size_t bytes) {
  info->work = buffer;
  info->workBytes = bytes;
  return rocfft_status_success;
}

rocfft_status rocfft_execute(rocfft_plan plan, void **in, void **out,
                             rocfft_execution_info info) {
  if (!plan || !in || !in[0] || !out || !out[0])
    return kInvalidArgValue;
  if (!info || !info->stream)
    return kFailure;
  if (!info->work || info->workBytes < kWorkBytes)
    return kInvalidWorkBuffer;
  std::string call = nameOf(plan->type);
  for (int d : plan->n)
    call += " " + std::to_string(d);
  call += " batch " + std::to_string(plan->batch);
  journal().calls.push_back(call);
  journal().stream = info->stream;
  fake::Transform kind = plan->type == rocfft_transform_type_complex_forward
                             ? fake::Transform::Forward
                         : plan->type == rocfft_transform_type_complex_inverse
                             ? fake::Transform::Inverse
                         : plan->type == rocfft_transform_type_real_forward
                             ? fake::Transform::RealForward
                             : fake::Transform::RealInverse;
  if (plan->f64)
    fake::transform<double>(plan->n, plan->batch, kind, in[0], out[0]);
  else
    fake::transform<float>(plan->n, plan->batch, kind, in[0], out[0]);
  return rocfft_status_success;
}

} // extern "C"
