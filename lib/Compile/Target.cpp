//===- Target.cpp - Target kinds, parsing and the host CPU ----------------===//

#include "adjoint/Compile/Target.h"
#include "adjoint/Support/Error.h"

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

Target Target::parse(const std::string &spec) {
  // Only the first colon separates: AMD chips carry their own
  // ("gfx942:sramecc+:xnack-").
  size_t colon = spec.find(':');
  std::string kindText = spec.substr(0, colon);
  std::optional<TargetKind> kind = parseTargetKind(kindText);
  if (!kind)
    throw Error("target '" + spec + "': unknown kind '" + kindText +
                "' (expected one of " + kindList() + ", optionally followed "
                "by ':<chip>')");
  std::string chip =
      colon == std::string::npos ? std::string() : spec.substr(colon + 1);
  if (colon != std::string::npos && chip.empty())
    throw Error("target '" + spec + "': empty chip after ':'");
  if (chip.find_first_of(" \t\n{}=\"'") != std::string::npos)
    throw Error("target '" + spec + "': the chip '" + chip +
                "' has a blank, a quote, a brace or '='");
  if (*kind == TargetKind::CPU)
    return chip.empty() ? cpu() : cpuNamed(chip);
  Target target;
  target.kind = *kind;
  target.chip = chip;
  target.triple = llvm::sys::getProcessTriple();
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
