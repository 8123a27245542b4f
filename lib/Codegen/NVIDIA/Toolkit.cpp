//===- Toolkit.cpp - Where the CUDA toolkit of the NVIDIA pipeline is -----===//

#include "adjoint/Codegen/NVIDIA/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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

std::string adjoint::nvidia::libdevicePath(llvm::StringRef toolkit) {
  llvm::SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return std::string(path);
}

bool adjoint::nvidia::hasLibdevice(llvm::StringRef toolkit) {
  return !toolkit.empty() && llvm::sys::fs::exists(libdevicePath(toolkit));
}
