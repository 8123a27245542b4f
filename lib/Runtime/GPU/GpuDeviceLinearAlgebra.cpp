//===- GpuDeviceLinearAlgebra.cpp - adj_rt_gpu_linalg on a GPU device -----===//

#include "CPU/LinearAlgebra.h"
#include "GPU/GpuDevice.h"

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

Status GpuDevice::linearAlgebraBegin(const LinearAlgebraProblem &problem,
                                     void *const *buffers, int64_t *ticket) {
  std::vector<cpu::LinearAlgebraBuffer> layout;
  if (Status status = cpu::linearAlgebraBuffers(
          problem.op, problem.dtype, problem.scalars.data(), &layout);
      !status.ok())
    return Status::error(status.code(), "adj_rt_gpu_linalg_begin on " + id() +
                                            ": " + status.message());
  for (size_t i = 0; i < layout.size(); ++i)
    if (layout[i].bytes && !buffers[i])
      return Status::error(StatusCode::InvalidArgument,
                           "adj_rt_gpu_linalg_begin on " + id() +
                               ": a null device address for buffer " +
                               std::to_string(i));
  GemmRoute route;
  if (Status status = gemmRouteFromEnvironment("ADJOINT_GPU_LINALG", &route);
      !status.ok())
    return status;
  return linearAlgebraRouter_.begin(linearAlgebraLibrary(problem), problem,
                                    buffers, route, ticket);
}

LinearAlgebraLibrary *
GpuDevice::linearAlgebraLibrary(const LinearAlgebraProblem &problem) {
  std::call_once(librariesOnce_, [this] {
    if (std::unique_ptr<DenseSolver> solver = makeDenseSolver())
      solverLinearAlgebra_ = std::make_unique<SolverLinearAlgebra>(
          *this, std::move(solver), hostLinearAlgebra_);
    fftLibrary_ = makeFftLibrary();
  });
  LinearAlgebraLibrary *vendor = problem.op == ADJ_RT_GPU_FFT
                                     ? fftLibrary_.get()
                                     : solverLinearAlgebra_.get();
  // What the vendor's library does not take (sizes beyond its integers),
  // the host's does.
  if (vendor && vendor->computes(problem))
    return vendor;
  return &hostLinearAlgebra_;
}

Status GpuDevice::linearAlgebraEnd(int64_t ticket) {
  return linearAlgebraRouter_.end(ticket);
}
