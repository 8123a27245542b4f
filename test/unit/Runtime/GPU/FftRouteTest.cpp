//===- FftRouteTest.cpp - adj.fft's library route on cuda and hip ---------===//
//
// adj_rt_gpu_linalg_begin's FFT (ADJ_RT_GPU_FFT) on the fake cuda:0 through
// the fake cuFFT and cuBLAS's scal, and on the fake hip:0 through the fake
// rocFFT and rocBLAS's scal (FakeCufft.cpp, FakeRocfft.cpp: from the DFT's
// definition): every transform, one to three axes, odd and even real
// lengths, f32 and f64, against FFTW on the host (CPU/Fourier.h, the op's
// definition on the CPU), with irfft's input left as it was; and the
// bound on the FFTW plans the host keeps.
//
//===----------------------------------------------------------------------===//

#include "CPU/Fourier.h"
#include "CPU/LinearAlgebra.h"
#include "FakeRocblas.h"
#include "FakeSolver.h"
#include "GPU/GpuDevice.h"
#include "GpuTestSupport.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {

template <typename R>
std::vector<char> randomBytes(size_t count, std::mt19937 &rng) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<char> bytes(count * sizeof(R));
  for (size_t i = 0; i < count; ++i) {
    R x = R(uniform(rng));
    std::memcpy(bytes.data() + i * sizeof(R), &x, sizeof(R));
  }
  return bytes;
}

/// The input of `problem`: random values, except irfft's, which is the
/// rfft of random values (a Hermitian half spectrum, which c2r reads).
std::vector<char> inputOf(const LinearAlgebraProblem &problem,
                          uint64_t bytes, std::mt19937 &rng) {
  bool f64 = problem.dtype == DType::F64;
  size_t size = f64 ? 8 : 4;
  if (problem.scalars[1] != 3)
    return f64 ? randomBytes<double>(bytes / size, rng)
               : randomBytes<float>(bytes / size, rng);
  LinearAlgebraProblem rfft = problem;
  rfft.scalars[1] = 2;
  std::vector<cpu::LinearAlgebraBuffer> layout;
  REQUIRE(cpu::linearAlgebraBuffers(ADJ_RT_GPU_FFT, problem.dtype,
                                    rfft.scalars.data(), &layout)
              .ok());
  std::vector<char> real = f64 ? randomBytes<double>(layout[0].bytes / 8, rng)
                               : randomBytes<float>(layout[0].bytes / 4, rng);
  std::vector<char> half(layout[1].bytes);
  REQUIRE(cpu::fourier(problem.dtype, reinterpret_cast<intptr_t>(real.data()),
                       reinterpret_cast<intptr_t>(half.data()),
                       rfft.scalars.data())
              .ok());
  return half;
}

/// Runs `problem` on the library route of `device` and with FFTW on the
/// host; compares the outputs and checks the input is unchanged.
void compareWithHost(GpuDevice &device, const LinearAlgebraProblem &problem,
                     std::mt19937 &rng) {
  std::vector<cpu::LinearAlgebraBuffer> layout;
  REQUIRE(cpu::linearAlgebraBuffers(problem.op, problem.dtype,
                                    problem.scalars.data(), &layout)
              .ok());
  std::vector<char> in = inputOf(problem, layout[0].bytes, rng);
  std::vector<char> want(layout[1].bytes);
  REQUIRE(cpu::fourier(problem.dtype, reinterpret_cast<intptr_t>(in.data()),
                       reinterpret_cast<intptr_t>(want.data()),
                       problem.scalars.data())
              .ok());
  void *buffers[4] = {};
  REQUIRE(device.allocate(layout[0].bytes, &buffers[0]).ok());
  REQUIRE(device.allocate(layout[1].bytes, &buffers[1]).ok());
  REQUIRE(device.copyHostToDevice(buffers[0], in.data(), in.size()).ok());
  setenv("ADJOINT_GPU_LINALG", "library", 1);
  int64_t ticket = -1;
  Status status = device.linearAlgebraBegin(problem, buffers, &ticket);
  unsetenv("ADJOINT_GPU_LINALG");
  REQUIRE(status.ok());
  CHECK(ticket == ADJ_RT_GPU_LINALG_DONE);
  REQUIRE(device.linearAlgebraEnd(ticket).ok());
  std::vector<char> got(want.size()), after(in.size());
  REQUIRE(device.copyDeviceToHost(got.data(), buffers[1], got.size()).ok());
  REQUIRE(device.copyDeviceToHost(after.data(), buffers[0], after.size())
              .ok());
  CHECK(after == in);
  bool f64 = problem.dtype == DType::F64;
  double tolerance = f64 ? 1e-12 : 2e-5;
  for (size_t i = 0; i < got.size() / (f64 ? 8 : 4); ++i) {
    double g, w;
    if (f64) {
      std::memcpy(&g, got.data() + 8 * i, 8);
      std::memcpy(&w, want.data() + 8 * i, 8);
    } else {
      float gf, wf;
      std::memcpy(&gf, got.data() + 4 * i, 4);
      std::memcpy(&wf, want.data() + 4 * i, 4);
      g = gf;
      w = wf;
    }
    INFO("transform " << problem.scalars[1] << " element " << i);
    CHECK(std::abs(g - w) <= tolerance * (1 + std::abs(w)) * 8);
  }
  device.deallocate(buffers[0]);
  device.deallocate(buffers[1]);
}

LinearAlgebraProblem fft(DType dtype, int64_t batch, int64_t type,
                         std::vector<int64_t> lengths) {
  LinearAlgebraProblem p{ADJ_RT_GPU_FFT, dtype, {batch, type,
                                                 int64_t(lengths.size()), 1,
                                                 1, 1, 0}};
  for (size_t i = 0; i < lengths.size(); ++i)
    p.scalars[3 + i] = lengths[i];
  return p;
}

/// Every transform (one to three axes, odd and even real lengths, both
/// types) through `id`'s library route, 9 problems per type; false where
/// the device or FFTW is missing.
bool everyTransform(const char *id, GpuDevice **out) {
  Device *found = test::deviceOrSkip(id);
  if (!found)
    return false;
  if (!cpu::fourierAvailable(DType::F64)) {
    WARN("skipped, no FFTW to compare with");
    return false;
  }
  auto &device = static_cast<GpuDevice &>(*found);
  std::mt19937 rng(5);
  for (DType dtype : {DType::F32, DType::F64}) {
    INFO("dtype " << dtypeName(dtype));
    compareWithHost(device, fft(dtype, 3, 0, {8}), rng);
    compareWithHost(device, fft(dtype, 2, 1, {4, 6}), rng);
    compareWithHost(device, fft(dtype, 1, 0, {2, 3, 4}), rng);
    for (int64_t n : {10, 9}) {
      compareWithHost(device, fft(dtype, 2, 2, {n}), rng);
      compareWithHost(device, fft(dtype, 2, 3, {n}), rng);
    }
    compareWithHost(device, fft(dtype, 2, 2, {4, 6}), rng);
    compareWithHost(device, fft(dtype, 2, 3, {4, 6}), rng);
  }
  *out = &device;
  return true;
}

} // namespace

TEST_CASE("cuFFT computes every transform as FFTW does", "[gpu][cuda-fft]") {
  GpuDevice *device = nullptr;
  if (!everyTransform("cuda:0", &device))
    return;
  FakeSolverJournal *cufft = findFakeSolverJournal("libcufft.so.12");
  REQUIRE(cufft);
  // One plan per problem, each executed once, on the device's stream.
  CHECK(cufft->handles == 18);
  REQUIRE(cufft->calls.size() == 18);
  CHECK(cufft->calls[0] == "C2C 8 batch 3 forward");
  CHECK(cufft->calls[1] == "C2C 4 6 batch 2 inverse");
  CHECK(cufft->calls[4] == "C2R 10 batch 2");
  CHECK(cufft->calls[17] == "Z2D 4 6 batch 2");
  CHECK(cufft->stream ==
        reinterpret_cast<const void *>(device->nativeStream()));
  // The inverses (ifft, irfft: 4 per type) scaled by cuBLAS.
  FakeSolverJournal *blas = findFakeSolverJournal("libcublas.so.13");
  REQUIRE(blas);
  size_t scales = 0;
  for (const std::string &call : blas->calls)
    scales += call.rfind("scal ", 0) == 0;
  CHECK(scales == 8);

  // Again: the plans are reused.
  std::mt19937 rng(6);
  compareWithHost(*device, fft(DType::F64, 3, 0, {8}), rng);
  CHECK(cufft->handles == 18);
  CHECK(cufft->calls.size() == 19);
}

TEST_CASE("rocFFT computes every transform as FFTW does", "[gpu][hip-fft]") {
  GpuDevice *device = nullptr;
  if (!everyTransform("hip:0", &device))
    return;
  FakeSolverJournal *rocfft = findFakeSolverJournal("librocfft.so.0");
  REQUIRE(rocfft);
  CHECK(rocfft->handles == 18);
  REQUIRE(rocfft->calls.size() == 18);
  CHECK(rocfft->calls[0] == "complex_forward 8 batch 3");
  CHECK(rocfft->calls[1] == "complex_inverse 4 6 batch 2");
  CHECK(rocfft->calls[2] == "complex_forward 2 3 4 batch 1");
  CHECK(rocfft->calls[4] == "real_inverse 10 batch 2");
  CHECK(rocfft->calls[17] == "real_inverse 4 6 batch 2");
  CHECK(rocfft->stream ==
        reinterpret_cast<const void *>(device->nativeStream()));
  FakeRocblasJournal *blas = findFakeRocblasJournal();
  REQUIRE(blas);
  CHECK(blas->scals.size() == 8);
}

TEST_CASE("FFTW keeps the plans of the configurations used last",
          "[fft][fftw]") {
  if (!cpu::fourierAvailable(DType::F64)) {
    WARN("skipped, no FFTW");
    return;
  }
  // ESTIMATE plans: a few hundred of them cost milliseconds.
  const char *before = std::getenv("ADJOINT_FFTW_PLANNER");
  std::string saved = before ? before : "";
  setenv("ADJOINT_FFTW_PLANNER", "estimate", 1);
  // The fft of the impulse at index 1 is exp(-2 pi i k / n).
  auto check = [](int64_t n) {
    std::vector<double> in(2 * n, 0.0), out(2 * n);
    in[n > 1 ? 2 : 0] = 1.0;
    int64_t scalars[] = {1, 0, 1, n, 1, 1};
    REQUIRE(cpu::fourier(DType::F64, reinterpret_cast<intptr_t>(in.data()),
                         reinterpret_cast<intptr_t>(out.data()), scalars)
                .ok());
    int64_t k = n - 1;
    double angle = n > 1 ? -2 * M_PI * double(k) / double(n) : 0.0;
    CHECK(out[2 * k] == Approx(std::cos(angle)).margin(1e-12));
    CHECK(out[2 * k + 1] == Approx(std::sin(angle)).margin(1e-12));
  };
  size_t capacity = cpu::fftwPlanCapacity();
  for (int64_t n = 1; n <= int64_t(capacity) + 20; ++n) {
    INFO("n " << n);
    check(n);
  }
  CHECK(cpu::fftwPlansKept(DType::F64) == capacity);
  // Length 1's plan was dropped: it is made again.
  check(1);
  check(2);
  CHECK(cpu::fftwPlansKept(DType::F64) == capacity);
  if (before)
    setenv("ADJOINT_FFTW_PLANNER", saved.c_str(), 1);
  else
    unsetenv("ADJOINT_FFTW_PLANNER");
}
