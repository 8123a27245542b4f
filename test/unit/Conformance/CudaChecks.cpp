//===- CudaChecks.cpp - What the conformance suite checks of cubins -------===//

#include "CudaChecks.h"

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

/// LLVM IR's c"..." string: printable characters as they are, '\' as
/// "\\", everything else (and '"') as \XX.
std::string decodeCString(llvm::StringRef text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 >= text.size()) {
      bytes.push_back(text[i]);
      continue;
    }
    if (text[i + 1] == '\\') {
      bytes.push_back('\\');
      ++i;
      continue;
    }
    unsigned value = 0;
    if (text.substr(i + 1, 2).getAsInteger(16, value))
      throw Error("embedded module: bad escape '" + text.substr(i, 3).str() +
                  "'");
    bytes.push_back(static_cast<char>(value));
    i += 2;
  }
  return bytes;
}

/// A temporary file's path (removed with the object).
struct TempFile {
  llvm::SmallString<128> path;
  explicit TempFile(llvm::StringRef suffix) {
    if (llvm::sys::fs::createTemporaryFile("adjoint-cuda", suffix, path))
      throw Error("cannot create a temporary file");
  }
  ~TempFile() { llvm::sys::fs::remove(path); }
};

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

/// Runs `tool args...` with stdout and stderr to one file; its text, and
/// the exit status in `status`.
std::string run(const std::string &tool, llvm::ArrayRef<std::string> args,
                int &status) {
  if (!llvm::sys::fs::can_execute(tool))
    throw Error("no " + tool + " (scripts/setup.sh installs it)");
  TempFile output("txt");
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(output.path), llvm::StringRef(output.path)};
  std::vector<llvm::StringRef> argv = {tool};
  for (const std::string &arg : args)
    argv.push_back(arg);
  status = llvm::sys::ExecuteAndWait(tool, argv, std::nullopt, redirects);
  auto text = llvm::MemoryBuffer::getFile(output.path);
  return text ? (*text)->getBuffer().str() : std::string();
}

std::string runOrThrow(const std::string &tool,
                       llvm::ArrayRef<std::string> args) {
  int status = 0;
  std::string text = run(tool, args, status);
  if (status != 0)
    throw Error(llvm::sys::path::filename(tool).str() +
                " refused its input (status " + std::to_string(status) +
                "):\n" + text);
  return text;
}

std::string toolPath(const std::string &toolkit, const char *tool) {
  llvm::SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "bin", tool);
  return path.str().str();
}

void writeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    throw Error("cannot write " + path.str());
  os << bytes;
}

} // namespace

std::vector<EmbeddedModule>
conformance::embeddedModules(const std::string &llvmIR) {
  std::vector<EmbeddedModule> modules;
  llvm::StringRef ir(llvmIR);
  const llvm::StringRef prefix = "\n@__adj_gpu_data_";
  for (size_t at = ir.find(prefix); at != llvm::StringRef::npos;
       at = ir.find(prefix, at + 1)) {
    llvm::StringRef line = ir.substr(at + 1);
    line = line.take_until([](char c) { return c == '\n'; });
    llvm::StringRef name = line.drop_front(prefix.size() - 1);
    name = name.take_until([](char c) { return c == ' '; });
    size_t open = line.find("c\"");
    size_t close = line.rfind('"');
    if (open == llvm::StringRef::npos || close <= open + 1)
      throw Error("embedded module " + name.str() + ": no c\"...\" bytes");
    modules.push_back(
        {name.str(), decodeCString(line.slice(open + 2, close))});
  }
  return modules;
}

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
  writeFile(input.path, fatbin);
  // "ELF file    1: name.1.sm_80.cubin": the chips of the cubins.
  std::vector<std::string> chips;
  std::string listing =
      runOrThrow(cuobjdump, {"-lelf", input.path.str().str()});
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(listing).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::StringRef name = line.trim();
    if (!name.consume_front("ELF file") || !name.consume_back(".cubin"))
      continue;
    chips.push_back(name.substr(name.rfind('.') + 1).str());
  }
  std::string text = runOrThrow(cuobjdump, {"-ptx", input.path.str().str()});
  size_t start = text.find(".version");
  if (start == std::string::npos)
    throw Error("the fatbin has no PTX:\n" + text);
  writeFile(ptx.path, text.substr(start));
  std::vector<KernelResources> kernels;
  for (const std::string &chip : chips) {
    std::string report = runOrThrow(
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
