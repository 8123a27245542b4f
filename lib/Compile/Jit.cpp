//===- Jit.cpp - Load compiled objects into the JIT -----------------------===//
//
// Each program gets its own LLJIT. Calls into the runtime resolve through
// the runtime's symbol table (rt::runtimeSymbols), everything else (libm)
// through the process's loaded libraries.
//
//===----------------------------------------------------------------------===//

#include "CompileImpl.h"

#include "adjoint/Runtime/DeviceRegistry.h"

#include "adjoint/Runtime/Symbols.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace adjoint;
using namespace llvm::orc;

Executable::Program::~Program() {
  // The devices cache the kernels and constants of this code by the
  // addresses of its descriptors, which code loaded later may reuse.
  if (target.isGPU())
    rt::forgetLoadedGpuCode();
}

std::shared_ptr<Executable::Program>
compiler::loadObject(const std::string &object, const std::string &function,
                    std::string &error) {
  initializeNativeTarget();
  auto jit = LLJITBuilder().create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  addPerfMapSupport(**jit);
  JITDylib &dylib = (*jit)->getMainJITDylib();
  auto process = DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process) {
    error = llvm::toString(process.takeError());
    return nullptr;
  }
  dylib.addGenerator(std::move(*process));
  SymbolMap runtime;
  for (const rt::RuntimeSymbol &symbol : rt::runtimeSymbols())
    runtime[(*jit)->mangleAndIntern(symbol.name)] = ExecutorSymbolDef(
        ExecutorAddr::fromPtr(symbol.address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  if (llvm::Error err = dylib.define(absoluteSymbols(std::move(runtime)))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  auto buffer =
      llvm::MemoryBuffer::getMemBufferCopy(object, "adjoint." + function);
  if (llvm::Error err = (*jit)->addObjectFile(std::move(buffer))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  auto entry = (*jit)->lookup(rt::entrySymbol(function));
  if (!entry) {
    error = llvm::toString(entry.takeError());
    return nullptr;
  }
  auto signature = (*jit)->lookup(rt::signatureSymbol(function));
  if (!signature) {
    error = llvm::toString(signature.takeError());
    return nullptr;
  }
  std::optional<rt::Signature> parsed =
      rt::Signature::parse(signature->toPtr<const char *>());
  if (!parsed) {
    error = "the object's signature string is malformed";
    return nullptr;
  }
  auto program = std::make_shared<Executable::Program>();
  program->entry = entry->toPtr<rt::PackedEntry>();
  program->signature = std::move(*parsed);
  program->function = function;
  program->jit = std::move(*jit);
  return program;
}

std::optional<rt::Signature>
compiler::readObjectSignature(const std::string &object,
                             const std::string &function) {
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "object"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return std::nullopt;
  }
  std::string wanted = rt::signatureSymbol(function);
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    auto name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name != wanted)
      continue;
    auto section = symbol.getSection();
    auto value = symbol.getValue();
    if (!section || !value || *section == (*file)->section_end()) {
      if (!section)
        llvm::consumeError(section.takeError());
      if (!value)
        llvm::consumeError(value.takeError());
      return std::nullopt;
    }
    auto contents = (*section)->getContents();
    if (!contents) {
      llvm::consumeError(contents.takeError());
      return std::nullopt;
    }
    if (*value >= contents->size())
      return std::nullopt;
    llvm::StringRef rest = contents->substr(*value);
    return rt::Signature::parse(rest.substr(0, rest.find('\0')).str());
  }
  return std::nullopt;
}
