//===- GpuBinaries.cpp - Kernel modules of compiled code and tools on them ===//

#include "GpuBinaries.h"

#include "adjoint/Support/Error.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
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

} // namespace

conformance::TempFile::TempFile(llvm::StringRef suffix) {
  if (llvm::sys::fs::createTemporaryFile("adjoint-gpu", suffix, path))
    throw Error("cannot create a temporary file");
}

conformance::TempFile::~TempFile() { llvm::sys::fs::remove(path); }

/// Runs `tool args...` with stdout and stderr to one file; its text, and
/// the exit status in `status`.
std::string conformance::runTool(const std::string &tool, llvm::ArrayRef<std::string> args,
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

std::string conformance::runToolOrThrow(const std::string &tool,
                       llvm::ArrayRef<std::string> args) {
  int status = 0;
  std::string text = runTool(tool, args, status);
  if (status != 0)
    throw Error(llvm::sys::path::filename(tool).str() +
                " refused its input (status " + std::to_string(status) +
                "):\n" + text);
  return text;
}

void conformance::writeBytes(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    throw Error("cannot write " + path.str());
  os << bytes;
}

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


namespace {

/// The line of LLVM IR that defines the global `@name`, or "".
llvm::StringRef globalLine(llvm::StringRef ir, llvm::StringRef name) {
  std::string prefix = "\n@" + name.str() + " = ";
  size_t at = ir.find(prefix);
  if (at == llvm::StringRef::npos)
    return "";
  return ir.substr(at + 1).take_until([](char c) { return c == '\n'; });
}

/// The global that `field` ("ptr @__adj_gpu_args_x") names.
llvm::StringRef globalName(llvm::StringRef field) {
  size_t at = field.find('@');
  return at == llvm::StringRef::npos ? "" : field.substr(at + 1).trim();
}

} // namespace

std::vector<HostKernel> conformance::hostKernels(const std::string &llvmIR) {
  std::vector<HostKernel> kernels;
  llvm::StringRef ir(llvmIR);
  const llvm::StringRef prefix = "\n@__adj_gpu_kernel_";
  for (size_t at = ir.find(prefix); at != llvm::StringRef::npos;
       at = ir.find(prefix, at + 1)) {
    llvm::StringRef line =
        ir.substr(at + 1).take_until([](char c) { return c == '\n'; });
    // { ptr @module, ptr @name, i32 numArgs, i32 0, ptr @argSizes }
    llvm::StringRef fields = line.substr(line.rfind('{') + 1);
    fields = fields.take_until([](char c) { return c == '}'; });
    llvm::SmallVector<llvm::StringRef> parts;
    fields.split(parts, ',');
    if (parts.size() != 5)
      throw Error("kernel descriptor: unexpected fields: " + line.str());
    HostKernel kernel;
    kernel.module =
        globalName(parts[0]).drop_front(strlen("__adj_gpu_module_")).str();
    llvm::StringRef nameLine = globalLine(ir, globalName(parts[1]));
    size_t open = nameLine.find("c\"");
    size_t end = nameLine.find("\\00\"");
    if (open == llvm::StringRef::npos || end == llvm::StringRef::npos)
      throw Error("kernel descriptor: no name in: " + nameLine.str());
    kernel.name = nameLine.slice(open + 2, end).str();
    llvm::StringRef sizes = globalLine(ir, globalName(parts[4]));
    unsigned count = 0;
    if (parts[2].trim().drop_front(strlen("i32 ")).getAsInteger(10, count))
      throw Error("kernel descriptor: bad argument count: " + line.str());
    if (sizes.contains("zeroinitializer")) {
      kernel.argSizes.assign(count, 0);
    } else {
      llvm::StringRef list = sizes.substr(sizes.rfind('[') + 1);
      list = list.take_until([](char c) { return c == ']'; });
      llvm::SmallVector<llvm::StringRef> items;
      list.split(items, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef item : items) {
        uint32_t size = 0;
        if (item.trim().drop_front(strlen("i32 ")).getAsInteger(10, size))
          throw Error("kernel descriptor: bad argument sizes: " +
                      sizes.str());
        kernel.argSizes.push_back(size);
      }
    }
    if (kernel.argSizes.size() != count)
      throw Error("kernel descriptor: " + std::to_string(count) +
                  " arguments but sizes " + sizes.str());
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}
