//===- HostLinearAlgebra.cpp - Decompositions by LAPACK on the host -------===//

#include "GPU/HostLinearAlgebra.h"
#include "CPU/Fourier.h"
#include "CPU/Lapack.h"
#include "CPU/LinearAlgebra.h"
#include "adjoint/Runtime/GpuABI.h"

#include <memory>
#include <new>
#include <vector>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

bool HostLinearAlgebra::computes(const LinearAlgebraProblem &problem) const {
  if (problem.op == ADJ_RT_GPU_FFT)
    return cpu::fourierAvailable(problem.dtype);
  return cpu::lapack() != nullptr;
}

Status HostLinearAlgebra::compute(const LinearAlgebraProblem &problem,
                                  void *const *buffers) {
  std::vector<cpu::LinearAlgebraBuffer> layout;
  if (Status status = cpu::linearAlgebraBuffers(
          problem.op, problem.dtype, problem.scalars.data(), &layout);
      !status.ok())
    return status;
  // 8-byte words: aligned for every element type.
  std::vector<std::unique_ptr<uint64_t[]>> host;
  intptr_t addresses[cpu::kLinearAlgebraMaxBuffers] = {};
  for (size_t i = 0; i < layout.size(); ++i) {
    uint64_t words = (layout[i].bytes + 7) / 8;
    host.emplace_back(new (std::nothrow) uint64_t[words ? words : 1]);
    if (!host.back())
      return Status::error(StatusCode::OutOfMemory,
                           "no host memory for a decomposition's copy");
    addresses[i] = reinterpret_cast<intptr_t>(host.back().get());
    if (layout[i].operand && layout[i].bytes)
      if (Status status = device_.copyDeviceToHost(host.back().get(),
                                                   buffers[i], layout[i].bytes);
          !status.ok())
        return status;
  }
  if (Status status = cpu::linearAlgebra(problem.op, problem.dtype, addresses,
                                         problem.scalars.data());
      !status.ok())
    return status;
  for (size_t i = 0; i < layout.size(); ++i)
    if (!layout[i].operand && layout[i].bytes)
      if (Status status = device_.copyHostToDevice(
              buffers[i], host[i].get(), layout[i].bytes);
          !status.ok())
        return status;
  return Status::success();
}
