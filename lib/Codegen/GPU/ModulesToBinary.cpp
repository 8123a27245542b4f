//===- ModulesToBinary.cpp - Kernel modules to objects, in parallel -------===//
//
// See Passes.td. Upstream's gpu-module-to-binary serializes one module and
// target at a time; each serialization is independent (its own LLVM
// context, its own ptxas or ld.lld process), so here they run on the
// context's thread pool, and the gpu.binary ops are made afterwards in
// module order, as upstream makes them.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSwitch.h"

#include <optional>

namespace adjoint {
#define GEN_PASS_DEF_MODULESTOBINARY
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// One object to make: a module for one of its targets.
struct Job {
  gpu::GPUModuleOp module;
  gpu::TargetAttrInterface target;
  std::optional<SmallVector<char, 0>> object;
};

struct ModulesToBinaryPass
    : adjoint::impl::ModulesToBinaryBase<ModulesToBinaryPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    auto format =
        llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(
            this->format)
            .Cases({"offloading", "llvm"}, gpu::CompilationTarget::Offload)
            .Cases({"assembly", "isa"}, gpu::CompilationTarget::Assembly)
            .Cases({"binary", "bin"}, gpu::CompilationTarget::Binary)
            .Cases({"fatbinary", "fatbin"}, gpu::CompilationTarget::Fatbin)
            .Default(std::nullopt);
    if (!format) {
      top.emitError("unknown object format '") << this->format << "'";
      return signalPassFailure();
    }
    // Built before the threads start: targets that look symbols up (none
    // of Adjoint's) must not build it concurrently.
    SymbolTable symbols(top);
    gpu::TargetOptions options(toolkit, /*librariesToLink=*/{},
                               /*cmdOptions=*/"", /*elfSection=*/"",
                               *format, [&] { return &symbols; });

    SmallVector<Job> jobs;
    for (auto module : top.getOps<gpu::GPUModuleOp>()) {
      ArrayAttr targets = module.getTargetsAttr();
      if (!targets || targets.empty()) {
        module.emitError("the module has no target attributes");
        return signalPassFailure();
      }
      for (Attribute attr : targets) {
        auto target = dyn_cast<gpu::TargetAttrInterface>(attr);
        if (!target) {
          module.emitError("target ") << attr << " cannot serialize";
          return signalPassFailure();
        }
        jobs.push_back({module, target, std::nullopt});
      }
    }
    // Each serialization reads its module only and writes its own object.
    if (failed(failableParallelForEach(&getContext(), jobs,
                                       [&](Job &job) -> LogicalResult {
          job.object = job.target.serializeToObject(job.module, options);
          if (!job.object)
            return job.module.emitError(
                "An error happened while serializing the module.");
          return success();
        })))
      return signalPassFailure();

    // The binaries, in module order, each with its targets' objects in the
    // order of its targets.
    for (size_t first = 0; first < jobs.size();) {
      gpu::GPUModuleOp module = jobs[first].module;
      SmallVector<Attribute> objects;
      size_t next = first;
      for (; next < jobs.size() && jobs[next].module == module; ++next) {
        Attribute object = jobs[next].target.createObject(
            module, *jobs[next].object, options);
        if (!object) {
          module.emitError("An error happened while creating the object.");
          return signalPassFailure();
        }
        objects.push_back(object);
      }
      OpBuilder builder(module);
      builder.setInsertionPointAfter(module);
      gpu::BinaryOp::create(
          builder, module.getLoc(), module.getName(),
          dyn_cast_or_null<gpu::OffloadingLLVMTranslationAttrInterface>(
              module.getOffloadingHandlerAttr()),
          builder.getArrayAttr(objects));
      module.erase();
      first = next;
    }
  }
};

} // namespace
