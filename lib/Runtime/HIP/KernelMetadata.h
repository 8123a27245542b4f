//===- KernelMetadata.h - Kernel arguments of a code object -----*- C++ -*-===//
//
// HIP has no call that reports a kernel's arguments (CUDA has
// cuFuncGetParamInfo), yet hipModuleLaunchKernel reads as many argument
// values, of the sizes the kernel takes, as the code object declares: a
// descriptor that disagrees makes it read past the caller's array. The
// declaration is in the object itself: the NT_AMDGPU_METADATA note (code
// object v3 and later) holds `amdhsa.kernels`, MessagePack maps with each
// kernel's `.name` and `.args` (`.size`, `.value_kind`). The runtime reads
// the explicit arguments from it (the `hidden_*` ones HIP fills itself) and
// checks each descriptor before its first launch.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_HIP_KERNELMETADATA_H
#define ADJOINT_LIB_RUNTIME_HIP_KERNELMETADATA_H

#include "adjoint/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace adjoint::rt::hip {

/// Per kernel name, the byte sizes of its explicit arguments in order.
using KernelArguments = std::map<std::string, std::vector<uint32_t>>;

/// The kernels of the ELF code object `data` (of `size` bytes, framing
/// checked by checkHipImage) into `*kernels`; InvalidArgument naming
/// `module` when it has no readable amdhsa.kernels metadata.
Status readKernelArguments(const void *data, size_t size,
                           const std::string &module,
                           KernelArguments *kernels);

} // namespace adjoint::rt::hip

#endif // ADJOINT_LIB_RUNTIME_HIP_KERNELMETADATA_H
