//===- Lapack.h - LAPACK through dlopen -------------------------*- C++ -*-===//
//
// The LinearAlgebra kernels (KernelsLinearAlgebra.cpp) call LAPACK, loaded
// with dlopen on their first call like oneDNN and the GPU drivers, so the
// runtime builds and runs without it and ahead-of-time compiled programs do
// not link it. OpenBLAS is preferred: its LAPACK runs on its own optimized
// BLAS and threads, within 1.2x of numpy's (which ships OpenBLAS) on
// solve, eigh and svd of 512x512 matrices, where the reference LAPACK on
// the reference BLAS is several times slower (docs/cpu-backend.md has the
// numbers). Any LP64 LAPACK that exports the Fortran symbols works.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CPU_LAPACK_H
#define ADJOINT_LIB_RUNTIME_CPU_LAPACK_H

#include "adjoint/Runtime/Status.h"

#include <complex>
#include <cstddef>
#include <type_traits>

namespace adjoint::rt::cpu {

/// The routines of Lapack.def for one real element type.
template <typename T> struct LapackRoutines {
#define ADJ_LAPACK_FN(name, params) void(*name) params = nullptr;
#include "CPU/Lapack.def"
};

/// The routines of LapackComplex.def for std::complex<R>.
template <typename R> struct LapackRoutines<std::complex<R>> {
  using T = std::complex<R>;
#define ADJ_LAPACK_FN(name, params) void(*name) params = nullptr;
#include "CPU/LapackComplex.def"
};

struct Lapack {
  LapackRoutines<float> s;
  LapackRoutines<double> d;
  LapackRoutines<std::complex<float>> c;
  LapackRoutines<std::complex<double>> z;

  template <typename T> const LapackRoutines<T> &routines() const {
    if constexpr (std::is_same_v<T, float>)
      return s;
    else if constexpr (std::is_same_v<T, double>)
      return d;
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      return c;
    else
      return z;
  }
};

/// The routines, loaded on the first call from libopenblas.so.0 or else
/// liblapack.so.3 (whatever Debian's alternatives point it at); nullptr
/// when neither loads or one lacks a routine. Never throws.
const Lapack *lapack() noexcept;
/// Why lapack() is nullptr: the libraries tried and the package to
/// install. Empty while it is not.
const char *lapackError() noexcept;

} // namespace adjoint::rt::cpu

#endif // ADJOINT_LIB_RUNTIME_CPU_LAPACK_H
