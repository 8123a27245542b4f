//===- RocmPath.cpp - Where the ROCm pieces of the AMD pipeline are -------===//

#include "adjoint/Codegen/AMD/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace llvm;

std::string adjoint::amd::resolveRocmPath(StringRef requested) {
  if (!requested.empty())
    return requested.str();
  // The environment first, so that an installed build can be pointed at
  // another ROCm without reconfiguring.
  if (const char *fromEnv = std::getenv("ADJOINT_ROCM_PATH"))
    if (*fromEnv)
      return fromEnv;
  return ADJOINT_DEFAULT_ROCM_PATH;
}

namespace {
std::string bitcodePath(StringRef rocm, const Twine &file) {
  SmallString<256> path(rocm);
  sys::path::append(path, "amdgcn", "bitcode", file);
  return std::string(path);
}
} // namespace

bool adjoint::amd::hasDeviceLibs(StringRef rocm) {
  return !rocm.empty() && sys::fs::exists(bitcodePath(rocm, "ocml.bc"));
}

bool adjoint::amd::deviceLibsSupport(StringRef rocm, StringRef targetId) {
  std::string error;
  std::optional<Chip> chip = parseChip(targetId, error);
  if (!chip || !hasDeviceLibs(rocm))
    return false;
  StringRef version = chip->processor;
  version.consume_front("gfx");
  return sys::fs::exists(
      bitcodePath(rocm, "oclc_isa_version_" + version + ".bc"));
}

std::string adjoint::amd::linkerPath(StringRef rocm) {
  SmallString<256> path(rocm);
  sys::path::append(path, "llvm", "bin", "ld.lld");
  return std::string(path);
}
