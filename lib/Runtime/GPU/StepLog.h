//===- StepLog.h - A compiled call's queued work, as recorded ---*- C++ -*-===//
//
// While a compiled call records its work for a graph (GpuDeviceSteps.cpp),
// each launch, GEMM, copy and fill it queues lands here instead of in the
// driver: what to replay (the operation, its loaded kernel, its argument
// values copied out of the caller's frame) and the signature that tells
// two calls' work apart (everything but the driver handles, in order).
// Two calls with equal signatures queue the same kernels with the same
// shapes on the same addresses, and their GEMMs the same problems by the
// same routes, so one graph replays either.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_STEPLOG_H
#define ADJOINT_LIB_RUNTIME_GPU_STEPLOG_H

#include "GPU/GpuDevice.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace adjoint::rt::gpu {

class StepLog {
public:
  enum class Kind : uint8_t { Launch, Gemm, Copy, Fill };

  /// One recorded operation. Launches and GEMMs keep their argument
  /// values in the log (args()).
  struct Op {
    Kind kind;
    /// Launch: the kernel, its loaded handle and launch shape.
    const adj_rt_gpu_kernel *kernel = nullptr;
    void *handle = nullptr;
    uint64_t grid[3] = {0, 0, 0};
    uint64_t block[3] = {0, 0, 0};
    uint32_t sharedBytes = 0;
    /// Gemm: the descriptor and its operands.
    const adj_rt_gpu_gemm_desc *gemm = nullptr;
    void *operands[3] = {nullptr, nullptr, nullptr};
    /// Copy and Fill.
    void *dst = nullptr;
    const void *src = nullptr;
    size_t bytes = 0;
    CopyKind copyKind = CopyKind::DeviceToDevice;
    /// A host-to-device copy from staging memory the log owns until the
    /// copy is queued (GpuDevice's staging holds it from then on).
    bool staged = false;
    uint8_t value = 0;
    /// The argument values of the launch (or of the GEMM's fallback):
    /// entries [firstArg, firstArg + numArgs) of the log's offsets.
    size_t firstArg = 0;
    uint32_t numArgs = 0;
  };

  void launch(const adj_rt_gpu_kernel &kernel, void *handle,
              const uint64_t grid[3], const uint64_t block[3],
              uint32_t sharedBytes, void **args);
  /// `route`: the device's choice between library and kernel for it
  /// (GpuDevice::settledGemmRoute).
  void gemm(const adj_rt_gpu_gemm_desc &gemm, int route, void *a, void *b,
            void *c, void **fallbackArgs);
  void copy(void *dst, const void *src, size_t bytes, CopyKind kind,
            bool staged = false);
  void fill(void *dst, uint8_t value, size_t bytes);

  const std::vector<Op> &ops() const { return ops_; }
  /// The argument pointers of `op`, as a launch takes them (pointing into
  /// the log; valid while it lives).
  std::vector<void *> args(const Op &op) const;
  const std::string &signature() const { return signature_; }
  bool empty() const { return ops_.empty(); }

private:
  /// Appends the values `args` points to, of `sizes`, to the log.
  void keepArgs(Op &op, uint32_t count, const uint32_t *sizes, void **args);
  template <typename T> void sign(const T &value) {
    signature_.append(reinterpret_cast<const char *>(&value), sizeof(T));
  }

  std::vector<Op> ops_;
  std::string argBytes_;
  std::vector<size_t> argOffsets_;
  std::string signature_;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_STEPLOG_H
