//===- FakeCufft.cpp - cuFFT on host memory -------------------------------===//
//
// Built as libcufft.so.12 and put first on LD_LIBRARY_PATH by ctest for the
// cuda device's FFT route. The fake CUDA driver's device memory is host
// memory, so each execution computes at once what cuFFT computes for the
// plan (FakeDft.h: the basic contiguous layout, unnormalized inverses, c2r
// reading a Hermitian half spectrum and, as cuFFT may, overwriting it); it
// refuses what cuFFT refuses (an execute function of another type than the
// plan's, strided layouts, which the runtime does not use). Calls are recorded (FakeSolver.h's
// journal). Nothing of NVIDIA's is copied: the types are the runtime's
// declarations (lib/Runtime/CUDA/Cufft.h).
//
//===----------------------------------------------------------------------===//

#include "CUDA/Cufft.h"
#include "FakeDft.h"
#include "FakeSolver.h"

#include <string>
#include <vector>

using namespace adjoint::rt::cuda;

namespace {

constexpr cufftResult kInvalidPlan = 1, kInvalidType = 3, kInvalidValue = 4;

struct Plan {
  std::vector<int> n;
  cufftType type;
  int batch;
  cudaStream_t stream = nullptr;
};

std::vector<Plan> &plans() {
  static std::vector<Plan> table;
  return table;
}

FakeSolverJournal &journal() {
  static FakeSolverJournal instance;
  return instance;
}

cufftResult run(cufftHandle handle, void *in, void *out, int sign,
                std::initializer_list<cufftType> types, const char *name) {
  if (handle < 0 || size_t(handle) >= plans().size() ||
      plans()[handle].n.empty())
    return kInvalidPlan;
  Plan &plan = plans()[handle];
  bool typed = false;
  for (cufftType type : types)
    typed |= plan.type == type;
  if (!typed)
    return kInvalidType;
  if (!in || !out)
    return kInvalidValue;
  std::string call = std::string(name);
  for (int d : plan.n)
    call += " " + std::to_string(d);
  call += " batch " + std::to_string(plan.batch);
  if (plan.type == CUFFT_C2C || plan.type == CUFFT_Z2Z)
    call += sign < 0 ? " forward" : " inverse";
  journal().calls.push_back(call);
  journal().stream = plan.stream;
  bool f64 = plan.type == CUFFT_Z2Z || plan.type == CUFFT_D2Z ||
             plan.type == CUFFT_Z2D;
  fake::Transform kind = plan.type == CUFFT_R2C || plan.type == CUFFT_D2Z
                             ? fake::Transform::RealForward
                         : plan.type == CUFFT_C2R || plan.type == CUFFT_Z2D
                             ? fake::Transform::RealInverse
                         : sign < 0 ? fake::Transform::Forward
                                    : fake::Transform::Inverse;
  if (f64)
    fake::transform<double>(plan.n, plan.batch, kind, in, out);
  else
    fake::transform<float>(plan.n, plan.batch, kind, in, out);
  return CUFFT_SUCCESS;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void *fakeSolverJournal() {
  return &journal();
}

cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed,
                          int, int, int *onembed, int, int, cufftType type,
                          int batch) {
  if (rank < 1 || rank > 3 || batch < 1 || inembed || onembed)
    return kInvalidValue;
  Plan p{std::vector<int>(n, n + rank), type, batch};
  for (int d : p.n)
    if (d < 1)
      return kInvalidValue;
  plans().push_back(p);
  *plan = int(plans().size() - 1);
  ++journal().handles;
  return CUFFT_SUCCESS;
}

cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream) {
  if (plan < 0 || size_t(plan) >= plans().size())
    return kInvalidPlan;
  plans()[plan].stream = stream;
  return CUFFT_SUCCESS;
}

cufftResult cufftDestroy(cufftHandle plan) {
  if (plan < 0 || size_t(plan) >= plans().size())
    return kInvalidPlan;
  plans()[plan].n.clear();
  return CUFFT_SUCCESS;
}

cufftResult cufftExecC2C(cufftHandle plan, void *in, void *out,
                         int direction) {
  return run(plan, in, out, direction, {CUFFT_C2C}, "C2C");
}
cufftResult cufftExecZ2Z(cufftHandle plan, void *in, void *out,
                         int direction) {
  return run(plan, in, out, direction, {CUFFT_Z2Z}, "Z2Z");
}
cufftResult cufftExecR2C(cufftHandle plan, void *in, void *out) {
  return run(plan, in, out, -1, {CUFFT_R2C}, "R2C");
}
cufftResult cufftExecD2Z(cufftHandle plan, void *in, void *out) {
  return run(plan, in, out, -1, {CUFFT_D2Z}, "D2Z");
}
cufftResult cufftExecC2R(cufftHandle plan, void *in, void *out) {
  return run(plan, in, out, +1, {CUFFT_C2R}, "C2R");
}
cufftResult cufftExecZ2D(cufftHandle plan, void *in, void *out) {
  return run(plan, in, out, +1, {CUFFT_Z2D}, "Z2D");
}

} // extern "C"
