//===- BoxMemory.cpp - Where the closure runtime keeps tensors ------------===//

#include "BoxMemory.h"
#include "GPU/GpuCall.h"
#include "GPU/GpuDevice.h"
#include "adjoint/Runtime/Closures.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstring>

using namespace adjoint;
using namespace adjoint::rt;

namespace {

template <typename T>
T load(const unsigned char *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store(unsigned char *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

/// a += b on the host.
void addOnHost(unsigned char *a, const unsigned char *b, size_t n,
               int64_t dtype) {
  switch (dtype) {
  case ADJ_RT_F64:
    for (size_t i = 0; i < n; i += 8)
      store(a + i, load<double>(a + i) + load<double>(b + i));
    break;
  case ADJ_RT_F32:
    for (size_t i = 0; i < n; i += 4)
      store(a + i, load<float>(a + i) + load<float>(b + i));
    break;
  case ADJ_RT_F16:
    for (size_t i = 0; i < n; i += 2)
      store(a + i, floatToHalf(halfToFloat(load<uint16_t>(a + i)) +
                               halfToFloat(load<uint16_t>(b + i))));
    break;
  case ADJ_RT_BF16:
    for (size_t i = 0; i < n; i += 2)
      store(a + i, floatToBFloat16(bfloat16ToFloat(load<uint16_t>(a + i)) +
                                   bfloat16ToFloat(load<uint16_t>(b + i))));
    break;
  case ADJ_RT_I64:
    // Wraps around like compiled code and the interpreter.
    for (size_t i = 0; i < n; i += 8)
      store(a + i, load<uint64_t>(a + i) + load<uint64_t>(b + i));
    break;
  case ADJ_RT_I32:
    for (size_t i = 0; i < n; i += 4)
      store(a + i, static_cast<uint32_t>(load<uint32_t>(a + i) +
                                         load<uint32_t>(b + i)));
    break;
  default: // i1: logical or.
    for (size_t i = 0; i < n; ++i)
      a[i] = (a[i] != 0 || b[i] != 0) ? 1 : 0;
    break;
  }
}

} // namespace

gpu::GpuDevice *adjoint::rt::boxDevice() { return gpu::callDevice(); }

unsigned char *adjoint::rt::allocateBox(gpu::GpuDevice *device, size_t bytes) {
  if (!device)
    return static_cast<unsigned char *>(allocateRuntimeBlock(bytes));
  // Not tracked as a block of the call: the arena owns it.
  void *block = nullptr;
  gpu::orFail(device->allocate(bytes, &block));
  return static_cast<unsigned char *>(block);
}

void adjoint::rt::releaseBox(gpu::GpuDevice *device, void *block) {
  if (!device)
    releaseRuntimeBlock(block);
  else if (block)
    device->deallocate(block);
}

void adjoint::rt::copyBox(gpu::GpuDevice *device, void *dst, const void *src,
                 size_t bytes) {
  if (!device)
    std::memcpy(dst, src, bytes);
  else
    gpu::orFail(device->copyDeviceToDevice(dst, src, bytes));
}

void adjoint::rt::zeroBox(gpu::GpuDevice *device, void *dst, size_t bytes) {
  if (!device)
    std::memset(dst, 0, bytes);
  else
    gpu::orFail(device->fill(dst, 0, bytes));
}

void adjoint::rt::addBoxes(gpu::GpuDevice *device, unsigned char *a,
                  const unsigned char *b, size_t bytes, int64_t dtype) {
  if (!device)
    return addOnHost(a, b, bytes, dtype);
  if (!bytes)
    return;
  // The runtime has no kernels of its own: add on the host. Sums of
  // environments are rare in compiled gradients (only sensitivities of
  // free variables that two paths reach through the closure runtime), and
  // are small. One scratch block for both operands, freed before any
  // failure jumps back to invoke().
  auto *scratch = allocateBox(nullptr, 2 * bytes);
  if (!scratch)
    return;
  Status status = device->copyDeviceToHost(scratch, a, bytes);
  if (status.ok())
    status = device->copyDeviceToHost(scratch + bytes, b, bytes);
  if (status.ok()) {
    addOnHost(scratch, scratch + bytes, bytes, dtype);
    // Uploads copy their host bytes before they return.
    status = device->copyHostToDevice(a, scratch, bytes);
  }
  releaseBox(nullptr, scratch);
  gpu::orFail(std::move(status));
}
