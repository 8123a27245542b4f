//===- BoxMemory.h - Where the closure runtime keeps tensors ----*- C++ -*-===//
//
// The tensors that Closures.cpp boxes are copies in the memory of the call
// that boxes them: blocks of the host memory pool when compiled code runs
// on the CPU, blocks of the device's caching pool when invoke() runs GPU
// host code (whose memrefs hold device addresses). A box lives in the
// closure arena, which invoke() releases when the call returns, so a box
// is only ever read by the call, and on the device, that made it.
//
// Like the rest of the closure runtime, these functions may jump back to
// invoke() on failure (out of memory, a driver error): callers hold
// nothing with a destructor across them.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_BOXMEMORY_H
#define ADJOINT_LIB_RUNTIME_BOXMEMORY_H

#include <cstddef>
#include <cstdint>

namespace adjoint::rt {

namespace gpu {
class GpuDevice;
} // namespace gpu

/// The memory boxes made now live in: the GPU device of the current call,
/// or null for host memory.
gpu::GpuDevice *boxDevice();

/// A block of `bytes` (> 0) on `device` (null: the host memory pool). Null
/// only when a host call that already failed found no memory at all.
unsigned char *allocateBox(gpu::GpuDevice *device, size_t bytes);
/// Frees a block of allocateBox (null is ignored).
void releaseBox(gpu::GpuDevice *device, void *block);
/// Copies `bytes` between two blocks of `device` (or of the host).
void copyBox(gpu::GpuDevice *device, void *dst, const void *src,
             size_t bytes);
/// Writes `bytes` zero bytes at `dst` on `device` (or on the host).
void zeroBox(gpu::GpuDevice *device, void *dst, size_t bytes);
/// a += b elementwise over `bytes` bytes of tensors of `dtype`
/// (adj_rt_dtype; i1 as logical or), both on `device` (or on the host).
void addBoxes(gpu::GpuDevice *device, unsigned char *a,
              const unsigned char *b, size_t bytes, int64_t dtype);

} // namespace adjoint::rt

#endif // ADJOINT_LIB_RUNTIME_BOXMEMORY_H
