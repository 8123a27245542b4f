//===- Lapack.cpp - LAPACK through dlopen ---------------------------------===//

#include "CPU/Lapack.h"
#include "DynamicLibrary.h"

#include <cstdlib>
#include <mutex>
#include <string>

using namespace adjoint::rt;

namespace {

#define ADJ_RESOLVE_LAPACK_FN(name, params)                                    \
  if (status.ok())                                                             \
    status = resolve(library,                                             \
                          (std::string(1, letter) + #name "_").c_str(),        \
                          &table.name);

template <typename T>
Status resolveRoutines(const DynamicLibrary &library, char letter,
                       cpu::LapackRoutines<T> &table) {
  Status status;
#define ADJ_LAPACK_FN ADJ_RESOLVE_LAPACK_FN
  if constexpr (std::is_floating_point_v<T>) {
#include "CPU/Lapack.def"
  } else {
#define ADJ_LAPACK_FN ADJ_RESOLVE_LAPACK_FN
#include "CPU/LapackComplex.def"
  }
  return status;
}
#undef ADJ_RESOLVE_LAPACK_FN

/// The table and, when it could not be had, why; filled once.
struct Loaded {
  const cpu::Lapack *table = nullptr;
  std::string error;
};

const Loaded &loaded() noexcept {
  static Loaded result;
  static std::once_flag once;
  try {
    std::call_once(once, [] {
      auto resolveAll = [](const DynamicLibrary &library,
                           cpu::Lapack &table) {
        Status s = resolveRoutines(library, 's', table.s);
        if (s.ok())
          s = resolveRoutines(library, 'd', table.d);
        if (s.ok())
          s = resolveRoutines(library, 'c', table.c);
        if (s.ok())
          s = resolveRoutines(library, 'z', table.z);
        return s;
      };
      // The library in ADJOINT_LAPACK alone when it is set (to measure
      // one LAPACK against another, or to run without one), else
      // OpenBLAS, else whatever provides Debian's liblapack.so.3.
      const char *path = std::getenv("ADJOINT_LAPACK");
      if (path && *path) {
        static DynamicLibrary chosen;
        static cpu::Lapack table;
        Status status = chosen.open(path);
        if (status.ok())
          status = resolveAll(chosen, table);
        if (status.ok())
          result.table = &table;
        else
          result.error = "the linear algebra kernels need LAPACK: "
                         "ADJOINT_LAPACK=" +
                         std::string(path) + ": " + status.message();
        return;
      }
      const cpu::Lapack *table = nullptr;
      Status status = loadDriver({"libopenblas.so.0", "liblapack.so.3"},
                                      resolveAll, &table);
      if (status.ok())
        result.table = table;
      else
        result.error = "the linear algebra kernels need LAPACK: " +
                       status.message() +
                       " (Debian: apt-get install libopenblas0-pthread)";
    });
  } catch (...) {
    // No memory for a message: lapack() stays null and says so.
  }
  return result;
}

} // namespace

const cpu::Lapack *cpu::lapack() noexcept { return loaded().table; }

const char *cpu::lapackError() noexcept {
  const Loaded &state = loaded();
  if (state.table)
    return "";
  return state.error.empty() ? "LAPACK could not be loaded"
                             : state.error.c_str();
}
