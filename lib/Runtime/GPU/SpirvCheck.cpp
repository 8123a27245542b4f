//===- SpirvCheck.cpp - A cheap look at SPIR-V before a driver does -------===//

#include "GPU/SpirvCheck.h"

#include <cstring>

using namespace adjoint::rt;

namespace {
constexpr uint32_t kMagic = 0x07230203;
/// Magic, version, generator, id bound, schema.
constexpr uint64_t kHeaderWords = 5;
/// The shortest module a driver can accept: the header plus the
/// OpCapability, OpMemoryModel and one OpEntryPoint a kernel needs.
constexpr uint64_t kMinWords = kHeaderWords + 2 + 3 + 4;
} // namespace

Status adjoint::rt::gpu::checkSpirv(const void *data, uint64_t size,
                                    const std::string &name) {
  auto bad = [&](const std::string &what) {
    return Status::error(StatusCode::InvalidArgument,
                         "module " + name + " is not valid SPIR-V: " + what);
  };
  if (!data)
    return bad("no data");
  if (size % 4 != 0)
    return bad(std::to_string(size) +
               " bytes is not a whole number of 32-bit words (truncated?)");
  if (size / 4 < kMinWords)
    return bad("only " + std::to_string(size / 4) +
               " words, shorter than any kernel module");
  uint32_t header[kHeaderWords];
  std::memcpy(header, data, sizeof(header));
  if (header[0] != kMagic)
    return bad("the magic number is not 0x07230203 (wrong byte order or "
               "not SPIR-V)");
  uint32_t major = (header[1] >> 16) & 0xff, minor = (header[1] >> 8) & 0xff;
  if (major != 1 || (header[1] & 0xff0000ff) != 0)
    return bad("unknown version " + std::to_string(major) + "." +
               std::to_string(minor));
  if (header[3] == 0)
    return bad("the id bound is 0");
  // Every instruction's word count must land exactly on the end: a module
  // cut anywhere but between two instructions fails here.
  const auto *words = static_cast<const unsigned char *>(data);
  uint64_t count = size / 4;
  for (uint64_t at = kHeaderWords; at < count;) {
    uint32_t word;
    std::memcpy(&word, words + at * 4, 4);
    uint32_t length = word >> 16;
    if (length == 0)
      return bad("an instruction at word " + std::to_string(at) +
                 " has length 0");
    if (at + length > count)
      return bad("the instruction at word " + std::to_string(at) +
                 " runs past the end (truncated)");
    at += length;
  }
  return Status::success();
}
