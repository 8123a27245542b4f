//===- HandLoop.h - Hand-written loops for bench-cpu-elementwise -*- C++ -*-===//
//
// The baselines of bench-cpu-elementwise: the same ten operations written
// as one C++ loop, and row sums, compiled with -O3 -march=native in their
// own file.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_BENCHMARKS_CPU_HANDLOOP_H
#define ADJOINT_BENCHMARKS_CPU_HANDLOOP_H

#include <cstdint>

namespace adjoint::bench {

/// out[i] = -(sqrt(|max((x + y) * x - y, 0) * 0.5 + x|) * y), one thread.
void handChain(const float *x, const float *y, float *out, int64_t n);

/// out[r] = sum of row r of the rows x cols matrix x, one thread, with 16
/// partial sums per row so that the compiler vectorizes it (what a person
/// would write for speed; plain `s += x[c]` stays scalar without fast-math).
void handRowSums(const float *x, float *out, int64_t rows, int64_t cols);

} // namespace adjoint::bench

#endif // ADJOINT_BENCHMARKS_CPU_HANDLOOP_H
