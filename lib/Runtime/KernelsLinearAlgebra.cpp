//===- KernelsLinearAlgebra.cpp - LinearAlgebra ops on LAPACK -------------===//
//
// LAPACK stores matrices column-major, compiled code row-major: a row-major
// buffer read column-major is the transpose. The kernels use that instead
// of copying where the transpose serves as well:
//
//   cholesky          potrf of A^T's upper triangle (A's lower one) gives
//                     U with A^T = U^T U, whose buffer read row-major is
//                     L = U^T;
//   triangular_solve  op(A) X = B is X^T op(A)^T = B^T: trsm on the other
//                     side, the other triangle, the same transposition;
//   eigh              A^T = A (conj(A) for a Hermitian A): syevd (heevd)
//                     of the other triangle; the vectors (conj(V)) come
//                     out column-major and are transposed (conjugated) in
//                     place;
//   svd               A^T = conj(V) S U^T: gesdd of the buffer writes A's
//                     vh = V^H as its U and A's u as its V^T, no copy.
//
// Complex matrices (c64, c128) take LAPACK's c and z routines the same way
// (ungqr for orgqr, heevd for syevd); eigh's and svd's values are real.
//
// getrf, geqrf and geev factor A itself, so lu, qr and eig copy each
// matrix into a column-major scratch (O(mn) against O(mn min(m, n))
// flops). A batch of small matrices is spread over the runtime's thread
// pool (overBatch); workspace sizes are queried once per chunk, before its
// loop.
//
// The C entry points (KernelsLinearAlgebra.h) and cpu::linearAlgebra
// (CPU/LinearAlgebra.h: the same kernels by op, with a Status, for the GPU
// devices' host route) share one dispatch.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/KernelsLinearAlgebra.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/ThreadPool.h"

#include "CPU/Fourier.h"
#include "CPU/Lapack.h"
#include "CPU/LinearAlgebra.h"
#include "CPU/LinearAlgebraConventions.h"
#include "adjoint/Runtime/GpuABI.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <new>
#include <numeric>
#include <string>
#include <vector>

using namespace adjoint::rt;
using adjoint::DType;
using cpu::LapackRoutines;
using cpu::RealOf;

namespace {

/// How a kernel ended. The entry points turn a failure into
/// failCompiledCall from a frame that holds nothing with a destructor.
enum class Outcome { Done, NoLapack, NoMemory, TooLarge, UnknownOp };

constexpr const char *kTooLarge =
    "a matrix dimension exceeds LAPACK's 32-bit integers";
constexpr const char *kNoMemory = "no memory for a LAPACK workspace";

[[noreturn]] void fail(Outcome outcome) {
  if (outcome == Outcome::NoLapack)
    failCompiledCall(StatusCode::Unavailable, cpu::lapackError());
  if (outcome == Outcome::TooLarge)
    failCompiledCall(StatusCode::InvalidArgument, kTooLarge);
  if (outcome == Outcome::UnknownOp)
    failCompiledCall(StatusCode::InvalidArgument,
                     "unknown linear algebra op");
  failCompiledCall(StatusCode::OutOfMemory, kNoMemory);
}

/// Runs `body(routines)` for T's routines on m x n matrices. LAPACK's
/// integers (dimensions, and workspace sizes of up to a few times
/// max(m, n)^2 elements) must hold the largest dimension squared.
template <typename T, typename Body>
Outcome run(int64_t m, int64_t n, Body body) noexcept {
  int64_t d = std::max(m, n);
  if (d > 0 && d > INT_MAX / d)
    return Outcome::TooLarge;
  const cpu::Lapack *lapack = cpu::lapack();
  if (!lapack)
    return Outcome::NoLapack;
  try {
    body(lapack->routines<T>());
    return Outcome::Done;
  } catch (const std::bad_alloc &) {
    return Outcome::NoMemory;
  }
}

int ld(int64_t rows) { return static_cast<int>(std::max<int64_t>(1, rows)); }

/// The size LAPACK asked for in a workspace query (a T, whose real part
/// holds it), one ulp up: a float holds sizes past 2^24 rounded, and
/// LAPACKs before 3.10 round them down.
template <typename T> int workSize(T query) {
  auto size = std::nextafter(std::real(query),
                             std::numeric_limits<RealOf<T>>::infinity());
  return std::max(1, static_cast<int>(std::ceil(size)));
}

/// Matrices of at most this size are factored concurrently, a chunk of the
/// batch per thread of the runtime's pool: LAPACK runs them on the calling
/// thread (OpenBLAS threads only larger problems), and a batch of small
/// matrices is model code's common case. Larger ones run one after the
/// other, each with LAPACK's own threads.
constexpr int64_t kConcurrentMaxDim = 64;

/// Runs `body(begin, end)` over the batch [0, batch): in chunks on the
/// runtime's pool (each chunk sets up its own workspace) when the matrices
/// are small (largest dimension `dim`) and the routine gains from it
/// (`concurrent`), else in one call here.
template <typename Body>
void overBatch(int64_t batch, int64_t dim, bool concurrent, Body body) {
  ThreadPool &pool = ThreadPool::global();
  if (concurrent && batch > 1 && dim <= kConcurrentMaxDim &&
      pool.numThreads() > 1 && !insideParallelChunk())
    pool.parallelFor(0, batch, /*grain=*/0, body);
  else
    body(0, batch);
}

template <typename T>
void cholesky(const LapackRoutines<T> &la, const T *a, T *l, int64_t batch,
              int64_t n) {
  int size = static_cast<int>(n), lda = ld(n);
  overBatch(batch, n, true, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      const T *in = a + b * n * n;
      T *out = l + b * n * n;
      std::copy(in, in + n * n, out);
      int info = 0;
      la.potrf("U", &size, out, &lda, &info, 1);
      if (info != 0) {
        cpu::fillNaN(out, n * n);
        continue;
      }
      cpu::clearAboveDiagonal(out, n);
    }
  });
}

template <typename T>
void triangularSolve(const LapackRoutines<T> &la, const T *a, const T *b,
                     T *x, int64_t batch, int64_t rows, int64_t cols,
                     bool leftSide, bool lower, bool transposeA, bool unit) {
  int64_t k = leftSide ? rows : cols;
  // X^T is cols x rows column-major.
  int m = static_cast<int>(cols), n = static_cast<int>(rows);
  int lda = ld(k), ldb = ld(cols);
  const char *side = leftSide ? "R" : "L";
  const char *uplo = lower ? "U" : "L";
  const char *trans = transposeA ? "T" : "N";
  const char *diag = unit ? "U" : "N";
  T one = 1;
  std::copy(b, b + batch * rows * cols, x);
  if (rows == 0 || cols == 0)
    return;
  int64_t dim = std::max(rows, cols);
  overBatch(batch, dim, true, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      la.trsm(side, uplo, trans, diag, &m, &n, &one, a + i * k * k, &lda,
              x + i * rows * cols, &ldb, 1, 1, 1, 1);
  });
}

template <typename T>
void lu(const LapackRoutines<T> &la, const T *a, T *lu, int32_t *pivots,
        int32_t *perm, int64_t batch, int64_t m, int64_t n) {
  int64_t k = std::min(m, n);
  int rows = static_cast<int>(m), cols = static_cast<int>(n), lda = ld(m);
  overBatch(batch, std::max(m, n), true, [&](int64_t begin, int64_t end) {
    std::vector<T> scratch(m * n);
    std::vector<int> ipiv(std::max<int64_t>(1, k));
    for (int64_t b = begin; b < end; ++b) {
      cpu::transpose(a + b * m * n, scratch.data(), m, n);
      int info = 0;
      // info > 0 is an exactly zero pivot: the factorization is still
      // complete (U is singular), as the op defines.
      la.getrf(&rows, &cols, scratch.data(), &lda, ipiv.data(), &info);
      cpu::transpose(scratch.data(), lu + b * m * n, n, m);
      cpu::pivotsAndPermutation(ipiv.data(), k, m, pivots + b * k,
                                perm + b * m);
    }
  });
}

template <typename T>
void qr(const LapackRoutines<T> &la, const T *a, T *q, T *r, int64_t batch,
        int64_t m, int64_t n, bool full) {
  int64_t k = std::min(m, n), kq = full ? m : k, width = std::max(n, kq);
  int rows = static_cast<int>(m), cols = static_cast<int>(n),
      reflectors = static_cast<int>(k), qcols = static_cast<int>(kq),
      lda = ld(m);
  overBatch(batch, std::max(m, n), true, [&](int64_t begin, int64_t end) {
    // Column-major m x max(n, kq): A, then Q's kq columns in place.
    std::vector<T> scratch(std::max<int64_t>(1, m * width));
    std::vector<T> tau(std::max<int64_t>(1, k));
    // Q from the reflectors: orgqr, or ungqr for complex matrices.
    auto formQ = [&]() {
      if constexpr (cpu::kIsComplex<T>)
        return la.ungqr;
      else
        return la.orgqr;
    }();
    T query[2] = {1, 1};
    int minusOne = -1, info = 0;
    la.geqrf(&rows, &cols, scratch.data(), &lda, tau.data(), &query[0],
             &minusOne, &info);
    formQ(&rows, &qcols, &reflectors, scratch.data(), &lda, tau.data(),
          &query[1], &minusOne, &info);
    int lwork = std::max(workSize(query[0]), workSize(query[1]));
    std::vector<T> work(lwork);
    for (int64_t b = begin; b < end; ++b) {
      cpu::transpose(a + b * m * n, scratch.data(), m, n);
      la.geqrf(&rows, &cols, scratch.data(), &lda, tau.data(), work.data(),
               &lwork, &info);
      cpu::upperTriangleOf(scratch.data(), m, n, kq, r + b * kq * n);
      formQ(&rows, &qcols, &reflectors, scratch.data(), &lda, tau.data(),
            work.data(), &lwork, &info);
      cpu::transpose(scratch.data(), q + b * m * kq, kq, m);
    }
  });
}

/// syevd for a real T, heevd (with its real workspace) for a complex one;
/// lwork = -1 queries every workspace's size.
template <typename T> struct HermitianEigenSolver {
  const LapackRoutines<T> &la;
  const char *jobz, *uplo;
  int n;
  std::vector<T> work{T(1)};
  std::vector<RealOf<T>> rwork{RealOf<T>(1)};
  std::vector<int> iwork{1};

  int call(T *a, RealOf<T> *w, int lwork) {
    int lda = ld(n), liwork = lwork < 0 ? -1 : static_cast<int>(iwork.size());
    int info = 0;
    if constexpr (cpu::kIsComplex<T>) {
      int lrwork = lwork < 0 ? -1 : static_cast<int>(rwork.size());
      la.heevd(jobz, uplo, &n, a, &lda, w, work.data(), &lwork, rwork.data(),
               &lrwork, iwork.data(), &liwork, &info, 1, 1);
    } else {
      la.syevd(jobz, uplo, &n, a, &lda, w, work.data(), &lwork, iwork.data(),
               &liwork, &info, 1, 1);
    }
    return info;
  }
  /// Sizes the workspaces for `a` and `w`'s shape.
  void plan(T *a, RealOf<T> *w) {
    call(a, w, -1);
    work.resize(workSize(work[0]));
    rwork.resize(workSize(rwork[0]));
    iwork.resize(std::max(1, iwork[0]));
  }
  int operator()(T *a, RealOf<T> *w) {
    return call(a, w, static_cast<int>(work.size()));
  }
};

template <typename T>
void eigh(const LapackRoutines<T> &la, const T *a, RealOf<T> *w, T *v,
          int64_t batch, int64_t n, bool upper, bool vectors) {
  // A's lower triangle is A^T's upper one.
  const char *uplo = upper ? "L" : "U";
  const char *jobz = vectors ? "V" : "N";
  // Not concurrent: two syevd calls at once run slower than one after the
  // other on Debian's OpenBLAS 0.3.21 (1024 8x8 matrices on 2 cores:
  // eigh 2.2-3.0x numpy's time concurrently, 1.3-1.7x in turn;
  // benchmarks/cpu/linalg.py 8 5 "" 1024).
  overBatch(batch, n, false, [&](int64_t begin, int64_t end) {
    // Without vectors the matrix is overwritten in a scratch copy (v is left
    // unwritten: nothing reads it).
    std::vector<T> scratch(vectors ? 0 : std::max<int64_t>(1, n * n));
    HermitianEigenSolver<T> solve{la, jobz, uplo, static_cast<int>(n)};
    solve.plan(vectors ? v : scratch.data(), w);
    for (int64_t b = begin; b < end; ++b) {
      T *vb = vectors ? v + b * n * n : scratch.data();
      RealOf<T> *wb = w + b * n;
      std::copy(a + b * n * n, a + (b + 1) * n * n, vb);
      if (solve(vb, wb) != 0) {
        cpu::fillNaN(wb, n);
        if (vectors)
          cpu::fillNaN(vb, n * n);
        continue;
      }
      if (vectors)
        cpu::finishEigenvectors(vb, n);
    }
  });
}

/// geev's eigenvalues and right eigenvectors as complex numbers: for a
/// real T from wr + i wi and, for a conjugate pair (wi > 0, then < 0), the
/// vectors re + i im and re - i im of its two columns (vr); a complex T's
/// geev writes them as they are (with its real workspace).
template <typename T> struct GeneralEigenSolver {
  using R = RealOf<T>;
  using Z = std::complex<R>;
  const LapackRoutines<T> &la;
  int n;
  const char *jobvr;
  std::vector<T> work{T(1)};
  std::vector<R> wr, wi, rwork, vr;
  std::vector<Z> w, v;

  GeneralEigenSolver(const LapackRoutines<T> &la, int64_t n, bool vectors)
      : la(la), n(static_cast<int>(n)), jobvr(vectors ? "V" : "N"), w(n),
        v(vectors ? n * n : 0) {
    if constexpr (cpu::kIsComplex<T>) {
      rwork.resize(std::max<int64_t>(1, 2 * n));
    } else {
      wr.resize(n), wi.resize(n);
      vr.resize(vectors ? std::max<int64_t>(1, n * n) : 1);
    }
  }
  int call(T *a, int lwork) {
    int lda = ld(n), ldvl = 1, ldvr = ld(n), info = 0;
    T dummy[1];
    if constexpr (cpu::kIsComplex<T>)
      la.geev("N", jobvr, &n, a, &lda, w.data(), dummy, &ldvl,
              v.empty() ? dummy : v.data(), &ldvr, work.data(), &lwork,
              rwork.data(), &info, 1, 1);
    else
      la.geev("N", jobvr, &n, a, &lda, wr.data(), wi.data(), dummy, &ldvl,
              vr.data(), &ldvr, work.data(), &lwork, &info, 1, 1);
    return info;
  }
  void plan(T *a) {
    call(a, -1);
    work.resize(workSize(work[0]));
  }
  /// Factors the column-major `a` (overwritten) into w and v; geev's info.
  int operator()(T *a) {
    if (int info = call(a, static_cast<int>(work.size())))
      return info;
    if constexpr (!cpu::kIsComplex<T>) {
      for (int j = 0; j < n; ++j) {
        w[j] = Z(wr[j], wi[j]);
        if (v.empty())
          continue;
        const R *re = vr.data() + int64_t(j) * n;
        if (wi[j] == 0) {
          for (int i = 0; i < n; ++i)
            v[int64_t(j) * n + i] = Z(re[i], 0);
        } else if (wi[j] > 0 && j + 1 < n) {
          const R *im = re + n;
          for (int i = 0; i < n; ++i) {
            v[int64_t(j) * n + i] = Z(re[i], im[i]);
            v[int64_t(j + 1) * n + i] = Z(re[i], -im[i]);
          }
        }
      }
    }
    return 0;
  }
};

template <typename T>
void eig(const LapackRoutines<T> &la, const T *a,
         std::complex<RealOf<T>> *w, std::complex<RealOf<T>> *v,
         int64_t batch, int64_t n, bool vectors) {
  overBatch(batch, n, true, [&](int64_t begin, int64_t end) {
    std::vector<T> scratch(std::max<int64_t>(1, n * n));
    GeneralEigenSolver<T> solve(la, n, vectors);
    solve.plan(scratch.data());
    for (int64_t b = begin; b < end; ++b) {
      std::complex<RealOf<T>> *wb = w + b * n,
                              *vb = vectors ? v + b * n * n : nullptr;
      const T *in = a + b * n * n;
      // geev's balancing and QR iterations on a NaN or an infinity give
      // no defined result: NaNs, as the op defines (and as eigh's).
      bool finite = std::all_of(in, in + n * n, [](T x) {
        return std::isfinite(std::real(x)) && std::isfinite(std::imag(x));
      });
      cpu::transpose(in, scratch.data(), n, n);
      if (!finite || solve(scratch.data()) != 0) {
        cpu::fillNaN(wb, n);
        if (vectors)
          cpu::fillNaN(vb, n * n);
        continue;
      }
      cpu::finishGeneralEigen(solve.w.data(),
                              vectors ? solve.v.data() : nullptr, n, wb, vb);
    }
  });
}

/// gesdd, with the real workspace complex matrices take (whose size
/// LAPACK does not report: the documented bound for `k` singular values
/// of an m x n matrix).
template <typename T> struct SingularSolver {
  const LapackRoutines<T> &la;
  const char *jobz;
  std::vector<RealOf<T>> rwork;

  SingularSolver(const LapackRoutines<T> &la, const char *jobz, int64_t m,
                 int64_t n)
      : la(la), jobz(jobz) {
    if constexpr (cpu::kIsComplex<T>) {
      int64_t k = std::min(m, n), big = std::max(m, n);
      rwork.resize(std::max<int64_t>(
          {1, 7 * k, 5 * k * k + 5 * k, 2 * big * k + 2 * k * k + k}));
    }
  }
  int operator()(int *rows, int *cols, T *a, int *lda, RealOf<T> *s, T *u,
                 int *ldu, T *vt, int *ldvt, T *work, int *lwork,
                 int *iwork) {
    int info = 0;
    if constexpr (cpu::kIsComplex<T>)
      la.gesdd(jobz, rows, cols, a, lda, s, u, ldu, vt, ldvt, work, lwork,
               rwork.data(), iwork, &info, 1);
    else
      la.gesdd(jobz, rows, cols, a, lda, s, u, ldu, vt, ldvt, work, lwork,
               iwork, &info, 1);
    return info;
  }
};

template <typename T>
void svd(const LapackRoutines<T> &la, const T *a, T *u, RealOf<T> *s, T *vh,
         int64_t batch, int64_t m, int64_t n, bool full, bool vectors) {
  int64_t k = std::min(m, n);
  int64_t ucols = full ? m : k, vrows = full ? n : k;
  // The buffer is A^T, n x m column-major: its U is vh, its V^T is u.
  int rows = static_cast<int>(n), cols = static_cast<int>(m), lda = ld(n),
      ldu = ld(n), ldvt = ld(ucols);
  const char *jobz = !vectors ? "N" : full ? "A" : "S";
  overBatch(batch, std::max(m, n), true, [&](int64_t begin, int64_t end) {
    std::vector<T> scratch(std::max<int64_t>(1, m * n));
    std::vector<int> iwork(std::max<int64_t>(1, 8 * k));
    // Without vectors gesdd references neither; one element stands in.
    T dummy[1];
    T *uOut = vectors ? u : dummy, *vhOut = vectors ? vh : dummy;
    SingularSolver<T> gesdd(la, jobz, m, n);
    T query = 1;
    int minusOne = -1;
    gesdd(&rows, &cols, scratch.data(), &lda, s, vhOut, &ldu, uOut, &ldvt,
          &query, &minusOne, iwork.data());
    int lwork = workSize(query);
    std::vector<T> work(lwork);
    for (int64_t b = begin; b < end; ++b) {
      std::copy(a + b * m * n, a + (b + 1) * m * n, scratch.data());
      RealOf<T> *sb = s + b * k;
      T *ub = vectors ? u + b * m * ucols : dummy;
      T *vb = vectors ? vh + b * vrows * n : dummy;
      if (gesdd(&rows, &cols, scratch.data(), &lda, sb, vb, &ldu, ub, &ldvt,
                work.data(), &lwork, iwork.data()) != 0) {
        cpu::fillNaN(sb, k);
        if (vectors) {
          cpu::fillNaN(ub, m * ucols);
          cpu::fillNaN(vb, vrows * n);
        }
        continue;
      }
      if (vectors)
        cpu::phaseSingularVectors(ub, vb, m, n, ucols, vrows);
    }
  });
}

template <typename T> T *ptr(intptr_t address) {
  return reinterpret_cast<T *>(address);
}

/// Runs the kernel of `op` (GpuABI.h's adj_rt_gpu_linalg_op) on `b`, the
/// buffers, with `s`, the scalars, as KernelsLinearAlgebra.h orders them.
template <typename T>
Outcome dispatch(uint32_t op, const intptr_t *b, const int64_t *s) noexcept {
  switch (op) {
  case ADJ_RT_GPU_CHOLESKY:
    return run<T>(s[1], s[1], [&](const LapackRoutines<T> &la) {
      cholesky(la, ptr<const T>(b[0]), ptr<T>(b[1]), s[0], s[1]);
    });
  case ADJ_RT_GPU_TRIANGULAR_SOLVE:
    return run<T>(s[1], s[2], [&](const LapackRoutines<T> &la) {
      triangularSolve(la, ptr<const T>(b[0]), ptr<const T>(b[1]),
                      ptr<T>(b[2]), s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
    });
  case ADJ_RT_GPU_LU:
    return run<T>(s[1], s[2], [&](const LapackRoutines<T> &la) {
      lu(la, ptr<const T>(b[0]), ptr<T>(b[1]), ptr<int32_t>(b[2]),
         ptr<int32_t>(b[3]), s[0], s[1], s[2]);
    });
  case ADJ_RT_GPU_QR:
    return run<T>(s[1], s[2], [&](const LapackRoutines<T> &la) {
      qr(la, ptr<const T>(b[0]), ptr<T>(b[1]), ptr<T>(b[2]), s[0], s[1],
         s[2], s[3]);
    });
  case ADJ_RT_GPU_EIGH:
    return run<T>(s[1], s[1], [&](const LapackRoutines<T> &la) {
      eigh(la, ptr<const T>(b[0]), ptr<RealOf<T>>(b[1]), ptr<T>(b[2]), s[0],
           s[1], s[2], s[3]);
    });
  case ADJ_RT_GPU_EIG:
    return run<T>(s[1], s[1], [&](const LapackRoutines<T> &la) {
      eig(la, ptr<const T>(b[0]), ptr<std::complex<RealOf<T>>>(b[1]),
          ptr<std::complex<RealOf<T>>>(b[2]), s[0], s[1], s[2]);
    });
  case ADJ_RT_GPU_SVD:
    return run<T>(s[1], s[2], [&](const LapackRoutines<T> &la) {
      svd(la, ptr<const T>(b[0]), ptr<T>(b[1]), ptr<RealOf<T>>(b[2]),
          ptr<T>(b[3]), s[0], s[1], s[2], s[3], s[4]);
    });
  }
  return Outcome::UnknownOp;
}

/// The entry points' frame: holds nothing with a destructor across fail().
template <typename T>
void entry(uint32_t op, std::initializer_list<intptr_t> buffers,
           std::initializer_list<int64_t> scalars) {
  Outcome outcome = dispatch<T>(op, buffers.begin(), scalars.begin());
  if (outcome != Outcome::Done)
    fail(outcome);
}

/// What a buffer holds: the op's dtype, int32_t, the dtype's real type
/// (eigh's and svd's values) or complex numbers of it (eig's results).
enum class Holds { Elements, I32, Real, Complex };

/// The buffers of an op as rows x cols matrices (or vectors, cols = 1) per
/// batch entry, operands first.
struct Shape {
  int64_t rows, cols;
  bool operand;
  Holds holds = Holds::Elements;
};

/// The shapes of `op`'s buffers, or an empty list for an unknown op.
std::vector<Shape> shapesOf(uint32_t op, const int64_t *s) {
  switch (op) {
  case ADJ_RT_GPU_CHOLESKY:
    return {{s[1], s[1], true}, {s[1], s[1], false}};
  case ADJ_RT_GPU_TRIANGULAR_SOLVE: {
    int64_t k = s[3] ? s[1] : s[2];
    return {{k, k, true},
            {s[1], s[2], true},
            {s[1], s[2], false}};
  }
  case ADJ_RT_GPU_LU:
    return {{s[1], s[2], true},
            {s[1], s[2], false},
            {std::min(s[1], s[2]), 1, false, Holds::I32},
            {s[1], 1, false, Holds::I32}};
  case ADJ_RT_GPU_QR: {
    int64_t kq = s[3] ? s[1] : std::min(s[1], s[2]);
    return {{s[1], s[2], true},
            {s[1], kq, false},
            {kq, s[2], false}};
  }
  case ADJ_RT_GPU_EIGH:
    return {{s[1], s[1], true},
            {s[1], 1, false, Holds::Real},
            {s[1], s[1], false}};
  case ADJ_RT_GPU_EIG:
    return {{s[1], s[1], true},
            {s[1], 1, false, Holds::Complex},
            {s[1], s[1], false, Holds::Complex}};
  case ADJ_RT_GPU_SVD: {
    int64_t k = std::min(s[1], s[2]);
    return {{s[1], s[2], true},
            {s[1], s[3] ? s[1] : k, false},
            {k, 1, false, Holds::Real},
            {s[3] ? s[2] : k, s[2], false}};
  }
  case ADJ_RT_GPU_FFT: {
    // Points of one transform and of its half spectrum, complex values as
    // two columns.
    if (s[2] < 1 || s[2] > 3 || s[1] < 0 || s[1] > 3)
      return {};
    int64_t last = s[2 + s[2]];
    int64_t points = s[3] * s[4] * s[5];
    int64_t half = last > 0 ? points / last * (last / 2 + 1) : 0;
    bool rfft = s[1] == 2, irfft = s[1] == 3;
    return {{irfft ? half : points, rfft ? 1 : 2, true},
            {rfft ? half : points, irfft ? 1 : 2, false}};
  }
  }
  return {};
}

Status statusOf(Outcome outcome) {
  switch (outcome) {
  case Outcome::Done:
    return Status::success();
  case Outcome::NoLapack:
    return Status::error(StatusCode::Unavailable, cpu::lapackError());
  case Outcome::TooLarge:
    return Status::error(StatusCode::InvalidArgument, kTooLarge);
  case Outcome::NoMemory:
    return Status::error(StatusCode::OutOfMemory, kNoMemory);
  case Outcome::UnknownOp:
    break;
  }
  return Status::error(StatusCode::InvalidArgument,
                       "unknown linear algebra op");
}

/// The size of an element a buffer of `dtype`'s op holds.
uint64_t elementSize(Holds holds, DType dtype) {
  switch (holds) {
  case Holds::I32:
    return 4;
  case Holds::Real:
    return dtypeSize(realPart(dtype));
  case Holds::Complex:
    return 2 * dtypeSize(realPart(dtype));
  case Holds::Elements:
    break;
  }
  return dtypeSize(dtype);
}

/// An FFT's dtype is its values' parts' (f32 or f64); the decompositions
/// also take complex matrices.
Status checkDType(uint32_t op, DType dtype) {
  if (dtype == DType::F32 || dtype == DType::F64 ||
      (isComplex(dtype) && op != ADJ_RT_GPU_FFT))
    return Status::success();
  return Status::error(StatusCode::InvalidArgument,
                       std::string("the linear algebra kernels compute in "
                                   "f32, f64, c64 or c128 (an FFT in f32 or "
                                   "f64), not ") +
                           dtypeName(dtype));
}

} // namespace

Status cpu::linearAlgebraBuffers(uint32_t op, DType dtype,
                                 const int64_t *scalars,
                                 std::vector<LinearAlgebraBuffer> *buffers) {
  if (Status status = checkDType(op, dtype); !status.ok())
    return status;
  std::vector<Shape> shapes = shapesOf(op, scalars);
  if (shapes.empty())
    return statusOf(Outcome::UnknownOp);
  buffers->clear();
  for (const Shape &shape : shapes) {
    uint64_t bytes = elementSize(shape.holds, dtype);
    for (int64_t factor : {scalars[0], shape.rows, shape.cols}) {
      if (factor < 0 ||
          (factor > 0 && bytes > UINT64_MAX / static_cast<uint64_t>(factor)))
        return Status::error(StatusCode::InvalidArgument,
                             "linear algebra buffer sizes out of range");
      bytes *= static_cast<uint64_t>(factor);
    }
    buffers->push_back({bytes, shape.operand});
  }
  return Status::success();
}

Status cpu::linearAlgebra(uint32_t op, DType dtype, const intptr_t *buffers,
                          const int64_t *scalars) {
  if (Status status = checkDType(op, dtype); !status.ok())
    return status;
  if (op == ADJ_RT_GPU_FFT)
    return cpu::fourier(dtype, buffers[0], buffers[1], scalars);
  switch (dtype) {
  case DType::F64:
    return statusOf(dispatch<double>(op, buffers, scalars));
  case DType::C64:
    return statusOf(dispatch<std::complex<float>>(op, buffers, scalars));
  case DType::C128:
    return statusOf(dispatch<std::complex<double>>(op, buffers, scalars));
  default:
    return statusOf(dispatch<float>(op, buffers, scalars));
  }
}

#define ADJ_LA_ENTRY(T, suffix)                                                \
  extern "C" void adj_kernel_cholesky_##suffix(intptr_t a, intptr_t l,         \
                                               int64_t batch, int64_t n) {     \
    entry<T>(ADJ_RT_GPU_CHOLESKY, {a, l}, {batch, n});                         \
  }                                                                            \
  extern "C" void adj_kernel_triangular_solve_##suffix(                        \
      intptr_t a, intptr_t b, intptr_t x, int64_t batch, int64_t rows,         \
      int64_t cols, int64_t leftSide, int64_t lower, int64_t transposeA,       \
      int64_t unitDiagonal) {                                                  \
    entry<T>(ADJ_RT_GPU_TRIANGULAR_SOLVE, {a, b, x},                           \
             {batch, rows, cols, leftSide, lower, transposeA, unitDiagonal});  \
  }                                                                            \
  extern "C" void adj_kernel_lu_##suffix(intptr_t a, intptr_t lu_,             \
                                         intptr_t pivots, intptr_t perm,       \
                                         int64_t batch, int64_t m,             \
                                         int64_t n) {                          \
    entry<T>(ADJ_RT_GPU_LU, {a, lu_, pivots, perm}, {batch, m, n});            \
  }                                                                            \
  extern "C" void adj_kernel_qr_##suffix(intptr_t a, intptr_t q, intptr_t r,   \
                                         int64_t batch, int64_t m, int64_t n,  \
                                         int64_t full) {                       \
    entry<T>(ADJ_RT_GPU_QR, {a, q, r}, {batch, m, n, full});                   \
  }                                                                            \
  extern "C" void adj_kernel_eigh_##suffix(                                    \
      intptr_t a, intptr_t w, intptr_t v, int64_t batch, int64_t n,            \
      int64_t upper, int64_t vectors) {                                        \
    entry<T>(ADJ_RT_GPU_EIGH, {a, w, v}, {batch, n, upper, vectors});          \
  }                                                                            \
  extern "C" void adj_kernel_eig_##suffix(intptr_t a, intptr_t w,             \
                                          intptr_t v, int64_t batch,           \
                                          int64_t n, int64_t vectors) {        \
    entry<T>(ADJ_RT_GPU_EIG, {a, w, v}, {batch, n, vectors});                  \
  }                                                                            \
  extern "C" void adj_kernel_svd_##suffix(                                     \
      intptr_t a, intptr_t u, intptr_t s, intptr_t vh, int64_t batch,          \
      int64_t m, int64_t n, int64_t full, int64_t vectors) {                   \
    entry<T>(ADJ_RT_GPU_SVD, {a, u, s, vh}, {batch, m, n, full, vectors});     \
  }

ADJ_LA_ENTRY(float, f32)
ADJ_LA_ENTRY(double, f64)
ADJ_LA_ENTRY(std::complex<float>, c64)
ADJ_LA_ENTRY(std::complex<double>, c128)
#undef ADJ_LA_ENTRY
