//===- adj-aot.cpp - Compile an adj function ahead of time ----------------===//
//
// Writes an object file and a C++ header for one function of a .mlir file,
// for programs that link the compiled model with AdjointRuntime only:
//
//   adj-aot model.mlir --function mlp -o build/generated
//     -> build/generated/mlp.o, build/generated/mlp.h
//
// The code is generated for the host CPU unless --target names another one
// (e.g. --target=cpu:x86-64-v3). The compile cache is off unless --cache-dir is given,
// so that build steps leave nothing behind in the user's cache folder.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Compile.h"
#include "adjoint/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace adjoint;

// --help lists only these (and LLVM's generic --help/--version), not the
// hundreds of options that libLLVM registers for its own passes and targets.
static llvm::cl::OptionCategory aotCategory("adj-aot options");
static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input .mlir>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(aotCategory));
static llvm::cl::opt<std::string>
    functionName("function", llvm::cl::desc("The adj.func to compile"),
                 llvm::cl::Required, llvm::cl::cat(aotCategory));
static llvm::cl::alias functionAlias("f", llvm::cl::aliasopt(functionName),
                                     llvm::cl::desc("Alias for --function"),
                                     llvm::cl::cat(aotCategory));
static llvm::cl::opt<std::string>
    outputDir("o", llvm::cl::desc("Output folder for <function>.o/.h"),
              llvm::cl::value_desc("dir"), llvm::cl::Required,
              llvm::cl::cat(aotCategory));
static llvm::cl::opt<std::string> targetSpec(
    "target",
    llvm::cl::desc("Target kind[:chip]: cpu (the host with all its "
                   "features, the default) or cpu:<LLVM CPU name>"),
    llvm::cl::value_desc("kind[:chip]"), llvm::cl::init("cpu"),
    llvm::cl::cat(aotCategory));
static llvm::cl::opt<bool>
    noOptimize("no-optimize",
               llvm::cl::desc("Skip the adj optimizer before lowering"),
               llvm::cl::cat(aotCategory));
static llvm::cl::opt<unsigned>
    optLevel("opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
             llvm::cl::init(3), llvm::cl::cat(aotCategory));
static llvm::cl::opt<bool>
    emitLLVM("emit-llvm",
             llvm::cl::desc("Also write <function>.ll: the optimized LLVM IR "
                            "of the object"),
             llvm::cl::cat(aotCategory));
static llvm::cl::opt<std::string>
    cacheDir("cache-dir",
             llvm::cl::desc("Use the compile cache in this folder"),
             llvm::cl::value_desc("dir"), llvm::cl::cat(aotCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(aotCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "Adjoint ahead-of-time compiler: .mlir -> .o + .h\n");

  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer) {
    llvm::errs() << "adj-aot: error: cannot read '" << inputFile
                 << "': " << buffer.getError().message() << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 1;

  CompileOptions options;
  options.optimize = !noOptimize;
  options.optLevel = optLevel;
  options.cache = !cacheDir.empty();
  options.cacheDir = cacheDir;
  try {
    Target target = Target::parse(targetSpec);
    AotArtifacts out =
        compileToObject(*module, functionName, outputDir, target, options);
    llvm::outs() << "adj-aot: wrote " << out.objectPath << " and "
                 << out.headerPath << " (" << out.signature.serialize()
                 << ")\n";
    if (emitLLVM) {
      std::string path = outputDir + "/" + functionName + ".ll";
      std::error_code ec;
      llvm::raw_fd_ostream ll(path, ec);
      if (ec)
        throw Error("cannot write '" + path + "': " + ec.message());
      ll << compileToLLVMIR(*module, functionName, target, options);
      llvm::outs() << "adj-aot: wrote " << path << "\n";
    }
  } catch (const Error &e) {
    llvm::errs() << "adj-aot: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
