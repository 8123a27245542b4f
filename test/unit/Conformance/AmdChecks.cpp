//===- AmdChecks.cpp - What the conformance suite checks of HSACO ---------===//

#include "AmdChecks.h"

#include "adjoint/Support/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace adjoint;
using namespace adjoint::conformance;

namespace {

int64_t integerOf(llvm::StringRef value) {
  int64_t n = -1;
  if (value.trim().getAsInteger(10, n))
    return -1;
  return n;
}

/// Sets the field `key` of `kernel` (the keys of amdhsa.kernels that the
/// checks read; others are ignored).
void setKernelField(AmdKernel &kernel, llvm::StringRef key,
                    llvm::StringRef value) {
  if (key == ".name")
    kernel.name = value.str();
  else if (key == ".vgpr_count")
    kernel.vgprs = integerOf(value);
  else if (key == ".sgpr_count")
    kernel.sgprs = integerOf(value);
  else if (key == ".agpr_count")
    kernel.agprs = integerOf(value);
  else if (key == ".vgpr_spill_count")
    kernel.vgprSpills = integerOf(value);
  else if (key == ".sgpr_spill_count")
    kernel.sgprSpills = integerOf(value);
  else if (key == ".group_segment_fixed_size")
    kernel.lds = integerOf(value);
  else if (key == ".private_segment_fixed_size")
    kernel.scratch = integerOf(value);
  else if (key == ".wavefront_size")
    kernel.wavefront = integerOf(value);
  else if (key == ".kernarg_segment_size")
    kernel.kernargSize = integerOf(value);
}

void setArgField(AmdKernelArg &arg, llvm::StringRef key,
                 llvm::StringRef value) {
  if (key == ".offset")
    arg.offset = integerOf(value);
  else if (key == ".size")
    arg.size = integerOf(value);
  else if (key == ".value_kind")
    arg.valueKind = value.str();
}

} // namespace

std::vector<AmdKernel> conformance::parseAmdNotes(const std::string &notes) {
  // The YAML that llvm-readelf prints: "amdhsa.kernels:", each kernel a
  // list item at indent 2 with its fields at 4, its ".args:" items at 6
  // with their fields at 8; "amdhsa.target: ..." at indent 0.
  std::vector<AmdKernel> kernels;
  std::string target;
  bool inKernels = false;
  bool inArgs = false;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(notes).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    size_t indent = line.find_first_not_of(' ');
    if (indent == llvm::StringRef::npos)
      continue;
    llvm::StringRef text = line.substr(indent).rtrim();
    if (indent == 0) {
      inKernels = text == "amdhsa.kernels:";
      if (text.consume_front("amdhsa.target:"))
        target = text.trim().str();
      continue;
    }
    if (!inKernels)
      continue;
    bool item = text.consume_front("- ");
    auto [key, value] = text.split(':');
    value = value.trim();
    if (indent == 2 && item) {
      kernels.emplace_back();
      inArgs = false;
    }
    if (kernels.empty())
      continue;
    // A kernel field ends the argument list (.reqd_workgroup_size has list
    // items of its own at the arguments' indent).
    if (indent <= 4) {
      inArgs = key == ".args";
      setKernelField(kernels.back(), key, value);
      continue;
    }
    if (!inArgs)
      continue;
    if (indent == 6 && item)
      kernels.back().args.emplace_back();
    if (!kernels.back().args.empty())
      setArgField(kernels.back().args.back(), key, value);
  }
  for (AmdKernel &kernel : kernels)
    kernel.target = target;
  return kernels;
}

std::vector<AmdKernel> conformance::amdKernels(const std::string &llvmTools,
                                               const std::string &bytes) {
  TempFile object("hsaco");
  writeBytes(object.path, bytes);
  llvm::SmallString<256> readelf(llvmTools);
  llvm::sys::path::append(readelf, "llvm-readelf");
  std::string notes = runToolOrThrow(readelf.str().str(),
                                     {"--notes", object.path.str().str()});
  std::vector<AmdKernel> kernels = parseAmdNotes(notes);
  if (kernels.empty() || kernels.front().target.empty())
    throw Error("no amdhsa.kernels metadata in the code object:\n" + notes);
  return kernels;
}

std::string conformance::amdUndefinedSymbols(const std::string &llvmTools,
                                             const std::string &bytes) {
  TempFile object("hsaco");
  writeBytes(object.path, bytes);
  llvm::SmallString<256> nm(llvmTools);
  llvm::sys::path::append(nm, "llvm-nm");
  return llvm::StringRef(runToolOrThrow(nm.str().str(),
                                        {"--undefined-only",
                                         object.path.str().str()}))
      .trim()
      .str();
}

std::string conformance::amdResourceProblem(const AmdKernel &kernel,
                                            const std::string &chip,
                                            int64_t wavefront) {
  constexpr int64_t kMaxLDS = 64 * 1024;
  constexpr int64_t kMaxVGPRs = 512;
  std::string expected = "amdgcn-amd-amdhsa--" + chip;
  if (kernel.target != expected)
    return "target " + kernel.target + ", expected " + expected;
  if (kernel.vgprs < 0 || kernel.sgprs < 0 || kernel.vgprSpills < 0 ||
      kernel.sgprSpills < 0 || kernel.lds < 0 || kernel.wavefront < 0)
    return "no resource numbers";
  if (kernel.wavefront != wavefront)
    return "wavefront size " + std::to_string(kernel.wavefront) +
           ", written for " + std::to_string(wavefront);
  if (kernel.vgprSpills > 0 || kernel.sgprSpills > 0)
    return "spills: " + std::to_string(kernel.vgprSpills) + " VGPRs, " +
           std::to_string(kernel.sgprSpills) + " SGPRs";
  if (kernel.lds > kMaxLDS)
    return std::to_string(kernel.lds) + " bytes of LDS (at most 64 KiB)";
  // On gfx90a/gfx942 `.vgpr_count` already counts the AGPRs of the unified
  // register file (a kernel using all of it reports 512, 256 of them
  // AGPRs); RDNA has no AGPRs.
  if (kernel.vgprs > kMaxVGPRs)
    return std::to_string(kernel.vgprs) +
           " VGPRs, AGPRs included (at most 512)";
  return "";
}

std::string conformance::amdArgumentProblem(const AmdKernel &kernel,
                                            const HostKernel &launch) {
  std::vector<AmdKernelArg> explicitArgs;
  for (const AmdKernelArg &arg : kernel.args)
    if (!llvm::StringRef(arg.valueKind).starts_with("hidden_"))
      explicitArgs.push_back(arg);
  if (explicitArgs.size() != launch.argSizes.size())
    return std::to_string(explicitArgs.size()) + " arguments, the host passes " +
           std::to_string(launch.argSizes.size());
  int64_t end = 0;
  for (size_t i = 0; i < explicitArgs.size(); ++i) {
    const AmdKernelArg &arg = explicitArgs[i];
    bool pointer = launch.argSizes[i] == 0;
    int64_t size = pointer ? 8 : launch.argSizes[i];
    std::string kind = pointer ? "global_buffer" : "by_value";
    if (arg.valueKind != kind || arg.size != size)
      return "argument #" + std::to_string(i) + " is " + arg.valueKind +
             " of " + std::to_string(arg.size) + " bytes, the host passes " +
             kind + " of " + std::to_string(size);
    if (arg.offset < end || arg.offset % size != 0)
      return "argument #" + std::to_string(i) + " at offset " +
             std::to_string(arg.offset);
    end = arg.offset + size;
  }
  return "";
}
