//===- CodeGen.cpp - LLVM IR -> an optimized object file ------------------===//
//
// O3 without loop unrolling, with a TargetMachine for the target CPU (so
// that the loop and SLP vectorizers see AVX2/AVX-512 costs), then the
// backend to an ELF object in position-independent code, loadable by the
// JIT and linkable into position-independent executables alike.
//
//===----------------------------------------------------------------------===//

#include "CompileImpl.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace adjoint;

void compiler::initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

namespace {
llvm::OptimizationLevel optimizationLevel(unsigned level) {
  switch (level) {
  case 0:
    return llvm::OptimizationLevel::O0;
  case 1:
    return llvm::OptimizationLevel::O1;
  case 2:
    return llvm::OptimizationLevel::O2;
  default:
    return llvm::OptimizationLevel::O3;
  }
}

llvm::CodeGenOptLevel codeGenLevel(unsigned level) {
  switch (level) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}
} // namespace

std::string compiler::hostTriple() { return llvm::sys::getProcessTriple(); }

namespace {
/// A target machine for `target`; the module gets its triple and layout.
std::unique_ptr<llvm::TargetMachine> machineFor(llvm::Module &module,
                                                const Target &target,
                                                unsigned optLevel) {
  compiler::initializeNativeTarget();
  llvm::Triple triple(target.triple);
  std::string error;
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    throw Error("compile: no code generator for target '" + target.triple +
                "': " + error);
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(backend->createTargetMachine(
      triple, target.chip, llvmTargetFeatures(target.features), targetOptions,
      llvm::Reloc::PIC_, llvm::CodeModel::Small, codeGenLevel(optLevel)));
  if (!machine)
    throw Error("compile: cannot create a target machine for " +
                target.str());
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());
  return machine;
}

/// LLVM's default pipeline at `optLevel`, tuned for `machine` (so the
/// vectorizers see the CPU's vector units).
void optimize(llvm::Module &module, llvm::TargetMachine &machine,
              unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel >= 2;
  tuning.SLPVectorization = optLevel >= 2;
  // No unrolling besides the vectorizer's interleaving. A step is hundreds
  // of loops with small constant trip counts; O3's full and partial
  // unrolling of them made the code 3x larger and LLVM 3x slower (bert at
  // the cpu size: 14 s -> 4.5 s to compile) for no speed: the workloads ran
  // as fast without it within noise, gnn's small loops 5% slower
  // (docs/cpu-backend.md, "Compile time").
  tuning.LoopUnrolling = false;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      optLevel == 0
          ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
          : builder.buildPerModuleDefaultPipeline(optimizationLevel(optLevel));
  passes.run(module, mam);
}
} // namespace

std::string compiler::optimizedLLVMIR(llvm::Module &module,
                                      const Target &target,
                                      unsigned optLevel) {
  std::unique_ptr<llvm::TargetMachine> machine =
      machineFor(module, target, optLevel);
  optimize(module, *machine, optLevel);
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

std::string compiler::emitObject(llvm::Module &module, const Target &target,
                                 unsigned optLevel) {
  std::unique_ptr<llvm::TargetMachine> machine =
      machineFor(module, target, optLevel);
  optimize(module, *machine, optLevel);

  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    throw Error("compile: the code generator cannot emit objects for " +
                target.str());
  codegen.run(module);
  return std::string(buffer.begin(), buffer.end());
}
