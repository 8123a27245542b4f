//===- HandLoop.h - Hand-written loops for bench-cpu-elementwise -*- C++ -*-===//
//
// The baseline of the fused-elementwise benchmark: the same ten operations
// written as one C++ loop, compiled with -O3 -march=native in its own file.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_BENCHMARKS_CPU_HANDLOOP_H
#define ADJOINT_BENCHMARKS_CPU_HANDLOOP_H

#include <cstdint>

namespace adjoint::bench {

/// out[i] = -(sqrt(|max((x + y) * x - y, 0) * 0.5 + x|) * y), one thread.
void handChain(const float *x, const float *y, float *out, int64_t n);

} // namespace adjoint::bench

#endif // ADJOINT_BENCHMARKS_CPU_HANDLOOP_H
