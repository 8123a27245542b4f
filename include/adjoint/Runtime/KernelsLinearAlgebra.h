//===- KernelsLinearAlgebra.h - LAPACK kernels for compiled code -*- C++ -*-===//
//
// The CPU lowering of the LinearAlgebra ops (AdjOps.td: cholesky,
// triangular_solve, lu, qr, eigh, svd) calls these entry points, which run
// LAPACK (lib/Runtime/CPU/Lapack.h) on each matrix of a batch. Operands are
// contiguous row-major batches passed as addresses (compiled code hands
// over fresh or identity-layout buffers), sizes and flags as i64; each
// result is written whole, with exactly the op's semantics (the triangle
// not read ignored, the other triangle of a factor zeroed, LAPACK's
// failures as NaNs, the sign convention of eigen- and singular vectors).
//
// Without LAPACK, or with a matrix dimension beyond LAPACK's 32-bit
// integers, a kernel ends the running invoke() with that error
// (failCompiledCall); without memory for its workspace, with OutOfMemory.
// lib/Runtime/CPU/LinearAlgebra.h has the same kernels by op, returning a
// Status (the GPU devices' host route).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_KERNELSLINEARALGEBRA_H
#define ADJOINT_RUNTIME_KERNELSLINEARALGEBRA_H

#include <cstdint>

// Each kernel exists for f32, f64, c64 and c128 (the suffix; complex
// numbers as std::complex, interleaved parts). eigh's w and svd's s are
// real: float for f32 and c64, double for f64 and c128; eig's results are
// complex of those.
#define ADJ_LA_KERNELS(suffix)                                                 \
  /* l = cholesky(a): a, l [batch, n, n]. */                                   \
  void adj_kernel_cholesky_##suffix(intptr_t a, intptr_t l, int64_t batch,     \
                                    int64_t n);                                \
  /* x = triangular_solve(a, b): b, x [batch, rows, cols]; a is               \
     [batch, rows, rows] with leftSide, [batch, cols, cols] without. */       \
  void adj_kernel_triangular_solve_##suffix(                                   \
      intptr_t a, intptr_t b, intptr_t x, int64_t batch, int64_t rows,         \
      int64_t cols, int64_t leftSide, int64_t lower, int64_t transposeA,       \
      int64_t unitDiagonal);                                                   \
  /* lu, pivots (i32), permutation (i32) = lu(a): a, lu [batch, m, n],        \
     pivots [batch, min(m, n)], permutation [batch, m]. */                    \
  void adj_kernel_lu_##suffix(intptr_t a, intptr_t lu, intptr_t pivots,        \
                              intptr_t permutation, int64_t batch, int64_t m,  \
                              int64_t n);                                      \
  /* q, r = qr(a): a [batch, m, n], q [batch, m, k], r [batch, k, n], k = m   \
     when full, min(m, n) otherwise. */                                       \
  void adj_kernel_qr_##suffix(intptr_t a, intptr_t q, intptr_t r,              \
                              int64_t batch, int64_t m, int64_t n,             \
                              int64_t full);                                   \
  /* w, v = eigh(a): a, v [batch, n, n], w [batch, n]. Without `vectors`      \
     only w is computed (v is left unwritten: nothing reads it). */           \
  void adj_kernel_eigh_##suffix(intptr_t a, intptr_t w, intptr_t v,            \
                                int64_t batch, int64_t n, int64_t upper,       \
                                int64_t vectors);                              \
  /* w, v = eig(a): a [batch, n, n], w [batch, n] and v [batch, n, n]       \
     complex (of a's real type). Without `vectors` only w is computed. */     \
  void adj_kernel_eig_##suffix(intptr_t a, intptr_t w, intptr_t v,             \
                               int64_t batch, int64_t n, int64_t vectors);     \
  /* u, s, vh = svd(a): a [batch, m, n], s [batch, k] with k = min(m, n),     \
     u [batch, m, m or k], vh [batch, n or k, n]. Without `vectors` only s    \
     is computed (u and vh are left unwritten: nothing reads them). */        \
  void adj_kernel_svd_##suffix(intptr_t a, intptr_t u, intptr_t s,             \
                               intptr_t vh, int64_t batch, int64_t m,          \
                               int64_t n, int64_t full, int64_t vectors);

extern "C" {
ADJ_LA_KERNELS(f32)
ADJ_LA_KERNELS(f64)
ADJ_LA_KERNELS(c64)
ADJ_LA_KERNELS(c128)
}

#undef ADJ_LA_KERNELS

#endif // ADJOINT_RUNTIME_KERNELSLINEARALGEBRA_H
