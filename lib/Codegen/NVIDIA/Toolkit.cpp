//===- Toolkit.cpp - Where the CUDA toolkit of the NVIDIA pipeline is -----===//

#include "adjoint/Codegen/NVIDIA/Passes.h"

#include <cstdlib>

std::string adjoint::nvidia::resolveCudaToolkit(llvm::StringRef requested) {
  if (!requested.empty())
    return requested.str();
  // The environment first, so that an installed build can be pointed at
  // another toolkit without reconfiguring.
  if (const char *fromEnv = std::getenv("ADJOINT_CUDA_TOOLKIT"))
    if (*fromEnv)
      return fromEnv;
  return ADJOINT_DEFAULT_CUDA_TOOLKIT;
}
