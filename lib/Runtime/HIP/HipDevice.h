//===- HipDevice.h - AMD GPUs through the HIP runtime -----------*- C++ -*-===//
//
// Every GPU the HIP runtime reports ("hip:0", ...): device memory from
// hipMalloc into the shared caching pool, modules from AMD code objects
// (ADJ_RT_GPU_HSACO) loaded once per device, each kernel's arguments
// checked against the code object's metadata. HIP selects the device per
// thread (hipSetDevice), so the device is made current around every
// runtime call and the caller's choice restored after, and any thread may
// use it. The stream, pinned staging, event timing and GEMM routing are
// the stream-device layer's (GPU/StreamDevice.h), over the entry points of
// HipApi.h.
//
// GEMMs go to rocBLAS (RocblasGemm.h) or the generated kernel, whichever
// was measured faster (ADJOINT_HIP_GEMM=library or kernels forces one);
// decompositions to rocSOLVER (RocsolverSolver.h) or the generated
// kernels, LAPACK on the host where rocSOLVER is missing; FFTs to rocFFT.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_HIPDEVICE_H
#define ADJOINT_LIB_RUNTIME_HIP_HIPDEVICE_H

#include "GPU/StreamDevice.h"
#include "HIP/HipApi.h"

#include <memory>
#include <vector>

namespace adjoint::rt::hip {

class HipDevice final : public gpu::StreamDevice {
public:
  HipDevice(const HipApi &api, hipDevice_t device, int index,
            DeviceProperties properties, Limits limits);
  ~HipDevice() override;

  const HipApi &api() const { return hip_; }

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
    return format == ADJ_RT_GPU_HSACO;
  }
  /// rocSOLVER, where it loads.
  std::unique_ptr<gpu::DenseSolver> makeDenseSolver() override;
  /// rocFFT, where it loads.
  std::unique_ptr<gpu::LinearAlgebraLibrary> makeFftLibrary() override;

  // StreamDevice.
  Status enterDevice(intptr_t *saved) const override;
  void leaveDevice(intptr_t saved) const override;
  Status copyAsync(void *dst, const void *src, size_t bytes,
                   gpu::CopyKind kind) override;
  /// rocBLAS, where it loads.
  std::unique_ptr<gpu::GemmLibrary> makeGemmLibrary(Status *why) override;
  Status updateGraph(gpu::GraphExec exec, gpu::Graph graph,
                     bool *updated) override;
  Status check(int result, const char *call,
               const std::string &context = "") const override {
    return hip::check(hip_, result, call, context);
  }

private:
  const HipApi &hip_;
  hipDevice_t device_;
};

/// The HIP GPUs; when there are none, Unavailable with the reason
/// ("libamdhip64.so.6, libamdhip64.so.5 or libamdhip64.so not found (...)",
/// or the runtime found no GPU).
Status probeDevices(std::vector<std::unique_ptr<Device>> &devices);

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_HIPDEVICE_H
