//===- LinearAlgebra.h - The LAPACK kernels by op ---------------*- C++ -*-===//
//
// The LinearAlgebra kernels of KernelsLinearAlgebra.h behind one entry that
// returns a Status instead of ending the call, for callers that hold
// resources across it: the GPU devices' host route (GPU/HostLinearAlgebra.h)
// copies a decomposition's operands to the host, runs it here and copies
// the results back. Ops are GpuABI.h's adj_rt_gpu_linalg_op, scalars the
// kernels' i64 arguments in order.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CPU_LINEARALGEBRA_H
#define ADJOINT_LIB_RUNTIME_CPU_LINEARALGEBRA_H

#include "adjoint/Runtime/DType.h"
#include "adjoint/Runtime/Status.h"

#include <cstdint>
#include <vector>

namespace adjoint::rt::cpu {

/// The most buffers and scalars of any op (lu, svd; triangular_solve).
inline constexpr unsigned kLinearAlgebraMaxBuffers = 4;
inline constexpr unsigned kLinearAlgebraMaxScalars = 7;

/// One buffer of a decomposition: its bytes, and whether the op reads it
/// (an operand) or writes it (a result).
struct LinearAlgebraBuffer {
  uint64_t bytes;
  bool operand;
};

/// The buffers of `op` on `dtype` (F32 or F64) with `scalars`, in the
/// kernel's order; InvalidArgument for an unknown op or dtype, a negative
/// size or a byte count beyond 64 bits.
Status linearAlgebraBuffers(uint32_t op, DType dtype, const int64_t *scalars,
                            std::vector<LinearAlgebraBuffer> *buffers);

/// Runs the kernel of `op` on host `buffers` (linearAlgebraBuffers' order
/// and sizes): Unavailable without LAPACK, InvalidArgument with a matrix
/// dimension beyond LAPACK's 32-bit integers, OutOfMemory without memory
/// for a workspace. ADJ_RT_GPU_FFT is FFTW's transform (CPU/Fourier.h).
Status linearAlgebra(uint32_t op, DType dtype, const intptr_t *buffers,
                     const int64_t *scalars);

} // namespace adjoint::rt::cpu

#endif // ADJOINT_LIB_RUNTIME_CPU_LINEARALGEBRA_H
