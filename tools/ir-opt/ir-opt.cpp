//===- ir-opt.cpp - The Adjoint pass driver -------------------------------===//
//
// mlir-opt with the adj dialect and passes: parses a .mlir file, runs the
// passes named on the command line (adj passes start with --adj-) and
// prints the result. Malformed input is a diagnostic and a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "adjoint/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"

/// Hides (from --help, not from --help-hidden) every option registered so
/// far: libLLVM registers hundreds at load time for its own backends and
/// IR passes (--x86-*, --amdgpu-*, --polly-*, ...) that mean nothing to a
/// user of ir-opt. MLIR's options, the passes and the pipelines are
/// registered later, by MlirOptMain, and stay listed; so do --help,
/// --version and --color.
static void hideLLVMOptions() {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    bool keep = llvm::any_of(option->Categories, [](auto *category) {
      return category->getName() == "Generic Options" ||
             category->getName() == "Color Options";
    });
    if (!keep && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

int main(int argc, char **argv) {
  hideLLVMOptions();
  adjoint::registerAllPasses();
  mlir::DialectRegistry registry;
  adjoint::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Adjoint pass driver\n", registry));
}
