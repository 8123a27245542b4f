//===- CompileImpl.h - Internals of the compile API -------------*- C++ -*-===//
//
// The stages of compile(), one file each: the MLIR driver (adj -> LLVM IR),
// code generation (LLVM IR -> object file), the JIT (object file -> running
// code), the cache (object files by key) and ahead-of-time output.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_COMPILE_COMPILEIMPL_H
#define ADJOINT_LIB_COMPILE_COMPILEIMPL_H

#include "adjoint/API/Compile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace adjoint {

/// Loaded code: the JIT that owns it, the entry point and its signature.
struct Executable::Program {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  rt::PackedEntry entry = nullptr;
  rt::Signature signature;
  std::string function;
  std::string key;
  /// What it was compiled for: GPU kinds run on a device of that kind.
  Target target;
  ~Program();
};

namespace compiler {

//===- Driver.cpp ---------------------------------------------------------===//

/// An LLVM module with `_adj_entry_<f>` and `_adj_signature_<f>` defined.
struct LLVMModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  rt::Signature signature;
  LLVMModule();
  LLVMModule(LLVMModule &&);
  ~LLVMModule();
};

/// Runs -adj-grad, the optimizer (or -adj-infer) and `target`'s registered
/// pipeline (-adj-lower-to-<kind>) on a clone of `module` and returns it;
/// `signature` gets the entry's flattened inputs and outputs. Throws
/// adjoint::Error with the diagnostics of a failed stage, and when the
/// lowered entry does not have the type the signature implies.
mlir::OwningOpRef<mlir::ModuleOp>
lowerToTargetDialect(mlir::ModuleOp module, const std::string &function,
                     const Target &target, const CompileOptions &options,
                     rt::Signature &signature);

/// lowerToTargetDialect(), then translates `function` and its callees to
/// LLVM IR and adds the packed entry point and the signature string.
LLVMModule lowerToLLVMIR(mlir::ModuleOp module, const std::string &function,
                         const Target &target, const CompileOptions &options);

//===- CodeGen.cpp --------------------------------------------------------===//

/// Optimizes `module` at `options.optLevel` for `target` and returns the
/// bytes of an ELF object file (position-independent code).
std::string emitObject(llvm::Module &module, const Target &target,
                       unsigned optLevel);

/// Optimizes `module` as emitObject() does and returns it as LLVM IR text.
std::string optimizedLLVMIR(llvm::Module &module, const Target &target,
                            unsigned optLevel);

/// The host's process triple.
std::string hostTriple();
/// Initializes LLVM's native target (once per process).
void initializeNativeTarget();

//===- Jit.cpp ------------------------------------------------------------===//

/// Loads an object into a fresh JIT and finds the entry point and signature
/// of `function`; nullptr with `error` set when the object is unusable.
std::shared_ptr<Executable::Program> loadObject(const std::string &object,
                                                const std::string &function,
                                                std::string &error);

/// With ADJOINT_PERF_MAP set (not "0"), makes `jit` list every function it
/// links in perfMapPath(), so that perf names generated code (PerfMap.cpp).
void addPerfMapSupport(llvm::orc::LLJIT &jit);
/// /tmp/perf-<pid>.map, where perf looks for the names of JIT code.
std::string perfMapPath();

/// Reads `_adj_signature_<function>` from object file bytes.
std::optional<rt::Signature> readObjectSignature(const std::string &object,
                                                 const std::string &function);

//===- Compile.cpp --------------------------------------------------------===//

/// The object file for `function`: from the disk cache when options.cache
/// allows and the entry is intact (`fromDisk`), else compiled (and stored).
std::string objectFor(mlir::ModuleOp module, const std::string &function,
                      const Target &target, const CompileOptions &options,
                      const std::string &key, bool &fromDisk);
/// Throws adjoint::Error for out-of-range options.
void checkOptions(const CompileOptions &options);
/// Throws adjoint::Error for a target kind compile() cannot lower yet.
void checkTarget(const Target &target);

//===- Cache.cpp ----------------------------------------------------------===//

/// The hex key of a compilation.
std::string cacheKey(mlir::ModuleOp module, const std::string &function,
                     const Target &target, const CompileOptions &options);
/// The cache folder options.cacheDir names, or the default.
std::string cacheDirFor(const CompileOptions &options);

std::shared_ptr<const Executable::Program>
memoryCacheLookup(const std::string &key);
void memoryCacheInsert(const std::string &key,
                       std::shared_ptr<const Executable::Program> program);

/// The object stored under `key` in `dir`, if present and intact (a file
/// that fails its checksum is deleted and counted as corrupt).
std::optional<std::string> diskCacheLookup(const std::string &dir,
                                           const std::string &key);
/// Stores an object atomically (temporary file + rename). Failures to write
/// are ignored: the cache is an optimization.
void diskCacheStore(const std::string &dir, const std::string &key,
                    const std::string &object);
/// Deletes an entry whose object did not load, and counts it as corrupt.
void diskCacheReject(const std::string &dir, const std::string &key);

/// Counters the functions above do not update themselves.
void noteCompilation();
void noteDiskHit();

} // namespace compiler
} // namespace adjoint

#endif // ADJOINT_LIB_COMPILE_COMPILEIMPL_H
