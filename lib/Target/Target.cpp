//===- Target.cpp - Target kinds, parsing and the host CPU ----------------===//

#include "adjoint/Target/Target.h"
#include "adjoint/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

using namespace adjoint;

namespace {
constexpr std::array<std::pair<TargetKind, const char *>, 5> kKinds = {{
    {TargetKind::CPU, "cpu"},
    {TargetKind::OpenCL, "opencl"},
    {TargetKind::LevelZero, "level_zero"},
    {TargetKind::CUDA, "cuda"},
    {TargetKind::HIP, "hip"},
}};

/// Features Adjoint reads itself; LLVM's back ends would warn about them.
constexpr std::array<const char *, 1> kAdjointFeatures = {"tf32"};

/// The items of a comma-separated feature list, blanks around them
/// dropped.
std::vector<std::string> featureItems(const std::string &features) {
  std::vector<std::string> items;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(features).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts)
    if (!part.trim().empty())
      items.push_back(part.trim().str());
  return items;
}

bool hasBadCharacter(const std::string &text) {
  return text.find_first_of(" \t\n{}=\"'") != std::string::npos;
}

std::string kindList() {
  std::string list;
  for (const auto &[kind, name] : kKinds)
    list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}
} // namespace

const char *adjoint::targetKindName(TargetKind kind) {
  for (const auto &[k, name] : kKinds)
    if (k == kind)
      return name;
  return "unknown";
}

std::optional<TargetKind> adjoint::parseTargetKind(const std::string &name) {
  for (const auto &[kind, text] : kKinds)
    if (name == text)
      return kind;
  return std::nullopt;
}

bool adjoint::hasTargetFeature(const std::string &features,
                               const std::string &name) {
  bool enabled = false;
  for (const std::string &item : featureItems(features))
    if (item.size() == name.size() + 1 && item.compare(1, name.size(), name) == 0)
      enabled = item[0] == '+';
  return enabled;
}

std::string adjoint::llvmTargetFeatures(const std::string &features) {
  std::string kept;
  for (const std::string &item : featureItems(features)) {
    std::string name = item.substr(1);
    if (llvm::is_contained(kAdjointFeatures, name))
      continue;
    kept += (kept.empty() ? "" : ",") + item;
  }
  return kept;
}

Target Target::cpu() {
  Target target;
  target.triple = llvm::sys::getProcessTriple();
  target.chip = llvm::sys::getHostCPUName().str();
  std::vector<std::string> features;
  for (const auto &feature : llvm::sys::getHostCPUFeatures())
    features.push_back((feature.second ? "+" : "-") + feature.first().str());
  // A stable order, so that the cache key does not depend on hashing.
  std::sort(features.begin(), features.end());
  for (const std::string &feature : features)
    target.features += (target.features.empty() ? "" : ",") + feature;
  return target;
}

Target Target::cpuNamed(const std::string &chip) {
  Target target;
  target.triple = llvm::sys::getProcessTriple();
  target.chip = chip;
  return target;
}

Target Target::cuda(const std::string &chip, const std::string &features) {
  return parse(std::string("cuda") + (chip.empty() ? "" : ":" + chip) +
               (features.empty() ? "" : "," + features));
}

Target Target::parse(const std::string &spec) {
  // Features follow the first comma; of the rest only the first colon
  // separates: AMD chips carry their own ("gfx942:sramecc+:xnack-").
  size_t comma = spec.find(',');
  std::string head = spec.substr(0, comma);
  size_t colon = head.find(':');
  std::string kindText = head.substr(0, colon);
  std::optional<TargetKind> kind = parseTargetKind(kindText);
  if (!kind)
    throw Error("target '" + spec + "': unknown kind '" + kindText +
                "' (expected one of " + kindList() + ", optionally followed "
                "by ':<chip>' and ',+<feature>,-<feature>...')");
  std::string chip =
      colon == std::string::npos ? std::string() : head.substr(colon + 1);
  if (colon != std::string::npos && chip.empty())
    throw Error("target '" + spec + "': empty chip after ':'");
  if (hasBadCharacter(chip))
    throw Error("target '" + spec + "': the chip '" + chip +
                "' has a blank, a quote, a brace or '='");
  std::string features;
  if (comma != std::string::npos) {
    std::string list = spec.substr(comma + 1);
    if (featureItems(list).empty())
      throw Error("target '" + spec + "': no features after ','");
    for (const std::string &item : featureItems(list)) {
      if (item.size() < 2 || (item[0] != '+' && item[0] != '-') ||
          hasBadCharacter(item))
        throw Error("target '" + spec + "': bad feature '" + item +
                    "' (expected +<name> or -<name>, e.g. +tf32)");
      features += (features.empty() ? "" : ",") + item;
    }
  }
  Target target;
  if (*kind == TargetKind::CPU) {
    target = chip.empty() ? cpu() : cpuNamed(chip);
  } else {
    target.kind = *kind;
    target.chip = chip;
    target.triple = llvm::sys::getProcessTriple();
  }
  // After the chip's own (the host's for "cpu"), so that they override
  // them.
  if (!features.empty())
    target.features +=
        (target.features.empty() ? "" : ",") + features;
  return target;
}

std::string Target::pipelineName() const {
  std::string name = std::string("adj-lower-to-") + kindName();
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

std::string Target::pipelineOptions() const {
  std::string options;
  auto add = [&](const std::string &option) {
    options += (options.empty() ? "" : " ") + option;
  };
  if (!chip.empty())
    add("chip=" + chip);
  if (!features.empty())
    add("features=" + features);
  if (subgroupSize != 0)
    add("subgroup-size=" + std::to_string(subgroupSize));
  return options;
}

Target Target::hostTarget() const { return isGPU() ? cpu() : *this; }

std::string Target::name() const {
  std::string text = kindName();
  if (!chip.empty())
    text += ":" + chip;
  return text;
}

std::string Target::spec() const {
  return features.empty() ? name() : name() + "," + features;
}

std::string Target::str() const {
  std::string text = name();
  if (!triple.empty())
    text += " " + triple;
  if (!features.empty())
    text += " " + features;
  if (subgroupSize != 0)
    text += " subgroup-size=" + std::to_string(subgroupSize);
  return text;
}
