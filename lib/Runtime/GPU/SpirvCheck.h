//===- SpirvCheck.h - A cheap look at SPIR-V before a driver does -*- C++ -*-===//
//
// Drivers trust the bytes they are given: a truncated module crashes Intel's
// OpenCL runtime. Before a module reaches a driver the runtime checks what
// one pass over the words can check: the size is a whole number of 32-bit
// words, the header is there, the magic number and version are SPIR-V's,
// and the instructions' word counts end exactly at the end of the module.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_SPIRVCHECK_H
#define ADJOINT_LIB_RUNTIME_GPU_SPIRVCHECK_H

#include "adjoint/Runtime/Status.h"

#include <cstdint>
#include <string>

namespace adjoint::rt::gpu {

/// Ok, or InvalidArgument saying what is wrong with module `name`.
Status checkSpirv(const void *data, uint64_t size, const std::string &name);

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_SPIRVCHECK_H
