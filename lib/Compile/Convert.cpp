//===- Convert.cpp - Interpreter tensors <-> runtime tensors --------------===//
//
// Both store row-major elements with the same bytes per element (i1 as one
// byte, f16/bf16 as bit patterns), so conversion is a copy.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Compile.h"
#include "adjoint/Interpreter/Value.h"

#include <cstring>

using namespace adjoint;

rt::Tensor adjoint::toRuntime(const interp::Tensor &tensor) {
  return rt::Tensor::copyOf(tensor.dtype(), tensor.shape(), tensor.data());
}

interp::Tensor adjoint::toInterpreter(const rt::Tensor &tensor) {
  if (!tensor.valid())
    throw Error("toInterpreter: empty tensor");
  // A device tensor comes to the host first: that waits for the work that
  // computes it (its address may be readable from the host, as with a CPU
  // OpenCL device, but not yet written).
  rt::Tensor host = tensor.isOnHost() ? tensor : tensor.toHost();
  interp::Tensor result(host.dtype(), host.shape());
  if (result.byteSize())
    std::memcpy(result.mutableData(), host.data(), result.byteSize());
  return result;
}
