//===- KernelNames.cpp - Kernel symbols every backend accepts -------------===//
//
// See Passes.td: outlined kernels are named after their host function,
// whose name PTX and AMDGPU assembly may not accept.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

namespace adjoint {
#define GEN_PASS_DEF_KERNELNAMES
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

bool isIdentifier(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_';
         });
}

/// `name` with every character outside [A-Za-z0-9_] replaced by '_', and
/// a '_' in front of a leading digit.
std::string identifierFor(StringRef name) {
  std::string out = name.empty() || llvm::isDigit(name.front()) ? "_" : "";
  for (char c : name)
    out += llvm::isAlnum(c) ? c : '_';
  return out;
}

/// Renames `symbol` within `table` (the symbol table it lives in) to an
/// identifier not yet used there, updating every use under `uses`.
LogicalResult renameToIdentifier(Operation *symbol, SymbolTable &table,
                                 Operation *uses) {
  StringRef old = SymbolTable::getSymbolName(symbol).getValue();
  if (isIdentifier(old))
    return success();
  std::string base = identifierFor(old), name = base;
  for (unsigned n = 0; table.lookup(name); ++n)
    name = base + "_" + std::to_string(n);
  auto to = StringAttr::get(symbol->getContext(), name);
  if (failed(SymbolTable::replaceAllSymbolUses(symbol, to, uses)))
    return symbol->emitError("cannot rename the kernel symbol '")
           << old << "' to '" << name << "'";
  table.remove(symbol);
  SymbolTable::setSymbolName(symbol, to);
  table.insert(symbol);
  return success();
}

struct KernelNamesPass : adjoint::impl::KernelNamesBase<KernelNamesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto gpuModule :
         llvm::to_vector(module.getOps<mlir::gpu::GPUModuleOp>())) {
      // Kernels first: their uses are found through the module's current
      // name.
      SymbolTable kernels(gpuModule);
      for (auto kernel :
           llvm::to_vector(gpuModule.getOps<mlir::gpu::GPUFuncOp>()))
        if (kernel.isKernel() &&
            failed(renameToIdentifier(kernel, kernels, module)))
          return signalPassFailure();
      if (failed(renameToIdentifier(gpuModule, symbols, module)))
        return signalPassFailure();
    }
  }
};

} // namespace
