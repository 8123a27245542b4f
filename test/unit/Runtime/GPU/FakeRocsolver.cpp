//===- FakeRocsolver.cpp - rocSOLVER and rocBLAS's trsm on host memory ----===//
//
// Built as librocsolver.so.0 and put first on LD_LIBRARY_PATH by ctest for
// the hip device's solver route. The fake HIP runtime's device memory is
// host memory, so each routine computes at once with the system's LAPACK
// (FakeLapack.h) on the column-major matrices its arguments describe,
// checks what the real library checks (leading dimensions, the enums) and
// records the call (FakeSolver.h). The real librocsolver takes rocBLAS's
// handle and trsm from its dependency librocblas; this fake defines them
// itself, which the runtime cannot tell apart (it resolves them through
// rocSOLVER's handle). Nothing of AMD's is copied: the types are the
// runtime's declarations (lib/Runtime/HIP/Rocsolver.h).
//
//===----------------------------------------------------------------------===//

#include "FakeLapack.h"
#include "FakeSolver.h"
#include "HIP/Rocsolver.h"

#include <algorithm>

using namespace adjoint::rt::hip;

namespace {

constexpr rocblas_status kInvalidHandle = 1, kInvalidPointer = 3,
                         kInvalidSize = 4, kInvalidValue = 11;

struct Handle {
  hipStream_t stream = nullptr;
};

FakeSolverJournal &journal() {
  static FakeSolverJournal instance;
  return instance;
}

/// The type of T's eigen- and singular values.
template <typename T> using Real = fake::RealOf<T>;

template <typename T>
void record(const char *routine, std::initializer_list<int> sizes) {
  std::string call = std::string(routine) + " " + fake::letterOf<T>();
  for (int size : sizes)
    call += " " + std::to_string(size);
  journal().calls.push_back(std::move(call));
}

/// What the real library answers for a bad handle, size or pointer.
rocblas_status check(rocblas_handle handle, bool sizes, bool pointers) {
  auto *h = reinterpret_cast<Handle *>(handle);
  if (!h || !h->stream)
    return kInvalidHandle;
  if (!sizes)
    return kInvalidSize;
  return pointers ? rocblas_status_success : kInvalidPointer;
}

const char *uploOf(rocblas_fill uplo) {
  return uplo == rocblas_fill_upper ? "U" : "L";
}
bool knownFill(rocblas_fill uplo) {
  return uplo == rocblas_fill_upper || uplo == rocblas_fill_lower;
}

template <typename T>
rocblas_status potrf(rocblas_handle h, rocblas_fill uplo, int n, T *a,
                     int lda, int *info) {
  if (!knownFill(uplo))
    return kInvalidValue;
  if (rocblas_status s = check(h, n >= 0 && lda >= std::max(1, n), a && info))
    return s;
  record<T>("potrf", {n, lda});
  fake::lapack<T>().potrf(uploOf(uplo), &n, a, &lda, info, 1);
  return rocblas_status_success;
}

template <typename T>
rocblas_status getrf(rocblas_handle h, int m, int n, T *a, int lda, int *ipiv,
                     int *info) {
  if (rocblas_status s =
          check(h, m >= 0 && n >= 0 && lda >= std::max(1, m), a && ipiv && info))
    return s;
  record<T>("getrf", {m, n, lda});
  fake::lapack<T>().getrf(&m, &n, a, &lda, ipiv, info);
  return rocblas_status_success;
}

template <typename T>
rocblas_status geqrf(rocblas_handle h, int m, int n, T *a, int lda, T *tau) {
  if (rocblas_status s =
          check(h, m >= 0 && n >= 0 && lda >= std::max(1, m), a && tau))
    return s;
  record<T>("geqrf", {m, n, lda});
  int info = 0;
  fake::withWork<T>([&](T *w, int lw) {
    fake::lapack<T>().geqrf(&m, &n, a, &lda, tau, w, &lw, &info);
  });
  return rocblas_status_success;
}

template <typename T>
rocblas_status orgqr(rocblas_handle h, int m, int n, int k, T *a, int lda,
                     T *tau) {
  if (rocblas_status s = check(h, n <= m && k >= 0 && k <= n &&
                                      lda >= std::max(1, m),
                               a && tau))
    return s;
  record<T>("orgqr", {m, n, k, lda});
  int info = 0;
  fake::withWork<T>([&](T *w, int lw) {
    fake::lapack<T>().orgqr(&m, &n, &k, a, &lda, tau, w, &lw, &info);
  });
  return rocblas_status_success;
}

/// syevd, or heevd for complex T.
template <typename T>
rocblas_status syevd(rocblas_handle h, rocblas_evect evect, rocblas_fill uplo,
                     int n, T *a, int lda, Real<T> *d, Real<T> *e,
                     int *info) {
  if (!knownFill(uplo) ||
      (evect != rocblas_evect_original && evect != rocblas_evect_none))
    return kInvalidValue;
  if (rocblas_status s =
          check(h, n >= 0 && lda >= std::max(1, n), a && d && e && info))
    return s;
  record<T>("syevd", {n, lda, evect, uplo});
  const char *job = evect == rocblas_evect_original ? "V" : "N";
  fake::eigenSolve(job, uploOf(uplo), n, a, lda, d, info);
  return rocblas_status_success;
}

template <typename T>
rocblas_status gesvd(rocblas_handle h, rocblas_svect left, rocblas_svect right,
                     int m, int n, T *a, int lda, Real<T> *s, T *u, int ldu,
                     T *v, int ldv, Real<T> *e, rocblas_workmode, int *info) {
  auto letter = [](rocblas_svect job) {
    return job == rocblas_svect_all        ? 'A'
           : job == rocblas_svect_singular ? 'S'
           : job == rocblas_svect_none     ? 'N'
                                           : '?';
  };
  char ju[2] = {letter(left), 0}, jv[2] = {letter(right), 0};
  if (ju[0] == '?' || jv[0] == '?')
    return kInvalidValue;
  int k = std::min(m, n);
  bool sizes = m >= 0 && n >= 0 && lda >= std::max(1, m) &&
               (ju[0] == 'N' || ldu >= std::max(1, m)) &&
               (jv[0] == 'N' || ldv >= std::max(1, jv[0] == 'A' ? n : k));
  bool pointers = a && s && e && info && (ju[0] == 'N' || u) &&
                  (jv[0] == 'N' || v);
  if (rocblas_status status = check(h, sizes, pointers))
    return status;
  record<T>("gesvd", {m, n, lda, ldu, ldv, ju[0]});
  fake::singularSolve(ju, jv, m, n, a, lda, s, u, ldu, v, ldv, info);
  return rocblas_status_success;
}

template <typename T>
rocblas_status trsm(rocblas_handle h, rocblas_side side, rocblas_fill uplo,
                    rocblas_operation trans, rocblas_diagonal diag, int m,
                    int n, const T *alpha, const T *a, int lda, T *b,
                    int ldb) {
  if (!knownFill(uplo) ||
      (side != rocblas_side_left && side != rocblas_side_right))
    return kInvalidValue;
  int k = side == rocblas_side_left ? m : n;
  if (rocblas_status s = check(h, lda >= std::max(1, k) && ldb >= std::max(1, m),
                               alpha && a && b))
    return s;
  record<T>("trsm", {m, n, lda, ldb, side, uplo, trans, diag});
  fake::lapack<T>().trsm(side == rocblas_side_left ? "L" : "R", uploOf(uplo),
                         trans == rocblas_operation_transpose ? "T" : "N",
                         diag == rocblas_diagonal_unit ? "U" : "N", &m, &n,
                         alpha, a, &lda, b, &ldb, 1, 1, 1, 1);
  return rocblas_status_success;
}

} // namespace

// The entry points, for T = float (s), double (d), std::complex<float> (c)
// and std::complex<double> (z), whose orgqr and syevd are named `qr` and
// `ev` (ungqr and heevd for complex T).
#define ADJ_FAKE_TYPED(letter, T, qr, ev)                                      \
  rocblas_status rocsolver_##letter##potrf(rocblas_handle h, rocblas_fill uplo,\
                                           int n, T *a, int lda, int *info) {  \
    return potrf<T>(h, uplo, n, a, lda, info);                                 \
  }                                                                            \
  rocblas_status rocsolver_##letter##getrf(rocblas_handle h, int m, int n,     \
                                           T *a, int lda, int *ipiv,           \
                                           int *info) {                        \
    return getrf<T>(h, m, n, a, lda, ipiv, info);                              \
  }                                                                            \
  rocblas_status rocsolver_##letter##geqrf(rocblas_handle h, int m, int n,     \
                                           T *a, int lda, T *tau) {            \
    return geqrf<T>(h, m, n, a, lda, tau);                                     \
  }                                                                            \
  rocblas_status rocsolver_##letter##qr(rocblas_handle h, int m, int n, int k, \
                                        T *a, int lda, T *tau) {               \
    return orgqr<T>(h, m, n, k, a, lda, tau);                                  \
  }                                                                            \
  rocblas_status rocsolver_##letter##ev(                                       \
      rocblas_handle h, rocblas_evect evect, rocblas_fill uplo, int n, T *a,   \
      int lda, Real<T> *d, Real<T> *e, int *info) {                            \
    return syevd<T>(h, evect, uplo, n, a, lda, d, e, info);                    \
  }                                                                            \
  rocblas_status rocsolver_##letter##gesvd(                                    \
      rocblas_handle h, rocblas_svect left, rocblas_svect right, int m, int n, \
      T *a, int lda, Real<T> *s, T *u, int ldu, T *v, int ldv, Real<T> *e,     \
      rocblas_workmode mode, int *info) {                                      \
    return gesvd<T>(h, left, right, m, n, a, lda, s, u, ldu, v, ldv, e, mode,  \
                    info);                                                     \
  }                                                                            \
  rocblas_status rocblas_##letter##trsm(                                       \
      rocblas_handle h, rocblas_side side, rocblas_fill uplo,                  \
      rocblas_operation trans, rocblas_diagonal diag, int m, int n,            \
      const T *alpha, const T *a, int lda, T *b, int ldb) {                    \
    return trsm<T>(h, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb);   \
  }

extern "C" {

__attribute__((visibility("default"))) void *fakeSolverJournal() {
  return &journal();
}

rocblas_status rocblas_create_handle(rocblas_handle *handle) {
  *handle = reinterpret_cast<rocblas_handle>(new Handle);
  ++journal().handles;
  return rocblas_status_success;
}

rocblas_status rocblas_destroy_handle(rocblas_handle handle) {
  delete reinterpret_cast<Handle *>(handle);
  return rocblas_status_success;
}

rocblas_status rocblas_set_stream(rocblas_handle handle, hipStream_t stream) {
  reinterpret_cast<Handle *>(handle)->stream = stream;
  journal().stream = stream;
  return rocblas_status_success;
}

ADJ_FAKE_TYPED(s, float, orgqr, syevd)
ADJ_FAKE_TYPED(d, double, orgqr, syevd)
ADJ_FAKE_TYPED(c, std::complex<float>, ungqr, heevd)
ADJ_FAKE_TYPED(z, std::complex<double>, ungqr, heevd)

} // extern "C"

#undef ADJ_FAKE_TYPED
