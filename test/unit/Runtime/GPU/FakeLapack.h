//===- FakeLapack.h - LAPACK for the fake vendor solvers --------*- C++ -*-===//
//
// The fake cuSOLVER and rocSOLVER compute on host memory (the fake drivers'
// device memory) with the system's LAPACK, loaded here with dlopen as the
// runtime loads it: they are fakes of the libraries' interfaces, not of
// their arithmetic, and a wrong translation of layouts, triangles or jobs
// by the runtime gives a wrong answer.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKELAPACK_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKELAPACK_H

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <type_traits>
#include <vector>

namespace fake {

/// The Fortran routines whose signatures are the same for every T (orgqr
/// is ungqr for complex T).
template <typename T> struct Factorizations {
  void (*potrf)(const char *, const int *, T *, const int *, int *, size_t);
  void (*trsm)(const char *, const char *, const char *, const char *,
               const int *, const int *, const T *, const T *, const int *,
               T *, const int *, size_t, size_t, size_t, size_t);
  void (*getrf)(const int *, const int *, T *, const int *, int *, int *);
  void (*geqrf)(const int *, const int *, T *, const int *, T *, T *,
                const int *, int *);
  void (*orgqr)(const int *, const int *, const int *, T *, const int *,
                const T *, T *, const int *, int *);
};

/// The Fortran routines used, for T = float or double.
template <typename T> struct Lapack : Factorizations<T> {
  void (*syevd)(const char *, const char *, const int *, T *, const int *,
                T *, T *, const int *, int *, const int *, int *, size_t,
                size_t);
  void (*gesvd)(const char *, const char *, const int *, const int *, T *,
                const int *, T *, T *, const int *, T *, const int *, T *,
                const int *, int *, size_t, size_t);
};

/// The complex routines (c, z) under the real ones' names: orgqr is ungqr,
/// syevd heevd (with its real workspace), gesvd takes a real workspace;
/// values are real.
template <typename R>
struct Lapack<std::complex<R>> : Factorizations<std::complex<R>> {
  using T = std::complex<R>;
  void (*syevd)(const char *, const char *, const int *, T *, const int *,
                R *, T *, const int *, R *, const int *, int *, const int *,
                int *, size_t, size_t);
  void (*gesvd)(const char *, const char *, const int *, const int *, T *,
                const int *, R *, T *, const int *, T *, const int *, T *,
                const int *, R *, int *, size_t, size_t);
};

/// The type letter of T's routines.
template <typename T> const char *letterOf() {
  if constexpr (std::is_same_v<T, float>)
    return "s";
  else if constexpr (std::is_same_v<T, double>)
    return "d";
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return "c";
  else
    return "z";
}

/// The routines of OpenBLAS or else liblapack.so.3; the process ends with
/// a message when neither loads (the tests need one).
template <typename T> const Lapack<T> &lapack() {
  static const Lapack<T> table = [] {
    void *library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library)
      library = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      std::fprintf(stderr, "fake solver: no LAPACK to compute with\n");
      std::abort();
    }
    std::string letter = letterOf<T>();
    constexpr bool complex = !std::is_floating_point_v<T>;
    auto get = [&](const char *name, auto *slot) {
      *slot = reinterpret_cast<std::remove_pointer_t<decltype(slot)>>(
          dlsym(library, (letter + name + "_").c_str()));
      if (!*slot) {
        std::fprintf(stderr, "fake solver: LAPACK lacks %s\n", name);
        std::abort();
      }
    };
    Lapack<T> routines;
    get("potrf", &routines.potrf);
    get("trsm", &routines.trsm);
    get("getrf", &routines.getrf);
    get("geqrf", &routines.geqrf);
    get(complex ? "ungqr" : "orgqr", &routines.orgqr);
    get(complex ? "heevd" : "syevd", &routines.syevd);
    get("gesvd", &routines.gesvd);
    return routines;
  }();
  return table;
}

/// Runs a routine that takes a workspace (work, lwork) after asking it
/// for the size: `call(work, lwork)`, with lwork = -1 for the query.
template <typename T, typename Call> void withWork(Call call) {
  T query = 1;
  call(&query, -1);
  std::vector<T> work(std::max(1, int(std::ceil(std::real(query)))));
  call(work.data(), int(work.size()));
}

/// The type of T's eigen- and singular values.
template <typename T> using RealOf = decltype(std::real(T()));

/// syevd (heevd for complex T, with its real workspace) of the n x n
/// column-major `a`: eigenvalues into `w`, vectors over `a` for job "V".
template <typename T>
void eigenSolve(const char *job, const char *uplo, int n, T *a, int lda,
                RealOf<T> *w, int *info) {
  const Lapack<T> &la = lapack<T>();
  auto call = [&](T *work, int lw, RealOf<T> *rwork, int lrw, int *iwork,
                  int liw) {
    if constexpr (std::is_floating_point_v<T>)
      la.syevd(job, uplo, &n, a, &lda, w, work, &lw, iwork, &liw, info, 1,
               1);
    else
      la.syevd(job, uplo, &n, a, &lda, w, work, &lw, rwork, &lrw, iwork,
               &liw, info, 1, 1);
  };
  T query = 1;
  RealOf<T> rquery = 1;
  int iquery = 1;
  call(&query, -1, &rquery, -1, &iquery, -1);
  std::vector<T> work(std::max(1, int(std::real(query))));
  std::vector<RealOf<T>> rwork(std::max(1, int(rquery)));
  std::vector<int> iwork(std::max(1, iquery));
  call(work.data(), int(work.size()), rwork.data(), int(rwork.size()),
       iwork.data(), int(iwork.size()));
}

/// gesvd (with the real workspace of complex T) of the m x n column-major
/// `a`, jobs "A", "S" or "N"; `u` and `vt` may be null for "N".
template <typename T>
void singularSolve(const char *ju, const char *jv, int m, int n, T *a,
                   int lda, RealOf<T> *s, T *u, int ldu, T *vt, int ldvt,
                   int *info) {
  T dummy[1];
  int one = 1;
  std::vector<RealOf<T>> rwork(std::max(1, 5 * std::min(m, n)));
  withWork<T>([&](T *w, int lw) {
    int *lu = ju[0] == 'N' ? &one : &ldu, *lv = jv[0] == 'N' ? &one : &ldvt;
    if constexpr (std::is_floating_point_v<T>)
      lapack<T>().gesvd(ju, jv, &m, &n, a, &lda, s, u ? u : dummy, lu,
                        vt ? vt : dummy, lv, w, &lw, info, 1, 1);
    else
      lapack<T>().gesvd(ju, jv, &m, &n, a, &lda, s, u ? u : dummy, lu,
                        vt ? vt : dummy, lv, w, &lw, rwork.data(), info, 1,
                        1);
  });
}

} // namespace fake

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKELAPACK_H
