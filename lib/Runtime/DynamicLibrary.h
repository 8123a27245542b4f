//===- DynamicLibrary.h - Drivers loaded with dlopen ------------*- C++ -*-===//
//
// Vendor libraries are never linked: GPU drivers and their libraries, and
// the CPU's LAPACK, FFTW and oneDNN alike. Each folder lists its entry
// points in an X-macro table and resolves them from the library at run
// time, so the runtime builds and runs everywhere and a missing library is
// a Status.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_DYNAMICLIBRARY_H
#define ADJOINT_LIB_RUNTIME_DYNAMICLIBRARY_H

#include "adjoint/Runtime/Status.h"

#include <initializer_list>
#include <mutex>
#include <string>

namespace adjoint::rt {

/// A shared library opened for the life of the process (drivers start
/// threads and register handlers that must not be unloaded under them).
class DynamicLibrary {
public:
  /// Opens `soname`; Unavailable "<soname> not found (<dlerror>)" otherwise.
  Status open(const char *soname);
  /// Opens the first of `sonames` that loads (a driver whose soname carries
  /// its major version: the newest first); Unavailable "<first>, ... or
  /// <last> not found (<dlerror of the first>)" when none does.
  Status openFirst(std::initializer_list<const char *> sonames);
  /// Opens the path in the environment variable `variable` when it is set
  /// (a wheel's copy, which no library path names), else the first of
  /// `sonames` that loads; Unavailable "<what> unavailable: <variable>=
  /// <path>: <reason>" or "<what> unavailable: <reason>" otherwise.
  Status openOverridable(const char *what, const char *variable,
                         std::initializer_list<const char *> sonames);
  /// The address of `symbol`, or nullptr.
  void *symbol(const char *symbol) const;
  const std::string &soname() const { return soname_; }

private:
  void *handle_ = nullptr;
  std::string soname_;
};

/// Resolves `symbol` of `library` into `*slot`; Unavailable naming both
/// when it is missing (a driver older than the entry point).
template <typename Fn>
Status resolve(const DynamicLibrary &library, const char *symbol, Fn *slot) {
  *slot = reinterpret_cast<Fn>(library.symbol(symbol));
  if (*slot)
    return Status::success();
  return Status::error(StatusCode::Unavailable,
                       library.soname() + " lacks " + symbol);
}

/// Resolves `symbol` of `library` into `*slot`, nullptr when it is missing:
/// an entry point the caller can do without (a newer driver's extra).
template <typename Fn>
void resolveOptional(const DynamicLibrary &library, const char *symbol,
                     Fn *slot) {
  *slot = reinterpret_cast<Fn>(library.symbol(symbol));
}

/// The entry-point table of a driver, filled once per process: opens
/// `soname` and runs `resolveAll(library, table)` on the first call; every
/// call returns that first status. The library stays open for good.
/// `sonames` are tried in order (DynamicLibrary::openFirst).
template <typename Table, typename ResolveAll>
Status loadDriver(std::initializer_list<const char *> sonames,
                  ResolveAll resolveAll, const Table **out) {
  static Table table;
  static Status status;
  static std::once_flag once;
  std::call_once(once, [&] {
    static DynamicLibrary library;
    status = library.openFirst(sonames);
    if (status.ok())
      status = resolveAll(library, table);
  });
  *out = &table;
  return status;
}

} // namespace adjoint::rt

#endif // ADJOINT_LIB_RUNTIME_DYNAMICLIBRARY_H
