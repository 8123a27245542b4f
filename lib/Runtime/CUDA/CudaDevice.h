//===- CudaDevice.h - NVIDIA GPUs through the CUDA driver API ---*- C++ -*-===//
//
// Every GPU the CUDA driver reports ("cuda:0", ...): its primary context
// (shared with other CUDA users in the process, as torch and JAX) pushed
// current around every driver call, so any thread may use the device;
// device memory from cuMemAlloc into the shared caching pool; modules from
// fatbins (cubin + PTX) loaded once per device. The stream, pinned
// staging, event timing and GEMM routing are the stream-device layer's
// (GPU/StreamDevice.h), over the entry points of CudaApi.h.
//
// GEMMs go to cuBLASLt (CublasLtGemm.h) or the generated kernel, whichever
// was measured faster (ADJOINT_CUDA_GEMM=library or kernels forces one);
// decompositions to cuSOLVER (CusolverSolver.h) or the generated kernels,
// LAPACK on the host where cuSOLVER is missing; FFTs to cuFFT.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUDADEVICE_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUDADEVICE_H

#include "CUDA/CudaApi.h"
#include "GPU/StreamDevice.h"

#include <memory>
#include <vector>

namespace adjoint::rt::cuda {

class CudaDevice final : public gpu::StreamDevice {
public:
  CudaDevice(const CudaApi &api, CUdevice device, int index,
             DeviceProperties properties, Limits limits);
  ~CudaDevice() override;

  const CudaApi &api() const { return cu_; }

protected:
  // GpuDevice.
  Status rawAllocate(size_t bytes, void **ptr) override;
  void rawRelease(void *ptr) override;
  Status enqueueFill(void *dst, uint8_t value, size_t bytes) override;
  Status loadModule(const adj_rt_gpu_module &module, void **handle) override;
  Status loadKernel(void *module, const adj_rt_gpu_kernel &kernel,
                    void **handle) override;
  Status enqueueLaunch(void *handle, const adj_rt_gpu_kernel &kernel,
                       const uint64_t grid[3], const uint64_t block[3],
                       uint32_t sharedBytes, void **args) override;
  void releaseKernel(void *handle) override;
  void releaseModule(void *handle) override;
  bool acceptsFormat(uint32_t format) const override {
    return format == ADJ_RT_GPU_CUDA;
  }
  /// cuSOLVER, where it loads.
  std::unique_ptr<gpu::DenseSolver> makeDenseSolver() override;
  /// cuFFT, where it loads.
  std::unique_ptr<gpu::LinearAlgebraLibrary> makeFftLibrary() override;

  // StreamDevice.
  Status enterDevice(intptr_t *saved) const override;
  void leaveDevice(intptr_t saved) const override;
  /// Retains the primary context.
  Status openContext() override;
  Status copyAsync(void *dst, const void *src, size_t bytes,
                   gpu::CopyKind kind) override;
  /// cuBLASLt, where it loads.
  std::unique_ptr<gpu::GemmLibrary> makeGemmLibrary(Status *why) override;
  Status updateGraph(gpu::GraphExec exec, gpu::Graph graph,
                     bool *updated) override;
  Status check(int result, const char *call,
               const std::string &context = "") const override {
    return cuda::check(cu_, result, call, context);
  }

private:
  const CudaApi &cu_;
  CUdevice device_;
  CUcontext context_ = nullptr;
};

/// The CUDA GPUs; when there are none, Unavailable with the reason
/// ("libcuda.so.1 not found (...)", or the driver found no GPU).
Status probeDevices(std::vector<std::unique_ptr<Device>> &devices);

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUDADEVICE_H
