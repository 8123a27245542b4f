//===- Rocsolver.h - librocsolver through dlopen ----------------*- C++ -*-===//
//
// AMD's dense solvers: rocSOLVER's potrf, getrf, geqrf, orgqr, syevd and
// gesvd (ungqr and heevd for complex matrices), and rocBLAS's trsm, for
// f32, f64, c64 and c128, never linked: the enum values used are
// declared here with those of rocblas-types.h and rocsolver-extra-types.h
// (stable since ROCm 5), the entry points (Rocsolver.def) resolved on a hip
// device's first decomposition from librocsolver.so.0 and the rocBLAS it
// depends on (symbols are looked up in a library and then in its
// dependencies), so both run on the same rocBLAS and HIP runtime.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_ROCSOLVER_H
#define ADJOINT_LIB_RUNTIME_HIP_ROCSOLVER_H

#include "HIP/Rocblas.h"

#include <complex>

namespace adjoint::rt::hip {

enum rocblas_fill : int {
  rocblas_fill_upper = 121,
  rocblas_fill_lower = 122,
};
enum rocblas_diagonal : int {
  rocblas_diagonal_non_unit = 131,
  rocblas_diagonal_unit = 132,
};
enum rocblas_side : int {
  rocblas_side_left = 141,
  rocblas_side_right = 142,
};
enum rocblas_svect : int {
  rocblas_svect_all = 191,
  rocblas_svect_singular = 192,
  rocblas_svect_none = 194,
};
/// rocSOLVER before ROCm 4.1 took a bool here; any value reads as true.
enum rocblas_workmode : int {
  rocblas_outofplace = 201,
};
enum rocblas_evect : int {
  rocblas_evect_original = 211,
  rocblas_evect_none = 213,
};

/// R for std::complex<R>, else T: the type of eigen- and singular values.
template <typename T> struct RocsolverReal { using type = T; };
template <typename R> struct RocsolverReal<std::complex<R>> {
  using type = R;
};

/// The routines of Rocsolver.def for one element type.
template <typename T> struct RocsolverRoutines {
  using R = typename RocsolverReal<T>::type;
#define ADJ_ROCSOLVER_FN(prefix, name, params)                                 \
  rocblas_status(*name) params = nullptr;
#include "HIP/Rocsolver.def"
};

struct RocsolverApi {
  const char *(*rocblas_status_to_string)(rocblas_status status) = nullptr;
  rocblas_status (*rocblas_create_handle)(rocblas_handle *handle) = nullptr;
  rocblas_status (*rocblas_destroy_handle)(rocblas_handle handle) = nullptr;
  rocblas_status (*rocblas_set_stream)(rocblas_handle handle,
                                       hipStream_t stream) = nullptr;
  RocsolverRoutines<float> s;
  RocsolverRoutines<double> d;
  RocsolverRoutines<std::complex<float>> c;
  RocsolverRoutines<std::complex<double>> z;
};

/// The entry points, loaded once per process from librocsolver.so.0 (ROCm
/// 5 and 6) or the unversioned name; Unavailable with the reason otherwise.
Status loadRocsolver(const RocsolverApi **api);

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_ROCSOLVER_H
