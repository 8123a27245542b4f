//===- KernelsFourier.h - FFT kernels for compiled code ---------*- C++ -*-===//
//
// The CPU lowering of adj.fft calls these entry points, which run FFTW
// (lib/Runtime/CPU/Fftw.h) on a contiguous row-major batch: `in` and `out`
// are addresses, `type` is adj::FftType's value (0 fft, 1 ifft, 2 rfft,
// 3 irfft), `rank` (1 to 3) lengths `n0`, `n1`, `n2` (the unused ones 1)
// over the trailing dimensions, `batch` transforms of them. The result is
// written whole with the op's semantics: ifft and irfft divided by the
// product of the lengths, irfft reading its input as a Hermitian half
// spectrum (and not writing it). Without FFTW, a kernel ends the running
// invoke() with Unavailable (failCompiledCall); without memory for its
// scratch, with OutOfMemory.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_KERNELSFOURIER_H
#define ADJOINT_RUNTIME_KERNELSFOURIER_H

#include <cstdint>

extern "C" {
void adj_kernel_fft_f32(intptr_t in, intptr_t out, int64_t batch,
                        int64_t type, int64_t rank, int64_t n0, int64_t n1,
                        int64_t n2);
void adj_kernel_fft_f64(intptr_t in, intptr_t out, int64_t batch,
                        int64_t type, int64_t rank, int64_t n0, int64_t n1,
                        int64_t n2);
}

#endif // ADJOINT_RUNTIME_KERNELSFOURIER_H
