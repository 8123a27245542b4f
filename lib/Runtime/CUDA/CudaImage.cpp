//===- CudaImage.cpp - What cuModuleLoadData may be given -----------------===//

#include "CUDA/CudaImage.h"

#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;

Status adjoint::rt::cuda::checkCudaImage(const void *data, size_t size,
                                         const std::string &module) {
  auto invalid = [&](const std::string &why) {
    return Status::error(StatusCode::InvalidArgument,
                         "module " + module + " is not a CUDA image: " + why);
  };
  const auto *bytes = static_cast<const unsigned char *>(data);
  if (!data || size < 4)
    return invalid("shorter than any header");
  uint32_t magic;
  std::memcpy(&magic, bytes, 4);
  if (magic == kFatbinMagic) {
    // Header: magic (4), version (2), header size (2), payload size (8).
    if (size < 16)
      return invalid("a fatbin header cut short");
    uint16_t header;
    uint64_t payload;
    std::memcpy(&header, bytes + 6, 2);
    std::memcpy(&payload, bytes + 8, 8);
    if (header < 16 || header > size || payload > size - header)
      return invalid("a fatbin of " + std::to_string(header + payload) +
                     " bytes in " + std::to_string(size) + " (truncated)");
    return Status::success();
  }
  if (std::memcmp(bytes, "\x7f"
                         "ELF",
                  4) == 0)
    return Status::success();
  // PTX is text the driver reads up to its NUL.
  if (std::memchr(bytes, 0, size) == nullptr)
    return invalid("no fatbin or ELF header, and not NUL-terminated PTX");
  if (!std::strstr(reinterpret_cast<const char *>(bytes), ".version"))
    return invalid("no fatbin or ELF header, and no PTX .version");
  return Status::success();
}
