//===- GpuABI.h - What generated GPU host code calls ------------*- C++ -*-===//
//
// The C interface between the host function of a GPU executable (LLVM code
// on the CPU, made by the GPU lowering) and the runtime. The host function
// never talks to a driver: it calls these functions, which act on the
// *current device*, the device invoke() runs the call on (a thread-local
// set for the duration of the call). Every pointer named "device" here is
// device memory of that device, as a plain address (CUDA and HIP device
// pointers, Level Zero and OpenCL unified shared memory, or OpenCL 2.0
// coarse-grained SVM where USM is missing): memref descriptors of the host
// function hold such addresses and the host code never dereferences them.
//
// Work is asynchronous: launches, copies and fills are queued on the
// device's one in-order queue and these functions return at once; only
// adj_rt_gpu_read waits (for the queue to reach the copy). Memory freed
// while kernels that use it are still queued goes back to the caching pool
// and is handed out again only to work queued later on the same queue,
// which the in-order queue runs after them (as PyTorch's allocator does
// for one stream).
//
// On failure (out of device memory, a driver error, a module the driver
// rejects) these functions record the error in the call and jump back to
// invoke(), which frees what the call allocated and returns the Status, as
// the CPU allocation hooks do (Invoke.h). Outside invoke() they abort with
// the message: there is nowhere to return it to.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_GPUABI_H
#define ADJOINT_RUNTIME_GPUABI_H

#include <cstdint>

extern "C" {

/// The format of a kernel module's bytes.
enum adj_rt_gpu_format : uint32_t {
  /// A SPIR-V module (OpenCL kernel flavour): OpenCL and Level Zero.
  ADJ_RT_GPU_SPIRV = 1,
  /// A CUDA fatbin/cubin/PTX image for cuModuleLoadData.
  ADJ_RT_GPU_CUDA = 2,
  /// An AMD HSA code object for hipModuleLoadData.
  ADJ_RT_GPU_HSACO = 3,
};

/// One device module as the host object embeds it: constant data, one per
/// gpu.module. The runtime loads it lazily, on the first launch of one of
/// its kernels on a device, and caches the loaded module per device for the
/// life of the process, keyed by this descriptor's address.
struct adj_rt_gpu_module {
  uint32_t format; // adj_rt_gpu_format
  uint32_t reserved;
  const void *data;
  uint64_t size;
  /// NUL-terminated, for messages ("main_kernels").
  const char *name;
};

/// One kernel of a module. argSizes[i] is the byte size of scalar argument
/// i, or 0 for a device pointer argument (OpenCL and Level Zero set those
/// with their own calls). Kernel handles are cached per device, keyed by
/// this descriptor's address.
struct adj_rt_gpu_kernel {
  const adj_rt_gpu_module *module;
  /// NUL-terminated entry point name.
  const char *name;
  uint32_t numArgs;
  uint32_t reserved;
  const uint32_t *argSizes;
};

/// `bytes` of device memory from the current device's caching pool; the
/// result is aligned to at least 256 bytes. Never returns null (a failure
/// jumps back to invoke()).
void *adj_rt_gpu_alloc(uint64_t bytes);
/// Returns a block of adj_rt_gpu_alloc to the pool (null is ignored).
void adj_rt_gpu_free(void *device);
/// Queues a copy of `bytes` between two device buffers.
void adj_rt_gpu_memcpy(void *dstDevice, const void *srcDevice,
                       uint64_t bytes);
/// Copies `bytes` of device memory to the host and waits for it (host
/// control flow on a computed value: a loop condition, a branch).
void adj_rt_gpu_read(void *dstHost, const void *srcDevice, uint64_t bytes);
/// Queues a copy of `bytes` of host memory into device memory. The host
/// bytes are copied before this returns (the caller may reuse them).
void adj_rt_gpu_write(void *dstDevice, const void *srcHost, uint64_t bytes);
/// The device copy of constant host data (a global of the host object),
/// uploaded on first use and cached per device for the life of the
/// process, keyed by `host`. Compiled code must not write it.
void *adj_rt_gpu_constant(const void *host, uint64_t bytes);
/// Queues one launch of `kernel` on a grid of `grid*` workgroups (blocks)
/// of `block*` work items (threads) each, with `sharedBytes` of dynamic
/// workgroup-local memory. args[i] points to the value of argument i (a
/// device pointer or a scalar of argSizes[i] bytes), as cuLaunchKernel's
/// kernelParams. OpenCL and Level Zero have no separate dynamic local
/// memory: there, sharedBytes > 0 becomes one more argument after the
/// numArgs declared ones, a workgroup-local buffer of that size.
void adj_rt_gpu_launch(const adj_rt_gpu_kernel *kernel, uint64_t gridX,
                       uint64_t gridY, uint64_t gridZ, uint64_t blockX,
                       uint64_t blockY, uint64_t blockZ, uint32_t sharedBytes,
                       void **args);

/// How a matrix of a GEMM lies in memory.
enum adj_rt_gpu_order : uint32_t {
  /// Element (i, j) at i * ld + j.
  ADJ_RT_GPU_ROW_MAJOR = 0,
  /// Element (i, j) at i + j * ld.
  ADJ_RT_GPU_COL_MAJOR = 1,
};

/// Bits of adj_rt_gpu_gemm_desc::flags.
enum adj_rt_gpu_gemm_flag : uint32_t {
  /// f32 products may round their inputs to TF32 (10-bit mantissa), as
  /// torch's allow_tf32; without it f32 GEMMs are exact f32.
  ADJ_RT_GPU_GEMM_TF32 = 1,
  /// C = A B: C's prior values are not read (beta = 0); without it C += A B.
  ADJ_RT_GPU_GEMM_OVERWRITE = 2,
};

/// One operand of a GEMM: its order, leading dimension (elements between
/// rows of a row-major matrix, columns of a column-major one) and batch
/// stride (elements between consecutive matrices; 0 repeats the same
/// matrix for every batch entry, a broadcast).
struct adj_rt_gpu_matrix {
  uint32_t order; // adj_rt_gpu_order
  uint32_t reserved;
  uint64_t ld;
  uint64_t batchStride;
};

/// A GEMM as the host object embeds it (constant data, one per product):
/// for every b < batch, C_b += A_b B_b with A_b m x k, B_b k x n and C_b
/// m x n, of element type `dtype` (adjoint::DType: F64, F32 or F16), and
/// the generated kernel that computes it (the fallback), with the launch
/// it was made for. Library plans are cached per device, keyed by the
/// problem (not by this descriptor's address).
struct adj_rt_gpu_gemm_desc {
  uint32_t dtype;
  uint32_t flags; // adj_rt_gpu_gemm_flag bits
  uint64_t batch, m, n, k;
  adj_rt_gpu_matrix a, b, c;
  const adj_rt_gpu_kernel *fallback;
  uint64_t grid[3];
  uint64_t block[3];
  uint32_t sharedBytes;
  uint32_t reserved;
};

/// Queues `gemm` with A, B and C at the device addresses `a`, `b`, `c`
/// (element (0, 0) of batch entry 0: view offsets applied). C is
/// accumulated into (beta = 1), as linalg contractions accumulate into
/// their init. The device computes it with its vendor library (cuBLASLt on
/// CUDA) or by launching `gemm->fallback` with `fallbackArgs` (as
/// adj_rt_gpu_launch's args), whichever it measured faster for this
/// problem; devices without a library always launch the fallback.
void adj_rt_gpu_gemm(const adj_rt_gpu_gemm_desc *gemm, void *a, void *b,
                     void *c, void **fallbackArgs);
/// The decompositions of adj_rt_gpu_linalg_begin (AdjOps.td's LinearAlgebra
/// ops).
enum adj_rt_gpu_linalg_op : uint32_t {
  ADJ_RT_GPU_CHOLESKY = 1,
  ADJ_RT_GPU_TRIANGULAR_SOLVE = 2,
  ADJ_RT_GPU_LU = 3,
  ADJ_RT_GPU_QR = 4,
  ADJ_RT_GPU_EIGH = 5,
  ADJ_RT_GPU_SVD = 6,
  /// adj.fft: buffers (in, out), scalars (batch, type: adj::FftType's
  /// value, rank, n0, n1, n2) as KernelsFourier.h's, dtype the real type
  /// (F32 for complex<f32>). The kernels are the generated FFT, run by the
  /// caller where the ticket asks for them.
  ADJ_RT_GPU_FFT = 7,
  /// adj.eig: buffers (a, w, v), scalars (batch, n, vectors) as
  /// KernelsLinearAlgebra.h's, dtype a's (w and v are complex). It has no
  /// kernels: a library always computes it.
  ADJ_RT_GPU_EIG = 8,
};

/// What adj_rt_gpu_linalg_begin asks of the host code.
enum adj_rt_gpu_linalg_ticket : int64_t {
  /// The device computed the decomposition (with its library).
  ADJ_RT_GPU_LINALG_DONE = 0,
  /// Launch the generated kernels; values above this one also ask for
  /// them, and time them until adj_rt_gpu_linalg_end.
  ADJ_RT_GPU_LINALG_KERNELS = 1,
};

/// Starts decomposition `op` of element type `dtype` (adjoint::DType: F32
/// or F64) on the device buffers b0..b3 (the op's operands then results,
/// contiguous row-major batches; unused ones null) with the i64 scalars
/// s0..s6 of the CPU kernel of the same op (KernelsLinearAlgebra.h: the
/// batch, the sizes, the flags; unused ones 0). The device either computes
/// it with a library (a vendor solver, or LAPACK on the host) and returns
/// ADJ_RT_GPU_LINALG_DONE, or returns a ticket asking the host code to
/// launch the generated kernels that compute it, whichever it measured
/// faster for this problem (ADJOINT_GPU_LINALG = library or kernels
/// forces a route). The host code then calls adj_rt_gpu_linalg_end with
/// the ticket, whichever route ran.
int64_t adj_rt_gpu_linalg_begin(uint32_t op, uint32_t dtype, void *b0,
                                void *b1, void *b2, void *b3, int64_t s0,
                                int64_t s1, int64_t s2, int64_t s3,
                                int64_t s4, int64_t s5, int64_t s6);
/// Ends what adj_rt_gpu_linalg_begin started (a timed run of the kernels
/// waits for them here).
void adj_rt_gpu_linalg_end(int64_t ticket);
}

#endif // ADJOINT_RUNTIME_GPUABI_H
