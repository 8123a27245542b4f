//===- OneDnn.cpp - oneDNN's f32 GEMM through dlopen ----------------------===//

#include "CPU/OneDnn.h"
#include "DynamicLibrary.h"

#include <algorithm>
#include <utility>

using namespace adjoint::rt;

namespace {

struct OneDnnApi {
#define ADJ_ONEDNN_FN(name, params) int(*name) params = nullptr;
#include "CPU/OneDnn.def"
  /// OpenMP's thread count of the calling thread (Debian's oneDNN runs on
  /// libgomp, a dependency of libdnnl, so they resolve through its handle).
  /// Absent for a oneDNN built sequential or on TBB.
  int (*omp_get_max_threads)() = nullptr;
  void (*omp_set_num_threads)(int) = nullptr;
};

const OneDnnApi *api() noexcept {
  try {
    auto resolveAll = [](const DynamicLibrary &library,
                         OneDnnApi &table) {
      resolveOptional(library, "omp_get_max_threads",
                           &table.omp_get_max_threads);
      resolveOptional(library, "omp_set_num_threads",
                           &table.omp_set_num_threads);
      Status status;
#define ADJ_ONEDNN_FN(name, params)                                            \
  if (status.ok())                                                             \
    status = resolve(library, #name, &table.name);
#include "CPU/OneDnn.def"
      return status;
    };
    const OneDnnApi *table = nullptr;
    if (loadDriver({"libdnnl.so.3", "libdnnl.so.2"}, resolveAll, &table)
            .ok())
      return table;
  } catch (...) {
    // No memory for the status's message: run without oneDNN.
  }
  return nullptr;
}

/// One operand as dnnl_sgemm takes it: row-major ('N', element (i, j) at
/// i * ld + j) or its transpose ('T', at j * ld + i).
struct Operand {
  char trans;
  int64_t ld;
};

/// How `v` is passed, or trans = 0 when it cannot be. A size-1 dimension's
/// stride is never used, so it neither decides the layout nor bounds ld.
template <typename T>
Operand operandOf(const MatrixView<T> &v) {
  if (v.colStride == 1 || v.cols == 1) {
    int64_t ld = v.rows == 1 ? std::max<int64_t>(v.cols, 1) : v.rowStride;
    if (ld >= std::max<int64_t>(v.cols, 1))
      return {'N', ld};
  }
  if (v.rowStride == 1 || v.rows == 1) {
    int64_t ld = v.cols == 1 ? std::max<int64_t>(v.rows, 1) : v.colStride;
    if (ld >= std::max<int64_t>(v.rows, 1))
      return {'T', ld};
  }
  return {0, 0};
}

template <typename T>
MatrixView<T> transposed(const MatrixView<T> &v) {
  return {v.data, v.cols, v.rows, v.colStride, v.rowStride};
}

} // namespace

bool adjoint::rt::cpu::oneDnnAvailable() noexcept { return api() != nullptr; }

bool adjoint::rt::cpu::oneDnnGemm(const MatrixView<const float> &a,
                                  const MatrixView<const float> &b,
                                  const MatrixView<float> &c,
                                  bool accumulate) noexcept {
  const OneDnnApi *dnnl = api();
  if (!dnnl)
    return false;
  // dnnl_sgemm writes a row-major C; a column-major one is computed as its
  // transpose, C^T = B^T A^T, with the operands' roles swapped.
  MatrixView<const float> lhs = a, rhs = b;
  MatrixView<float> out = c;
  Operand oc = operandOf(c);
  if (oc.trans == 'T') {
    lhs = transposed(b);
    rhs = transposed(a);
    out = transposed(c);
    oc = {'N', oc.ld};
  }
  Operand oa = operandOf(lhs), ob = operandOf(rhs);
  if (oc.trans != 'N' || !oa.trans || !ob.trans)
    return false;
  // The runtime's pool already splits the product: oneDNN's OpenMP team
  // would only add threads fighting the pool's for the same cores. The
  // caller's OpenMP setting is restored for other OpenMP code.
  int ompThreads = dnnl->omp_get_max_threads ? dnnl->omp_get_max_threads() : 1;
  if (ompThreads != 1 && dnnl->omp_set_num_threads)
    dnnl->omp_set_num_threads(1);
  int status = dnnl->dnnl_sgemm(oa.trans, ob.trans, out.rows, out.cols,
                                lhs.cols, 1.0f, lhs.data, oa.ld, rhs.data,
                                ob.ld, accumulate ? 1.0f : 0.0f, out.data,
                                oc.ld);
  if (ompThreads != 1 && dnnl->omp_set_num_threads)
    dnnl->omp_set_num_threads(ompThreads);
  return status == 0;
}
