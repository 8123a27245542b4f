//===- HipImage.h - What hipModuleLoadData may be given ---------*- C++ -*-===//
//
// hipModuleLoadData reads a code object by its ELF headers and trusts them:
// a truncated object, or an object for another machine (a cubin, a host
// object), makes it read past the buffer or fail deep inside the loader
// with a message that names neither the module nor the cause. So the
// runtime checks the framing of an ADJ_RT_GPU_HSACO image first, as it does
// for CUDA images and SPIR-V.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_HIPIMAGE_H
#define ADJOINT_LIB_RUNTIME_HIP_HIPIMAGE_H

#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace adjoint::rt::hip {

/// ELF e_machine of AMD GPU code objects.
constexpr uint16_t kElfMachineAmdgpu = 224;

/// Ok for a 64-bit little-endian ELF object for EM_AMDGPU whose section
/// header table lies inside `size`; InvalidArgument naming `module` and
/// what is wrong otherwise.
Status checkHipImage(const void *data, size_t size, const std::string &module);

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_HIPIMAGE_H
