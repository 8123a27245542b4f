//===- LinearAlgebraConventions.h - The ops' layouts and signs --*- C++ -*-===//
//
// What turns a column-major LAPACK-style result into the LinearAlgebra
// ops' results (row-major buffers, 0-based pivots and a permutation, zeros
// outside a factor's triangle, NaNs for a failed factorization, the sign
// convention of eigen- and singular vectors: the entry of largest magnitude
// made real and positive). LAPACK on the CPU
// (KernelsLinearAlgebra.cpp) and the vendor solvers on GPU devices
// (GPU/SolverLinearAlgebra.cpp) produce the same column-major results, so
// both finish them here and agree to the last convention.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CPU_LINEARALGEBRACONVENTIONS_H
#define ADJOINT_LIB_RUNTIME_CPU_LINEARALGEBRACONVENTIONS_H

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

namespace adjoint::rt::cpu {

/// The real type of T's values: R for std::complex<R>, else T.
template <typename T> struct RealOfType { using type = T; };
template <typename R> struct RealOfType<std::complex<R>> { using type = R; };
template <typename T> using RealOf = typename RealOfType<T>::type;
template <typename T>
inline constexpr bool kIsComplex = !std::is_same_v<T, RealOf<T>>;

/// conj(x) for complex numbers, x itself for reals.
template <typename T> T conjugate(T x) {
  if constexpr (kIsComplex<T>)
    return std::conj(x);
  else
    return x;
}

template <typename T> void fillNaN(T *data, int64_t count) {
  constexpr RealOf<T> nan = std::numeric_limits<RealOf<T>>::quiet_NaN();
  if constexpr (kIsComplex<T>)
    std::fill(data, data + count, T(nan, nan));
  else
    std::fill(data, data + count, nan);
}

/// Transposes the row-major `rows` x `cols` matrix `in` into `out`.
template <typename T>
void transpose(const T *in, T *out, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      out[j * rows + i] = in[i * cols + j];
}

/// Transposes the n x n matrix `m` in place, in tiles that stay in cache.
template <typename T> void transposeSquare(T *m, int64_t n) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < n; i0 += kTile)
    for (int64_t j0 = i0; j0 < n; j0 += kTile)
      for (int64_t i = i0; i < std::min(i0 + kTile, n); ++i)
        for (int64_t j = std::max(j0, i + 1); j < std::min(j0 + kTile, n);
             ++j)
          std::swap(m[i * n + j], m[j * n + i]);
}

/// What a vector of `count` entries `stride` apart is multiplied by to make
/// its entry of largest magnitude (the first of equal ones) real and
/// positive: that entry's sign, or for complex vectors the conjugate of its
/// phase. The ops' convention for eigen- and singular vectors (as the
/// interpreter computes it).
template <typename T>
T leadingPhase(const T *v, int64_t count, int64_t stride) {
  if (count == 0)
    return T(1);
  int64_t best = 0;
  for (int64_t i = 1; i < count; ++i)
    if (std::abs(v[i * stride]) > std::abs(v[best * stride]))
      best = i;
  T entry = v[best * stride];
  if constexpr (kIsComplex<T>) {
    RealOf<T> size = std::abs(entry);
    return size > 0 ? std::conj(entry) / size : T(1);
  } else {
    return entry < 0 ? T(-1) : T(1);
  }
}

/// Multiplies `count` entries `stride` apart by `factor` unless it is 1.
template <typename T>
void scale(T *v, int64_t count, int64_t stride, T factor) {
  if (factor != T(1))
    for (int64_t i = 0; i < count; ++i)
      v[i * stride] *= factor;
}

/// Cholesky: potrf's factor of A^T's upper triangle, read row-major, is L
/// with A's upper triangle still above it; zeroes that.
template <typename T> void clearAboveDiagonal(T *l, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    std::fill(l + i * n + i + 1, l + (i + 1) * n, T(0));
}

/// LU: getrf's 1-based row interchanges `ipiv` (k of them, m rows) as the
/// op's 0-based pivots and the permutation they make.
inline void pivotsAndPermutation(const int *ipiv, int64_t k, int64_t m,
                                 int32_t *pivots, int32_t *perm) {
  std::iota(perm, perm + m, 0);
  for (int64_t j = 0; j < k; ++j) {
    pivots[j] = ipiv[j] - 1;
    std::swap(perm[j], perm[pivots[j]]);
  }
}

/// QR: the kq x n row-major R from geqrf's column-major m x n result (R on
/// and above the diagonal, reflectors below).
template <typename T>
void upperTriangleOf(const T *factored, int64_t m, int64_t n, int64_t kq,
                     T *r) {
  for (int64_t i = 0; i < kq; ++i)
    for (int64_t j = 0; j < n; ++j)
      r[i * n + j] = i <= j ? factored[j * m + i] : T(0);
}

/// Eigh: syevd's (heevd's) column-major n x n eigenvectors of the
/// buffer's A^T, in place, as the op's row-major V (vector j in column j),
/// each phased by leadingPhase. A^T is A for a symmetric A and conj(A) for
/// a Hermitian one, whose eigenvectors are conj(V).
template <typename T> void finishEigenvectors(T *v, int64_t n) {
  // Vector j is column j column-major, row j read row-major: finished
  // while contiguous, then transposed into place.
  for (int64_t j = 0; j < n; ++j) {
    T *row = v + j * n;
    if constexpr (kIsComplex<T>)
      for (int64_t i = 0; i < n; ++i)
        row[i] = std::conj(row[i]);
    scale(row, n, 1, leadingPhase(row, n, 1));
  }
  transposeSquare(v, n);
}

/// Eig: the op's results from geev's eigenvalues `w` and unit column-major
/// eigenvectors `v` (n x n; null without vectors): the values sorted by
/// (real part, imaginary part) into `wOut`, the vectors in the same order
/// as the columns of the row-major `vOut`, each renormalized and phased by
/// leadingPhase.
template <typename R>
void finishGeneralEigen(const std::complex<R> *w, const std::complex<R> *v,
                        int64_t n, std::complex<R> *wOut,
                        std::complex<R> *vOut) {
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    return w[x].real() < w[y].real() ||
           (w[x].real() == w[y].real() && w[x].imag() < w[y].imag());
  });
  std::vector<std::complex<R>> column(n);
  for (int64_t j = 0; j < n; ++j) {
    wOut[j] = w[order[j]];
    if (!v)
      continue;
    const std::complex<R> *source = v + order[j] * n;
    R norm = 0;
    for (int64_t i = 0; i < n; ++i)
      norm += std::norm(source[i]);
    norm = std::sqrt(norm);
    for (int64_t i = 0; i < n; ++i)
      column[i] = norm > 0 ? source[i] / norm : source[i];
    scale(column.data(), n, 1, leadingPhase(column.data(), n, 1));
    for (int64_t i = 0; i < n; ++i)
      vOut[i * n + j] = column[i];
  }
}

/// SVD: phases the row-major m x ucols `u` and vrows x n `vh` (k = min(m,
/// n) singular values) so that each column of u has a real positive
/// leading entry, the matching row of vh taking the conjugate factor (the
/// product stays); vh's rows beyond k, which pair with no column of u, by
/// their own leading entry.
template <typename T>
void phaseSingularVectors(T *u, T *vh, int64_t m, int64_t n, int64_t ucols,
                         int64_t vrows) {
  int64_t k = std::min(m, n);
  for (int64_t j = 0; j < ucols; ++j) {
    T phase = leadingPhase(u + j, m, ucols);
    scale(u + j, m, ucols, phase);
    if (j < k)
      scale(vh + j * n, n, 1, conjugate(phase));
  }
  for (int64_t j = k; j < vrows; ++j)
    scale(vh + j * n, n, 1, leadingPhase(vh + j * n, n, 1));
}

} // namespace adjoint::rt::cpu

#endif // ADJOINT_LIB_RUNTIME_CPU_LINEARALGEBRACONVENTIONS_H
