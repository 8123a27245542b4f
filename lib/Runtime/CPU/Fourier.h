//===- Fourier.h - FFTW's transforms with a Status --------------*- C++ -*-===//
//
// KernelsFourier.h's transforms behind one entry that returns a Status
// instead of ending the call, for the GPU devices' host route
// (GPU/HostLinearAlgebra.h), which runs them on copies of device buffers.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CPU_FOURIER_H
#define ADJOINT_LIB_RUNTIME_CPU_FOURIER_H

#include "adjoint/Runtime/DType.h"
#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>

namespace adjoint::rt::cpu {

/// The transform of KernelsFourier.h's `scalars` (batch, type, rank, n0,
/// n1, n2) in `dtype` (F32 or F64, the real type) from host `in` to host
/// `out`: Unavailable without FFTW, OutOfMemory without memory for a plan,
/// InvalidArgument for a bad type, rank or dtype.
Status fourier(DType dtype, intptr_t in, intptr_t out,
               const int64_t *scalars);

/// Whether FFTW loads for `dtype`.
bool fourierAvailable(DType dtype);

/// The number of FFTW plans kept for `dtype` (F32 or F64), and the most
/// kept: the plans of the configurations used last.
size_t fftwPlansKept(DType dtype);
size_t fftwPlanCapacity();

} // namespace adjoint::rt::cpu

#endif // ADJOINT_LIB_RUNTIME_CPU_FOURIER_H
