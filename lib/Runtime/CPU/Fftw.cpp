//===- Fftw.cpp - FFTW through dlopen -------------------------------------===//

#include "CPU/Fftw.h"
#include "DynamicLibrary.h"

#include <cstdlib>
#include <mutex>
#include <string>

using namespace adjoint::rt;

namespace {

template <typename R> struct Precision;
template <> struct Precision<double> {
  static constexpr const char *prefix = "fftw_";
  static constexpr const char *soname = "libfftw3.so.3";
  static constexpr const char *variable = "ADJOINT_FFTW";
  static constexpr const char *package = "libfftw3-double3";
};
template <> struct Precision<float> {
  static constexpr const char *prefix = "fftwf_";
  static constexpr const char *soname = "libfftw3f.so.3";
  static constexpr const char *variable = "ADJOINT_FFTWF";
  static constexpr const char *package = "libfftw3-single3";
};

template <typename R>
Status resolveRoutines(const DynamicLibrary &library,
                       cpu::FftwRoutines<R> &table) {
  using C = typename cpu::FftwRoutines<R>::C;
  using Plan = typename cpu::FftwRoutines<R>::Plan;
  using IoDim = cpu::FftwIoDim;
  Status status;
#define ADJ_FFTW_FN(name, result, params)                                      \
  if (status.ok())                                                             \
    status = resolve(                                                     \
        library, (std::string(Precision<R>::prefix) + #name).c_str(),          \
        &table.name);
#include "CPU/Fftw.def"
  return status;
}

/// The table and, when it could not be had, why; filled once per type.
template <typename R> struct Loaded {
  const cpu::FftwRoutines<R> *table = nullptr;
  std::string error;
};

template <typename R> const Loaded<R> &loaded() noexcept {
  static Loaded<R> result;
  static std::once_flag once;
  try {
    std::call_once(once, [] {
      // The library in ADJOINT_FFTW(F) when it is set (to measure one
      // build against another, or to run without one), else Debian's.
      const char *path = std::getenv(Precision<R>::variable);
      const char *soname = path && *path ? path : Precision<R>::soname;
      static DynamicLibrary library;
      static cpu::FftwRoutines<R> table;
      Status status = library.open(soname);
      if (status.ok())
        status = resolveRoutines(library, table);
      if (status.ok()) {
        result.table = &table;
        return;
      }
      result.error = "adj.fft on the CPU needs FFTW: " + status.message();
      if (!(path && *path))
        result.error += std::string(" (Debian: apt-get install ") +
                        Precision<R>::package + ")";
    });
  } catch (...) {
    // No memory for a message: fftw() stays null and says so.
  }
  return result;
}

} // namespace

template <typename R> const cpu::FftwRoutines<R> *cpu::fftw() noexcept {
  return loaded<R>().table;
}

template <typename R> const char *cpu::fftwError() noexcept {
  const Loaded<R> &state = loaded<R>();
  if (state.table)
    return "";
  return state.error.empty() ? "FFTW could not be loaded"
                             : state.error.c_str();
}

template const cpu::FftwRoutines<float> *cpu::fftw<float>() noexcept;
template const cpu::FftwRoutines<double> *cpu::fftw<double>() noexcept;
template const char *cpu::fftwError<float>() noexcept;
template const char *cpu::fftwError<double>() noexcept;
