//===- OneDnn.h - oneDNN's f32 GEMM through dlopen --------------*- C++ -*-===//
//
// oneDNN's dnnl_sgemm JIT-generates AVX-512/AVX2 micro-kernels for the host
// and, unlike Eigen's GEMM, specializes small and skinny products (m = 16
// rows, an inner dimension of 10): 1.3-2.7x Eigen's throughput on the
// products of the MLP/LSTM/convolution layers, the same on large square
// ones (docs/cpu-backend.md, "Matmul and convolution"). It is loaded with
// dlopen on the first product, like a GPU driver, so the runtime builds and
// runs without it (Eigen then computes every product) and ahead-of-time
// compiled programs do not link it.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CPU_ONEDNN_H
#define ADJOINT_LIB_RUNTIME_CPU_ONEDNN_H

#include "adjoint/Runtime/Kernels.h"

namespace adjoint::rt::cpu {

/// Whether libdnnl.so.2 (or .so.3) was found with dnnl_sgemm; loads it on
/// the first call. Never throws.
bool oneDnnAvailable() noexcept;

/// `c (+)= a * b` with dnnl_sgemm on the calling thread (oneDNN's own
/// OpenMP threads are held at one for the call: the runtime's pool splits
/// products). Returns false, with `c` untouched, when oneDNN is missing or
/// a view is not row- or column-major with a leading dimension oneDNN takes
/// (both strides > 1, a stride of 0, overlapping rows), and when oneDNN
/// reports an error (bad arguments, no memory for its packing buffers: it
/// checks and allocates before it writes `c`). Never throws.
bool oneDnnGemm(const MatrixView<const float> &a,
                const MatrixView<const float> &b, const MatrixView<float> &c,
                bool accumulate) noexcept;

} // namespace adjoint::rt::cpu

#endif // ADJOINT_LIB_RUNTIME_CPU_ONEDNN_H
