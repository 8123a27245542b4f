//===- Compile.h - Compile adj functions to native code ---------*- C++ -*-===//
//
// compile() takes one function of an adj module through -adj-grad, the
// optimizer, the target's registered pipeline (-adj-lower-to-<kind>, the
// same that ir-opt runs) and LLVM (O3 for the target's CPU) to an object
// file, loads it into a JIT and returns an Executable that runs it on
// runtime tensors:
//
//   api::Module m;
//   ... m.function("mlp", {x, w, b}, ...);
//   Executable exe = compile(m, "mlp", Target::cpu());
//   std::vector<rt::Tensor> out = exe.run({x, w, b});
//
// Inputs and outputs are the tensor leaves of the function's adj signature,
// tuples flattened depth-first. Function values cannot cross the boundary.
//
// For a GPU kind (Target::parse("opencl")) the object is host code for this
// CPU with the kernels embedded; it runs on a device of that kind and
// launches them through the runtime (docs/gpu-backend.md):
//
//   Executable exe = compile(m, "mlp", Target::parse("opencl"));
//   std::vector<rt::Tensor> out = exe.run({x, w, b});  // device tensors
//   out[0].toHost();
//
// The object file is cached, keyed by a hash of the printed input module,
// the function, the target, the options and the compiler's identity: in
// memory for the process, and on disk in a cache folder (so a fresh process
// skips the compilation). compileToObject() writes the same object plus a
// C++ header for ahead-of-time use: a program links it with AdjointRuntime
// only, without MLIR or LLVM.
//
// Errors (an op the lowering does not support, a wrong input) are thrown as
// adjoint::Error with the compiler's diagnostics in the message. See
// docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_API_COMPILE_H
#define ADJOINT_API_COMPILE_H

#include "adjoint/Target/Target.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Signature.h"
#include "adjoint/Runtime/Tensor.h"
#include "adjoint/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace adjoint {

namespace api {
class Module;
} // namespace api

namespace interp {
class Tensor;
} // namespace interp

struct CompileOptions {
  /// Run the adj optimizer (-adj-optimize: inlining, specialization,
  /// simplification). When off, only -adj-grad and -adj-infer run before
  /// lowering, which handles first-order programs only.
  bool optimize = true;
  /// LLVM optimization level of the generated code, 0 to 3.
  unsigned optLevel = 3;
  /// Look up and store compiled objects in the cache (memory and disk).
  bool cache = true;
  /// The cache folder; empty means defaultCacheDir().
  std::string cacheDir;
  /// Verify the IR after every pass instead of after each stage (optimize,
  /// tensors, LLVM). Slower (the verifier is a large share of the
  /// optimizer's time on big programs); finds the pass that broke the IR.
  bool verifyEachPass = false;
  /// Donated inputs (indices into the flattened inputs, JAX's
  /// donate_argnums): the call may overwrite them, and an output of the
  /// same dtype and shape is computed into the donated memory where
  /// bufferization can do so without a copy. Such an output then shares
  /// the input's storage (no new allocation, no copy); the caller must not
  /// read the input again. A donated input the runtime cannot write (one
  /// that borrows caller memory, is read-only, or overlaps another input)
  /// is copied first. Part of the cache key.
  std::vector<unsigned> donate;
};

/// Where an Executable's code came from.
enum class CacheOutcome { Compiled, MemoryHit, DiskHit };
/// "compiled", "memory-hit", "disk-hit".
const char *cacheOutcomeName(CacheOutcome outcome);

/// A compiled function, ready to run. Cheap to copy (shared code); run() may
/// be called from several threads at once.
class Executable {
public:
  /// An empty executable; run() throws.
  Executable();
  ~Executable();
  Executable(const Executable &);
  Executable &operator=(const Executable &);

  /// Runs the function. Inputs whose data is 64-byte aligned are passed to
  /// the compiled code without a copy (and never written unless donated:
  /// CompileOptions::donate). The outputs own their memory (an output
  /// computed into a donated input shares that input's storage). Throws adjoint::Error on a wrong input count, dtype or
  /// shape, and on an allocation failure (the memory pool's limit).
  ///
  /// Code compiled for a GPU kind runs on `device` (a device of that kind),
  /// by default on the device its device inputs are on, else on device 0
  /// of the kind. Host inputs are copied to the device first; the outputs
  /// are device tensors (Tensor::toHost() reads them, waiting for the
  /// queued work). Unavailable when the kind has no device here.
  std::vector<rt::Tensor> run(const std::vector<rt::Tensor> &inputs,
                              rt::Device *device = nullptr) const;
  /// run() without exceptions: the failure is the returned status.
  rt::Status tryRun(const std::vector<rt::Tensor> &inputs,
                    std::vector<rt::Tensor> &outputs,
                    rt::InvokeStats *stats = nullptr,
                    rt::Device *device = nullptr) const;

  /// The adj function's name.
  const std::string &function() const;
  /// The target it was compiled for.
  const Target &target() const;
  /// The flattened inputs and outputs.
  const rt::Signature &signature() const;
  /// Whether this came from the compiler or the cache.
  CacheOutcome cacheOutcome() const { return outcome_; }
  /// Wall time of the compile() call that made this executable.
  double compileSeconds() const { return compileSeconds_; }
  /// The hex cache key.
  const std::string &cacheKey() const;

  explicit operator bool() const { return program_ != nullptr; }

  /// The implementation (loaded code and its signature).
  struct Program;

private:
  friend Executable makeExecutable(std::shared_ptr<const Program>,
                                   CacheOutcome, double);
  std::shared_ptr<const Program> program_;
  CacheOutcome outcome_ = CacheOutcome::Compiled;
  double compileSeconds_ = 0.0;
};

/// Compiles `function` of `module` for `target`. The module is not
/// modified. Throws adjoint::Error when the function does not exist, its
/// signature has function values, or a pass fails (with the diagnostics).
/// JIT execution needs the host as target. Threads may compile different
/// modules (each in its own MLIRContext) at the same time.
Executable compile(const api::Module &module, const std::string &function,
                   const Target &target = Target::cpu(),
                   const CompileOptions &options = {});
/// The same for an MLIR module (cloned; the caller's module is unchanged).
Executable compile(mlir::ModuleOp module, const std::string &function,
                   const Target &target = Target::cpu(),
                   const CompileOptions &options = {});

/// What compileToObject() wrote.
struct AotArtifacts {
  /// <dir>/<function>.o and <dir>/<function>.h.
  std::string objectPath;
  std::string headerPath;
  rt::Signature signature;
};

/// Ahead-of-time compilation: writes `<outputDir>/<function>.o` and a header
/// `<outputDir>/<function>.h` declaring `adjoint::aot::<function>` with
/// run() entry points on runtime tensors and on raw pointers. The function
/// name must be a C identifier. Uses the cache like compile().
AotArtifacts compileToObject(const api::Module &module,
                             const std::string &function,
                             const std::string &outputDir,
                             const Target &target = Target::cpu(),
                             const CompileOptions &options = {});
AotArtifacts compileToObject(mlir::ModuleOp module, const std::string &function,
                             const std::string &outputDir,
                             const Target &target = Target::cpu(),
                             const CompileOptions &options = {});

/// The LLVM IR of `function` as compile() generates it, after LLVM's
/// optimization for `target` at `options.optLevel` (text; never cached).
std::string compileToLLVMIR(mlir::ModuleOp module, const std::string &function,
                            const Target &target = Target::cpu(),
                            const CompileOptions &options = {});

/// The module compile() translates to LLVM IR: `function` after -adj-grad,
/// the optimizer and the target's pipeline (-adj-lower-to-<kind>), printed
/// (the LLVM dialect for the CPU; never cached). The same as
/// `ir-opt -adj-grad -adj-optimize -adj-lower-to-<kind>` on a module whose
/// other functions are private.
std::string compileToMLIR(mlir::ModuleOp module, const std::string &function,
                          const Target &target = Target::cpu(),
                          const CompileOptions &options = {});

/// Counters of the compile cache since the process started.
struct CacheStats {
  uint64_t memoryHits = 0;
  uint64_t diskHits = 0;
  /// Compilations (cache disabled, or not found).
  uint64_t compilations = 0;
  uint64_t diskWrites = 0;
  /// Disk entries that failed their checksum or did not load (rebuilt).
  uint64_t corruptEntries = 0;
};
CacheStats cacheStats();

/// $ADJOINT_CACHE_DIR, else $XDG_CACHE_HOME/adjoint, else ~/.cache/adjoint.
std::string defaultCacheDir();
/// Forgets the in-memory cache (executables already made stay valid).
void clearMemoryCache();
/// Clears the in-memory cache and deletes the cached objects in `dir`
/// (defaultCacheDir() when empty). Other files in the folder are kept.
void clearCache(const std::string &dir = "");

/// Copies between the interpreter's tensors and the runtime's (same dtype,
/// shape and bytes).
rt::Tensor toRuntime(const interp::Tensor &tensor);
interp::Tensor toInterpreter(const rt::Tensor &tensor);

} // namespace adjoint

#endif // ADJOINT_API_COMPILE_H
