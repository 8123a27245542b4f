//===- Chips.cpp - AMD target IDs and wavefront sizes ---------------------===//

#include "adjoint/Codegen/AMD/Passes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/TargetParser/TargetParser.h"

using namespace llvm;

std::optional<adjoint::amd::Chip>
adjoint::amd::parseChip(StringRef targetId, std::string &error) {
  SmallVector<StringRef> parts;
  targetId.split(parts, ':');
  StringRef processor = parts.front().trim();
  AMDGPU::GPUKind kind = AMDGPU::parseArchAMDGCN(processor);
  if (kind == AMDGPU::GK_NONE) {
    error = "unknown AMD chip '" + processor.str() +
            "' (expected a gfx processor LLVM knows: gfx90a, gfx942, gfx1100)";
    return std::nullopt;
  }
  unsigned attributes = AMDGPU::getArchAttrAMDGCN(kind);
  Chip chip;
  chip.processor = processor.str();
  chip.wave32 = attributes & AMDGPU::FEATURE_WAVE32;
  // Target ID features: "name+" or "name-", only those the processor has
  // as modes (AMDGPUUsage, "Target ID").
  for (StringRef part : ArrayRef<StringRef>(parts).drop_front()) {
    part = part.trim();
    char sign = part.empty() ? 0 : part.back();
    StringRef name = part.drop_back();
    unsigned needed = name == "xnack"     ? AMDGPU::FEATURE_XNACK
                      : name == "sramecc" ? AMDGPU::FEATURE_SRAMECC
                                          : 0;
    if ((sign != '+' && sign != '-') || !needed) {
      error = "bad feature '" + part.str() + "' in AMD target ID '" +
              targetId.str() + "' (expected sramecc+, sramecc-, xnack+ or " +
              "xnack-)";
      return std::nullopt;
    }
    if (!(attributes & needed)) {
      error = processor.str() + " has no " + name.str() + " mode ('" +
              targetId.str() + "')";
      return std::nullopt;
    }
    if (!chip.features.empty())
      chip.features += ",";
    chip.features += std::string(1, sign) + name.str();
  }
  return chip;
}

int64_t adjoint::amd::defaultWavefrontSize(StringRef targetId) {
  std::string error;
  std::optional<Chip> chip = parseChip(targetId, error);
  return chip && chip->wave32 ? 32 : 64;
}
