//===- SolverLinearAlgebra.cpp - Decompositions by a vendor solver --------===//

#include "GPU/SolverLinearAlgebra.h"
#include "GPU/DeviceScratch.h"
#include "CPU/LinearAlgebraConventions.h"
#include "adjoint/Runtime/GpuABI.h"

#include <algorithm>
#include <climits>
#include <new>
#include <vector>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

// Every step below returns its Status; this ends the step on the first
// error (the scratch memory is given back by the destructors).
#define RETURN_IF_ERROR(expr)                                                  \
  do {                                                                         \
    if (Status status_ = (expr); !status_.ok())                                \
      return status_;                                                          \
  } while (false)

DenseSolver::~DenseSolver() = default;

namespace {

/// One decomposition of element type T (real or complex) on `device` with
/// `solver`.
template <typename T> struct Run {
  /// The type of eigen- and singular values.
  using R = cpu::RealOf<T>;
  Device &device;
  DenseSolver &solver;
  DType dtype;

  /// `count` elements of U at device address `src`, into `out`.
  template <typename U>
  Status download(std::vector<U> &out, const void *src, int64_t count) {
    out.resize(count);
    return device.copyDeviceToHost(out.data(), src, count * sizeof(U));
  }
  template <typename U> Status upload(void *dst, const std::vector<U> &in) {
    return device.copyHostToDevice(dst, in.data(), in.size() * sizeof(U));
  }
  /// `batch` infos of the solver's calls, zeroed before them (a library
  /// that reports nothing, as rocSOLVER's geqrf, leaves them so).
  Status infos(DeviceScratch &scratch, int64_t batch) {
    RETURN_IF_ERROR(scratch.allocate(batch * sizeof(int)));
    return device.fill(scratch.as<int>(), 0, batch * sizeof(int));
  }
  /// NaNs over the `count` values (eigen- or singular values) of each
  /// matrix whose info is not 0 in the device buffer `values`.
  Status markFailed(const std::vector<int> &failed, void *values,
                    int64_t count) {
    if (std::all_of(failed.begin(), failed.end(),
                    [](int code) { return code == 0; }))
      return Status::success();
    std::vector<R> host;
    RETURN_IF_ERROR(download(host, values, int64_t(failed.size()) * count));
    for (size_t i = 0; i < failed.size(); ++i)
      if (failed[i])
        cpu::fillNaN(host.data() + i * count, count);
    return upload(values, host);
  }
  static T *at(void *base, int64_t offset) {
    return static_cast<T *>(base) + offset;
  }
  static R *realAt(void *base, int64_t offset) {
    return static_cast<R *>(base) + offset;
  }

  Status cholesky(void *const *b, int64_t batch, int64_t n) {
    int size = int(n);
    RETURN_IF_ERROR(device.copyDeviceToDevice(b[1], b[0],
                                              batch * n * n * sizeof(T)));
    DeviceScratch info(device);
    RETURN_IF_ERROR(infos(info, batch));
    RETURN_IF_ERROR(solver.withDevice([&]() -> Status {
      for (int64_t i = 0; i < batch; ++i)
        RETURN_IF_ERROR(solver.potrf(dtype, size, at(b[1], i * n * n), size,
                                     info.as<int>() + i));
      return Status::success();
    }));
    std::vector<T> l;
    std::vector<int> failed;
    RETURN_IF_ERROR(download(l, b[1], batch * n * n));
    RETURN_IF_ERROR(download(failed, info.as<int>(), batch));
    for (int64_t i = 0; i < batch; ++i) {
      if (failed[i])
        cpu::fillNaN(l.data() + i * n * n, n * n);
      else
        cpu::clearAboveDiagonal(l.data() + i * n * n, n);
    }
    return upload(b[1], l);
  }

  Status triangularSolve(void *const *b, const int64_t *s) {
    int64_t batch = s[0], rows = s[1], cols = s[2];
    bool leftSide = s[3], lower = s[4];
    int64_t k = leftSide ? rows : cols;
    RETURN_IF_ERROR(device.copyDeviceToDevice(
        b[2], b[1], batch * rows * cols * sizeof(T)));
    // X^T is cols x rows column-major: op(A) X = B is X^T op(A)^T = B^T, a
    // solve on the other side, and A's buffer read column-major is A^T,
    // upper where A is lower.
    TriangularSolveFlags flags{!leftSide, lower, s[5] != 0, s[6] != 0};
    return solver.withDevice([&]() -> Status {
      for (int64_t i = 0; i < batch; ++i)
        RETURN_IF_ERROR(solver.trsm(dtype, flags, int(cols), int(rows),
                                    at(b[0], i * k * k), int(k),
                                    at(b[2], i * rows * cols), int(cols)));
      return Status::success();
    });
  }

  /// A's matrices column-major in a new device scratch of `width` >= n
  /// columns per matrix.
  Status columnMajorCopy(const void *a, int64_t batch, int64_t m, int64_t n,
                         int64_t width, DeviceScratch &out) {
    std::vector<T> rowMajor, columnMajor(batch * m * width);
    RETURN_IF_ERROR(download(rowMajor, a, batch * m * n));
    for (int64_t i = 0; i < batch; ++i)
      cpu::transpose(rowMajor.data() + i * m * n,
                     columnMajor.data() + i * m * width, m, n);
    RETURN_IF_ERROR(out.allocate(columnMajor.size() * sizeof(T)));
    return upload(out.as<T>(), columnMajor);
  }

  Status lu(void *const *b, int64_t batch, int64_t m, int64_t n) {
    int64_t k = std::min(m, n);
    DeviceScratch factored(device), ipiv(device), info(device);
    RETURN_IF_ERROR(columnMajorCopy(b[0], batch, m, n, n, factored));
    RETURN_IF_ERROR(ipiv.allocate(batch * k * sizeof(int)));
    RETURN_IF_ERROR(infos(info, batch));
    RETURN_IF_ERROR(solver.withDevice([&]() -> Status {
      for (int64_t i = 0; i < batch; ++i)
        // info > 0 is an exactly zero pivot: the factorization is still
        // complete (U is singular), as the op defines.
        RETURN_IF_ERROR(solver.getrf(dtype, int(m), int(n),
                                     factored.as<T>() + i * m * n, int(m),
                                     ipiv.as<int>() + i * k,
                                     info.as<int>() + i));
      return Status::success();
    }));
    std::vector<T> columnMajor, result(batch * m * n);
    std::vector<int> interchanges;
    std::vector<int32_t> pivots(batch * k), perm(batch * m);
    RETURN_IF_ERROR(download(columnMajor, factored.as<T>(), batch * m * n));
    RETURN_IF_ERROR(download(interchanges, ipiv.as<int>(), batch * k));
    for (int64_t i = 0; i < batch; ++i) {
      cpu::transpose(columnMajor.data() + i * m * n, result.data() + i * m * n,
                     n, m);
      cpu::pivotsAndPermutation(interchanges.data() + i * k, k, m,
                                pivots.data() + i * k, perm.data() + i * m);
    }
    RETURN_IF_ERROR(upload(b[1], result));
    RETURN_IF_ERROR(upload(b[2], pivots));
    return upload(b[3], perm);
  }

  Status qr(void *const *b, int64_t batch, int64_t m, int64_t n, bool full) {
    int64_t k = std::min(m, n), kq = full ? m : k, width = std::max(n, kq);
    // Column-major m x width per matrix: A, then Q's kq columns in place.
    DeviceScratch factored(device), tau(device), info(device);
    RETURN_IF_ERROR(columnMajorCopy(b[0], batch, m, n, width, factored));
    RETURN_IF_ERROR(tau.allocate(batch * k * sizeof(T)));
    RETURN_IF_ERROR(infos(info, batch));
    auto matrix = [&](int64_t i) { return factored.as<T>() + i * m * width; };
    RETURN_IF_ERROR(solver.withDevice([&]() -> Status {
      for (int64_t i = 0; i < batch; ++i)
        RETURN_IF_ERROR(solver.geqrf(dtype, int(m), int(n), matrix(i), int(m),
                                     tau.as<T>() + i * k, info.as<int>() + i));
      return Status::success();
    }));
    std::vector<T> columnMajor, r(batch * kq * n), q(batch * m * kq);
    RETURN_IF_ERROR(
        download(columnMajor, factored.as<T>(), batch * m * width));
    for (int64_t i = 0; i < batch; ++i)
      cpu::upperTriangleOf(columnMajor.data() + i * m * width, m, n, kq,
                           r.data() + i * kq * n);
    RETURN_IF_ERROR(solver.withDevice([&]() -> Status {
      for (int64_t i = 0; i < batch; ++i)
        RETURN_IF_ERROR(solver.orgqr(dtype, int(m), int(kq), int(k),
                                     matrix(i), int(m), tau.as<T>() + i * k,
                                     info.as<int>() + i));
      return Status::success();
    }));
    RETURN_IF_ERROR(
        download(columnMajor, factored.as<T>(), batch * m * width));
    for (int64_t i = 0; i < batch; ++i)
      cpu::transpose(columnMajor.data() + i * m * width,
                     q.data() + i * m * kq, kq, m);
    RETURN_IF_ERROR(upload(b[1], q));
    return upload(b[2], r);
  }

  Status eigh(void *const *b, int64_t batch, int64_t n, bool upper,
              bool vectors) {
    // Without vectors the matrices are overwritten in a scratch copy (V is
    // left unwritten: nothing reads it).
    DeviceScratch copy(device), info(device);
    void *matrices = b[2];
    if (!vectors) {
      RETURN_IF_ERROR(copy.allocate(batch * n * n * sizeof(T)));
      matrices = copy.as<T>();
    }
    RETURN_IF_ERROR(device.copyDeviceToDevice(matrices, b[0],
                                              batch * n * n * sizeof(T)));
    RETURN_IF_ERROR(infos(info, batch));
    RETURN_IF_ERROR(solver.withDevice([&]() -> Status {
      for (int64_t i = 0; i < batch; ++i)
        // A's lower triangle is A^T's upper one.
        RETURN_IF_ERROR(solver.syevd(dtype, vectors, !upper, int(n),
                                     at(matrices, i * n * n), int(n),
                                     realAt(b[1], i * n),
                                     info.as<int>() + i));
      return Status::success();
    }));
    std::vector<int> failed;
    RETURN_IF_ERROR(download(failed, info.as<int>(), batch));
    RETURN_IF_ERROR(markFailed(failed, b[1], n));
    if (!vectors)
      return Status::success();
    std::vector<T> v;
    RETURN_IF_ERROR(download(v, b[2], batch * n * n));
    for (int64_t i = 0; i < batch; ++i) {
      if (failed[i])
        cpu::fillNaN(v.data() + i * n * n, n * n);
      else
        cpu::finishEigenvectors(v.data() + i * n * n, n);
    }
    return upload(b[2], v);
  }

  Status svd(void *const *b, int64_t batch, int64_t m, int64_t n, bool full,
             bool vectors) {
    int64_t k = std::min(m, n), ucols = full ? m : k, vrows = full ? n : k;
    SingularVectors job = !vectors ? SingularVectors::None
                          : full   ? SingularVectors::Full
                                   : SingularVectors::Reduced;
    // The buffer read column-major is A^T, n x m: when it is tall (n >= m)
    // its U is A's vh and its V^T A's u, both read row-major, written in
    // place. Otherwise A itself (transposed on the host) is factored and
    // its U and V^T transposed into u and vh.
    bool ofTranspose = n >= m;
    int64_t rows = ofTranspose ? n : m, cols = ofTranspose ? m : n;
    int64_t uRows = rows, uCols = ofTranspose ? vrows : ucols;
    int64_t vtRows = ofTranspose ? ucols : vrows;
    DeviceScratch factored(device), uDeviceScratch(device), vtDeviceScratch(device),
        info(device);
    if (ofTranspose) {
      RETURN_IF_ERROR(factored.allocate(batch * m * n * sizeof(T)));
      RETURN_IF_ERROR(device.copyDeviceToDevice(factored.as<T>(), b[0],
                                                batch * m * n * sizeof(T)));
    } else {
      RETURN_IF_ERROR(columnMajorCopy(b[0], batch, m, n, n, factored));
    }
    void *uOut = ofTranspose ? b[3] : nullptr, *vtOut = ofTranspose ? b[1]
                                                                    : nullptr;
    if (vectors && !ofTranspose) {
      RETURN_IF_ERROR(uDeviceScratch.allocate(batch * uRows * uCols * sizeof(T)));
      RETURN_IF_ERROR(vtDeviceScratch.allocate(batch * vtRows * cols * sizeof(T)));
      uOut = uDeviceScratch.as<T>();
      vtOut = vtDeviceScratch.as<T>();
    }
    RETURN_IF_ERROR(infos(info, batch));
    RETURN_IF_ERROR(solver.withDevice([&]() -> Status {
      for (int64_t i = 0; i < batch; ++i)
        RETURN_IF_ERROR(solver.gesvd(
            dtype, job, int(rows), int(cols),
            factored.as<T>() + i * m * n, int(rows), realAt(b[2], i * k),
            vectors ? at(uOut, i * uRows * uCols) : nullptr, int(uRows),
            vectors ? at(vtOut, i * vtRows * cols) : nullptr, int(vtRows),
            info.as<int>() + i));
      return Status::success();
    }));
    std::vector<int> failed;
    RETURN_IF_ERROR(download(failed, info.as<int>(), batch));
    RETURN_IF_ERROR(markFailed(failed, b[2], k));
    if (!vectors)
      return Status::success();
    std::vector<T> u, vh;
    if (ofTranspose) {
      RETURN_IF_ERROR(download(u, b[1], batch * m * ucols));
      RETURN_IF_ERROR(download(vh, b[3], batch * vrows * n));
    } else {
      std::vector<T> uColumnMajor, vtColumnMajor;
      RETURN_IF_ERROR(download(uColumnMajor, uOut, batch * m * ucols));
      RETURN_IF_ERROR(download(vtColumnMajor, vtOut, batch * vrows * n));
      u.resize(uColumnMajor.size());
      vh.resize(vtColumnMajor.size());
      for (int64_t i = 0; i < batch; ++i) {
        cpu::transpose(uColumnMajor.data() + i * m * ucols,
                       u.data() + i * m * ucols, ucols, m);
        cpu::transpose(vtColumnMajor.data() + i * vrows * n,
                       vh.data() + i * vrows * n, n, vrows);
      }
    }
    for (int64_t i = 0; i < batch; ++i) {
      T *ub = u.data() + i * m * ucols, *vb = vh.data() + i * vrows * n;
      if (failed[i]) {
        cpu::fillNaN(ub, m * ucols);
        cpu::fillNaN(vb, vrows * n);
      } else {
        cpu::phaseSingularVectors(ub, vb, m, n, ucols, vrows);
      }
    }
    RETURN_IF_ERROR(upload(b[1], u));
    return upload(b[3], vh);
  }

  Status compute(uint32_t op, void *const *b, const int64_t *s) {
    switch (op) {
    case ADJ_RT_GPU_CHOLESKY:
      return cholesky(b, s[0], s[1]);
    case ADJ_RT_GPU_TRIANGULAR_SOLVE:
      return triangularSolve(b, s);
    case ADJ_RT_GPU_LU:
      return lu(b, s[0], s[1], s[2]);
    case ADJ_RT_GPU_QR:
      return qr(b, s[0], s[1], s[2], s[3]);
    case ADJ_RT_GPU_EIGH:
      return eigh(b, s[0], s[1], s[2], s[3]);
    case ADJ_RT_GPU_SVD:
      return svd(b, s[0], s[1], s[2], s[3], s[4]);
    }
    return Status::error(StatusCode::InvalidArgument,
                         "unknown linear algebra op");
  }
};

/// Whether the solver takes `problem`: a known op on a non-empty batch of
/// non-empty matrices whose sizes, squared, fit 32-bit integers.
bool solverTakes(const LinearAlgebraProblem &problem,
                 const DenseSolver &solver) {
  // A vendor whose complex routines are not bound
  // (DenseSolver::takesComplex) leaves complex matrices to LAPACK on the
  // host.
  bool typed = isComplex(problem.dtype)
                   ? solver.takesComplex()
                   : problem.dtype == DType::F32 || problem.dtype == DType::F64;
  if (!typed)
    return false;
  const int64_t *s = problem.scalars.data();
  std::vector<int64_t> sizes;
  switch (problem.op) {
  case ADJ_RT_GPU_CHOLESKY:
  case ADJ_RT_GPU_EIGH:
    sizes = {s[1]};
    break;
  case ADJ_RT_GPU_TRIANGULAR_SOLVE:
  case ADJ_RT_GPU_LU:
  case ADJ_RT_GPU_QR:
  case ADJ_RT_GPU_SVD:
    sizes = {s[1], s[2]};
    break;
  default:
    return false;
  }
  if (s[0] <= 0)
    return false;
  return std::all_of(sizes.begin(), sizes.end(), [](int64_t size) {
    return size > 0 && size <= INT_MAX / size;
  });
}

} // namespace

SolverLinearAlgebra::SolverLinearAlgebra(Device &device,
                                         std::unique_ptr<DenseSolver> solver,
                                         LinearAlgebraLibrary &fallback)
    : device_(device), solver_(std::move(solver)), fallback_(fallback) {}

SolverLinearAlgebra::~SolverLinearAlgebra() = default;

bool SolverLinearAlgebra::computes(const LinearAlgebraProblem &problem) const {
  return solverTakes(problem, *solver_) || fallback_.computes(problem);
}

Status SolverLinearAlgebra::compute(const LinearAlgebraProblem &problem,
                                    void *const *buffers) {
  if (!solverTakes(problem, *solver_))
    return fallback_.compute(problem, buffers);
  auto run = [&](auto zero) {
    return Run<decltype(zero)>{device_, *solver_, problem.dtype}.compute(
        problem.op, buffers, problem.scalars.data());
  };
  try {
    switch (problem.dtype) {
    case DType::F64:
      return run(double{});
    case DType::C64:
      return run(std::complex<float>{});
    case DType::C128:
      return run(std::complex<double>{});
    default:
      return run(float{});
    }
  } catch (const std::bad_alloc &) {
    return Status::error(StatusCode::OutOfMemory,
                         std::string("no host memory for ") +
                             solver_->name() + "'s results");
  }
}

#undef RETURN_IF_ERROR
