//===- Fftw.h - FFTW through dlopen -----------------------------*- C++ -*-===//
//
// adj.fft's CPU kernels (KernelsFourier.cpp) run FFTW, loaded with dlopen
// on their first call as LAPACK is (Lapack.h), so the runtime builds and
// runs without it. FFTW was chosen by measurement (docs/cpu-backend.md,
// "FFT"): with planning by measurement it is faster than numpy's pocketfft
// and Eigen's kissfft on every size measured.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CPU_FFTW_H
#define ADJOINT_LIB_RUNTIME_CPU_FFTW_H

#include <cstddef>

namespace adjoint::rt::cpu {

/// FFTW's fftw_iodim64: a dimension of `n` points, `is`/`os` elements
/// apart in the input/output.
struct FftwIoDim {
  std::ptrdiff_t n, is, os;
};

/// The routines of Fftw.def for the real type `R` (float or double).
template <typename R> struct FftwRoutines {
  using C = R[2];
  using Plan = void *;
  using IoDim = FftwIoDim;
#define ADJ_FFTW_FN(name, result, params) result(*name) params = nullptr;
#include "CPU/Fftw.def"
};

/// The routines, loaded on the first call from libfftw3.so.3 (double) or
/// libfftw3f.so.3 (float), or from the paths in ADJOINT_FFTW /
/// ADJOINT_FFTWF when set; nullptr when the library does not load or
/// lacks a routine. Never throws.
template <typename R> const FftwRoutines<R> *fftw() noexcept;
/// Why fftw<R>() is nullptr: the library tried and the package to
/// install. Empty while it is not.
template <typename R> const char *fftwError() noexcept;

/// FFTW's constants (fftw3.h).
constexpr int kFftwForward = -1, kFftwBackward = +1;
constexpr unsigned kFftwMeasure = 0, kFftwUnaligned = 1u << 1,
                   kFftwEstimate = 1u << 6;

} // namespace adjoint::rt::cpu

#endif // ADJOINT_LIB_RUNTIME_CPU_FFTW_H
