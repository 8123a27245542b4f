//===- CudaImage.h - What cuModuleLoadData may be given ---------*- C++ -*-===//
//
// The driver reads a module image by its own headers and trusts them: a
// truncated fatbin or a PTX text without its terminating NUL makes it read
// past the end of the buffer. So the runtime checks an image's framing
// before loading it, as it checks SPIR-V (GPU/SpirvCheck.h).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_CUDA_CUDAIMAGE_H
#define ADJOINT_LIB_RUNTIME_CUDA_CUDAIMAGE_H

#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace adjoint::rt::cuda {

/// The magic number that starts a fatbin (little-endian).
constexpr uint32_t kFatbinMagic = 0xBA55ED50;

/// Ok for a fatbin whose header's sizes fit in `size`, an ELF cubin, or a
/// NUL-terminated PTX text; InvalidArgument naming `module` otherwise.
Status checkCudaImage(const void *data, size_t size,
                      const std::string &module);

} // namespace adjoint::rt::cuda

#endif // ADJOINT_LIB_RUNTIME_CUDA_CUDAIMAGE_H
