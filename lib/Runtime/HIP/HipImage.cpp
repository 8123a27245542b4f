//===- HipImage.cpp - What hipModuleLoadData may be given -----------------===//

#include "HIP/HipImage.h"

#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
// The ELF64 header fields read (offsets in bytes).
constexpr size_t kElf64HeaderBytes = 64;
constexpr size_t kClassAt = 4, kDataAt = 5, kMachineAt = 18;
constexpr size_t kSectionTableAt = 40, kSectionEntryBytesAt = 58,
                 kSectionCountAt = 60;
constexpr uint8_t kElfClass64 = 2, kElfLittleEndian = 1;

template <typename T> T readAt(const unsigned char *bytes, size_t at) {
  T value;
  std::memcpy(&value, bytes + at, sizeof(T));
  return value;
}
} // namespace

Status adjoint::rt::hip::checkHipImage(const void *data, size_t size,
                                       const std::string &module) {
  auto invalid = [&](const std::string &why) {
    return Status::error(StatusCode::InvalidArgument,
                         "module " + module +
                             " is not an AMD GPU code object: " + why);
  };
  const auto *bytes = static_cast<const unsigned char *>(data);
  if (!data || size < kElf64HeaderBytes)
    return invalid(std::to_string(size) +
                   " bytes, shorter than an ELF64 header");
  if (std::memcmp(bytes, "\x7f"
                         "ELF",
                  4) != 0)
    return invalid("no ELF header");
  if (bytes[kClassAt] != kElfClass64 || bytes[kDataAt] != kElfLittleEndian)
    return invalid("not a 64-bit little-endian ELF object");
  // The host is little-endian (x86-64, AArch64), as is the object.
  auto machine = readAt<uint16_t>(bytes, kMachineAt);
  if (machine != kElfMachineAmdgpu)
    return invalid("ELF machine " + std::to_string(machine) +
                   ", not EM_AMDGPU (" + std::to_string(kElfMachineAmdgpu) +
                   ")");
  auto table = readAt<uint64_t>(bytes, kSectionTableAt);
  auto entry = readAt<uint16_t>(bytes, kSectionEntryBytesAt);
  auto count = readAt<uint16_t>(bytes, kSectionCountAt);
  uint64_t tableBytes = uint64_t(entry) * count;
  if (table > size || tableBytes > size - table)
    return invalid("its section headers end at byte " +
                   std::to_string(table + tableBytes) + " of " +
                   std::to_string(size) + " (truncated)");
  return Status::success();
}
