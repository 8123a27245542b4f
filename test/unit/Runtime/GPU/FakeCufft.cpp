//===- FakeCufft.cpp - cuFFT on host memory -------------------------------===//
//
// Built as libcufft.so.12 and put first on LD_LIBRARY_PATH by ctest for the
// cuda device's FFT route. The fake CUDA driver's device memory is host
// memory, so each execution computes at once, from the DFT's definition
// in long double, what cuFFT computes for the plan (the basic contiguous
// layout, unnormalized inverses, c2r reading a Hermitian half spectrum);
// it refuses what cuFFT refuses (an execute function of another type than
// the plan's, strided layouts, which the runtime does not use) and, as
// cuFFT may, overwrites a c2r transform's input, so that a runtime that
// passed the caller's buffer is caught. Calls are recorded (FakeSolver.h's
// journal). Nothing of NVIDIA's is copied: the types are the runtime's
// declarations (lib/Runtime/CUDA/Cufft.h).
//
//===----------------------------------------------------------------------===//

#include "CUDA/Cufft.h"
#include "FakeSolver.h"

#include <cmath>
#include <complex>
#include <limits>
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

using Complex = std::complex<long double>;

/// The unnormalized DFT of one transform over the dimensions `n`, with
/// exp(sign 2 pi i j.k / n).
std::vector<Complex> dft(const std::vector<Complex> &x,
                         const std::vector<int> &n, int sign) {
  size_t points = x.size();
  std::vector<Complex> y(points);
  const long double pi = std::acos(-1.0L);
  for (size_t k = 0; k < points; ++k) {
    Complex sum = 0;
    for (size_t j = 0; j < points; ++j) {
      long double phase = 0;
      size_t kr = k, jr = j;
      for (size_t d = n.size(); d-- > 0;) {
        phase += (long double)(jr % n[d]) * (kr % n[d]) / n[d];
        jr /= n[d];
        kr /= n[d];
      }
      sum += x[j] * std::polar(1.0L, sign * 2 * pi * phase);
    }
    y[k] = sum;
  }
  return y;
}

template <typename R> Complex load(const void *base, size_t i, bool complex) {
  const R *p = static_cast<const R *>(base);
  return complex ? Complex(p[2 * i], p[2 * i + 1]) : Complex(p[i], 0);
}

template <typename R>
void store(void *base, size_t i, Complex value, bool complex) {
  R *p = static_cast<R *>(base);
  if (complex) {
    p[2 * i] = R(value.real());
    p[2 * i + 1] = R(value.imag());
  } else {
    p[i] = R(value.real());
  }
}

/// One batch of `plan`'s transforms of real type R from `in` to `out`.
template <typename R>
void execute(const Plan &plan, void *in, void *out, int sign) {
  size_t points = 1;
  for (int d : plan.n)
    points *= d;
  int last = plan.n.back();
  size_t half = points / last * (last / 2 + 1);
  bool r2c = plan.type == CUFFT_R2C || plan.type == CUFFT_D2Z;
  bool c2r = plan.type == CUFFT_C2R || plan.type == CUFFT_Z2D;
  size_t inPoints = c2r ? half : points, outPoints = r2c ? half : points;
  for (int b = 0; b < plan.batch; ++b) {
    std::vector<Complex> x(points);
    if (c2r) {
      // The full spectrum from its Hermitian half: X[k] = conj(X[-k]).
      for (size_t k = 0; k < points; ++k) {
        std::vector<size_t> index(plan.n.size());
        size_t r = k;
        for (size_t d = plan.n.size(); d-- > 0;) {
          index[d] = r % plan.n[d];
          r /= plan.n[d];
        }
        bool mirrored = index.back() > size_t(last / 2);
        if (mirrored)
          for (size_t d = 0; d < index.size(); ++d)
            index[d] = (plan.n[d] - index[d]) % plan.n[d];
        size_t stored = 0;
        for (size_t d = 0; d < index.size(); ++d)
          stored = stored * (d + 1 == index.size() ? last / 2 + 1 : plan.n[d]) +
                   index[d];
        Complex value = load<R>(in, b * inPoints + stored, true);
        x[k] = mirrored ? std::conj(value) : value;
      }
    } else {
      for (size_t j = 0; j < points; ++j)
        x[j] = load<R>(in, b * inPoints + j, !r2c);
    }
    std::vector<Complex> y = dft(x, plan.n, sign);
    for (size_t k = 0, o = 0; k < points; ++k) {
      if (r2c && k % last > size_t(last / 2))
        continue;
      store<R>(out, b * outPoints + o++, y[k], !c2r);
    }
  }
  if (c2r) // cuFFT's c2r may overwrite its input: this one always does.
    for (size_t i = 0; i < 2 * size_t(plan.batch) * inPoints; ++i)
      static_cast<R *>(in)[i] = std::numeric_limits<R>::quiet_NaN();
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
  if (f64)
    execute<double>(plan, in, out, sign);
  else
    execute<float>(plan, in, out, sign);
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
