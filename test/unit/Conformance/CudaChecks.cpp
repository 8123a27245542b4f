//===- CudaChecks.cpp - What the conformance suite checks of cubins -------===//

#include "CudaChecks.h"
#include "GpuBinaries.h"

#include "adjoint/Support/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace adjoint;
using namespace adjoint::conformance;

namespace {

/// The integer right before `suffix` in `line` ("40 bytes stack frame"),
/// or after `prefix` ("Used 26 registers").
std::optional<int64_t> numberBefore(llvm::StringRef line,
                                    llvm::StringRef suffix) {
  size_t at = line.find(suffix);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef head = line.take_front(at).rtrim();
  llvm::StringRef digits = head.substr(head.find_last_not_of("0123456789") + 1);
  int64_t value;
  if (digits.empty() || digits.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

std::optional<int64_t> numberAfter(llvm::StringRef line,
                                   llvm::StringRef prefix) {
  size_t at = line.find(prefix);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = line.substr(at + prefix.size());
  int64_t value;
  if (rest.consumeInteger(10, value))
    return std::nullopt;
  return value;
}

std::string toolPath(const std::string &toolkit, const char *tool) {
  llvm::SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "bin", tool);
  return path.str().str();
}

} // namespace

std::vector<KernelResources>
conformance::parsePtxasReport(const std::string &report) {
  // Per kernel: "Compiling entry function 'k' for 'sm_90'", then "N bytes
  // stack frame, N bytes spill stores, N bytes spill loads", then "Used N
  // registers, used N barriers[, N bytes smem]".
  std::vector<KernelResources> kernels;
  std::optional<KernelResources> open;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(report).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    size_t entry = line.find("Compiling entry function '");
    if (entry != llvm::StringRef::npos) {
      llvm::SmallVector<llvm::StringRef> quoted;
      line.split(quoted, '\'');
      if (quoted.size() >= 4)
        open = KernelResources{quoted[3].str(), quoted[1].str()};
      continue;
    }
    if (!open)
      continue;
    if (line.contains("bytes stack frame")) {
      open->stack = numberBefore(line, "bytes stack frame").value_or(-1);
      open->spillStores =
          numberBefore(line, "bytes spill stores").value_or(-1);
      open->spillLoads = numberBefore(line, "bytes spill loads").value_or(-1);
    } else if (line.contains("Used ") && line.contains(" registers")) {
      open->registers = numberAfter(line, "Used ").value_or(-1);
      open->shared = numberBefore(line, "bytes smem").value_or(0);
      kernels.push_back(*open);
      open.reset();
    }
  }
  return kernels;
}

std::vector<KernelResources>
conformance::resourceUsage(const std::string &toolkit,
                           const std::string &fatbin) {
  std::string cuobjdump = toolPath(toolkit, "cuobjdump");
  TempFile input("fatbin"), ptx("ptx"), cubin("cubin");
  writeBytes(input.path, fatbin);
  // "ELF file    1: name.1.sm_80.cubin": the chips of the cubins.
  std::vector<std::string> chips;
  std::string listing =
      runToolOrThrow(cuobjdump, {"-lelf", input.path.str().str()});
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(listing).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::StringRef name = line.trim();
    if (!name.consume_front("ELF file") || !name.consume_back(".cubin"))
      continue;
    chips.push_back(name.substr(name.rfind('.') + 1).str());
  }
  std::string text = runToolOrThrow(cuobjdump, {"-ptx", input.path.str().str()});
  size_t start = text.find(".version");
  if (start == std::string::npos)
    throw Error("the fatbin has no PTX:\n" + text);
  writeBytes(ptx.path, text.substr(start));
  std::vector<KernelResources> kernels;
  for (const std::string &chip : chips) {
    std::string report = runToolOrThrow(
        toolPath(toolkit, "ptxas"),
        {"-v", "-O3", "-arch=" + chip, "-o", cubin.path.str().str(),
         ptx.path.str().str()});
    for (KernelResources &kernel : parsePtxasReport(report))
      kernels.push_back(std::move(kernel));
  }
  return kernels;
}

std::string conformance::resourceProblem(const KernelResources &kernel) {
  constexpr int64_t kMaxRegisters = 255;
  constexpr int64_t kMaxStaticShared = 48 * 1024;
  if (kernel.registers < 0 || kernel.spillStores < 0 ||
      kernel.spillLoads < 0 || kernel.shared < 0)
    return "no resource numbers";
  if (kernel.registers > kMaxRegisters)
    return std::to_string(kernel.registers) + " registers (at most 255)";
  if (kernel.spillStores > 0 || kernel.spillLoads > 0)
    return "spills: " + std::to_string(kernel.spillStores) +
           " bytes stored, " + std::to_string(kernel.spillLoads) + " loaded";
  if (kernel.shared > kMaxStaticShared)
    return std::to_string(kernel.shared) +
           " bytes of static shared memory (at most 48 KiB)";
  return "";
}

namespace {
/// A temporary folder, removed at exit.
struct TempFolder {
  llvm::SmallString<128> path;
  TempFolder() {
    if (llvm::sys::fs::createUniqueDirectory("adjoint-cuda-nolibdevice",
                                             path))
      throw Error("cannot create a temporary folder");
  }
  ~TempFolder() { llvm::sys::fs::remove_directories(path); }
};
} // namespace

std::string conformance::toolkitWithoutLibdevice(const std::string &toolkit) {
  static TempFolder temp;
  static const std::string folder = [&] {
    llvm::SmallString<128> dir(temp.path);
    llvm::SmallString<128> bin(dir);
    llvm::sys::path::append(bin, "bin");
    llvm::sys::fs::create_directory(bin);
    for (const char *tool : {"ptxas", "fatbinary"}) {
      llvm::SmallString<256> from(toolkit), to(bin);
      llvm::sys::path::append(from, "bin", tool);
      llvm::sys::path::append(to, tool);
      if (llvm::sys::fs::create_link(from, to))
        throw Error("cannot link " + to.str().str());
    }
    return dir.str().str();
  }();
  return folder;
}
