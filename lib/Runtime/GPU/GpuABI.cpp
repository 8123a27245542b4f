//===- GpuABI.cpp - What generated GPU host code calls --------------------===//
//
// Thin: each function finds the current device, forwards to GpuDevice and
// turns a failed Status into a jump back to invoke() (GpuCall.h). No frame
// here may hold an object with a destructor across fail(): each Status is
// moved into fail(), which copies it into the call before jumping.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/GpuABI.h"
#include "GPU/GpuCall.h"
#include "GPU/GpuDevice.h"

#include <cstddef>

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

extern "C" void *adj_rt_gpu_alloc(uint64_t bytes) {
  GpuDevice &device = currentDevice("adj_rt_gpu_alloc");
  void *block = nullptr;
  orFail(device.allocate(bytes, &block));
  trackBlock(block);
  return block;
}

extern "C" void adj_rt_gpu_free(void *ptr) {
  if (!ptr)
    return;
  GpuDevice &device = currentDevice("adj_rt_gpu_free");
  untrackBlock(ptr);
  device.deallocate(ptr);
}

extern "C" void adj_rt_gpu_memcpy(void *dst, const void *src,
                                  uint64_t bytes) {
  orFail(currentDevice("adj_rt_gpu_memcpy").copyDeviceToDevice(dst, src,
                                                               bytes));
}

extern "C" void adj_rt_gpu_read(void *dstHost, const void *src,
                                uint64_t bytes) {
  orFail(currentDevice("adj_rt_gpu_read").copyDeviceToHost(dstHost, src,
                                                           bytes));
}

extern "C" void adj_rt_gpu_write(void *dst, const void *srcHost,
                                 uint64_t bytes) {
  orFail(currentDevice("adj_rt_gpu_write").copyHostToDevice(dst, srcHost,
                                                            bytes));
}

extern "C" void *adj_rt_gpu_constant(const void *host, uint64_t bytes) {
  void *device = nullptr;
  orFail(currentDevice("adj_rt_gpu_constant").constant(host, bytes, &device));
  return device;
}

extern "C" void adj_rt_gpu_launch(const adj_rt_gpu_kernel *kernel,
                                  uint64_t gridX, uint64_t gridY,
                                  uint64_t gridZ, uint64_t blockX,
                                  uint64_t blockY, uint64_t blockZ,
                                  uint32_t sharedBytes, void **args) {
  GpuDevice &device = currentDevice("adj_rt_gpu_launch");
  if (!kernel)
    fail(Status::error(StatusCode::InvalidArgument,
                       "adj_rt_gpu_launch without a kernel descriptor"));
  const uint64_t grid[3] = {gridX, gridY, gridZ};
  const uint64_t block[3] = {blockX, blockY, blockZ};
  orFail(device.launch(*kernel, grid, block, sharedBytes, args));
}

// -adj-gpu-launch-to-runtime writes the descriptor as a flat LLVM struct
// of naturally aligned fields; these are the offsets it relies on.
static_assert(offsetof(adj_rt_gpu_gemm_desc, a) == 40 &&
                  offsetof(adj_rt_gpu_gemm_desc, c) == 88 &&
                  offsetof(adj_rt_gpu_gemm_desc, fallback) == 112 &&
                  offsetof(adj_rt_gpu_gemm_desc, grid) == 120 &&
                  offsetof(adj_rt_gpu_gemm_desc, sharedBytes) == 168 &&
                  sizeof(adj_rt_gpu_gemm_desc) == 176,
              "adj_rt_gpu_gemm_desc changed: update LaunchToRuntime.cpp");

extern "C" void adj_rt_gpu_gemm(const adj_rt_gpu_gemm_desc *gemm, void *a,
                                void *b, void *c, void **fallbackArgs) {
  GpuDevice &device = currentDevice("adj_rt_gpu_gemm");
  if (!gemm)
    fail(Status::error(StatusCode::InvalidArgument,
                       "adj_rt_gpu_gemm without a GEMM descriptor"));
  orFail(device.gemm(*gemm, a, b, c, fallbackArgs));
}

extern "C" int64_t adj_rt_gpu_linalg_begin(uint32_t op, uint32_t dtype,
                                           void *b0, void *b1, void *b2,
                                           void *b3, int64_t s0, int64_t s1,
                                           int64_t s2, int64_t s3, int64_t s4,
                                           int64_t s5, int64_t s6) {
  GpuDevice &device = currentDevice("adj_rt_gpu_linalg_begin");
  // DType's values only name types here; anything else is refused by the
  // device's check.
  LinearAlgebraProblem problem{op, static_cast<adjoint::DType>(dtype),
                               {s0, s1, s2, s3, s4, s5, s6}};
  void *const buffers[] = {b0, b1, b2, b3};
  int64_t ticket = ADJ_RT_GPU_LINALG_KERNELS;
  orFail(device.linearAlgebraBegin(problem, buffers, &ticket));
  return ticket;
}

extern "C" void adj_rt_gpu_linalg_end(int64_t ticket) {
  orFail(currentDevice("adj_rt_gpu_linalg_end").linearAlgebraEnd(ticket));
}
