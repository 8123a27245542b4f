//===- MergeModules.cpp - One kernel module per program -------------------===//
//
// See Passes.td. Outlining makes a gpu.module per launch, and each
// gpu.module becomes its own device object: an LLVM module, a libdevice
// link and a ptxas run (NVIDIA), an ld.lld run (AMD), a SPIR-V module and
// a driver build (Intel), and a module load at run time. A training step
// has hundreds of launches, many of them the same kernel (a layer's
// forward and backward repeat per layer, with the same shapes), so the
// program's kernels go into one module here, each distinct kernel once.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace adjoint {
#define GEN_PASS_DEF_MERGEMODULES
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// A hash of `kernel` that equivalent kernels share: every nested op's
/// name, attributes and result types in order, but not its symbol name
/// (nor values, which equivalence compares structurally).
llvm::hash_code structuralHash(gpu::GPUFuncOp kernel) {
  llvm::hash_code hash = mlir::hash_value(Type(kernel.getFunctionType()));
  kernel.getBody().walk([&](Operation *op) {
    hash = llvm::hash_combine(
        hash, OperationEquivalence::computeHash(
                  op, OperationEquivalence::ignoreHashValue,
                  OperationEquivalence::ignoreHashValue,
                  OperationEquivalence::IgnoreLocations),
        op->getNumOperands(), op->getNumRegions());
  });
  return hash;
}

/// `op`'s attributes but its symbol name.
SmallVector<NamedAttribute> attributesButName(Operation *op) {
  SmallVector<NamedAttribute> out;
  for (NamedAttribute a : op->getAttrDictionary())
    if (a.getName() != SymbolTable::getSymbolAttrName())
      out.push_back(a);
  return out;
}

/// Whether launching `a` computes what launching `b` does: the same
/// signature and attributes (launch bounds, workgroup memory) and the
/// same body up to value names and locations.
bool sameKernel(gpu::GPUFuncOp a, gpu::GPUFuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         attributesButName(a) == attributesButName(b) &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(),
             OperationEquivalence::IgnoreLocations);
}

/// The only op of `module` when it is a kernel (what outlining makes of a
/// launch without calls); null otherwise.
gpu::GPUFuncOp loneKernel(gpu::GPUModuleOp module) {
  Block &body = module.getBodyRegion().front();
  if (!llvm::hasSingleElement(body))
    return nullptr;
  auto kernel = dyn_cast<gpu::GPUFuncOp>(body.front());
  return kernel && kernel.isKernel() ? kernel : nullptr;
}

/// The attributes a module's object is built with (its targets, offloading
/// handler, ...): modules merge only with those that share them.
DictionaryAttr objectAttributes(gpu::GPUModuleOp module) {
  return DictionaryAttr::get(module.getContext(),
                             attributesButName(module));
}

struct MergeModulesPass
    : adjoint::impl::MergeModulesBase<MergeModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::MapVector<DictionaryAttr, SmallVector<gpu::GPUModuleOp>> groups;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      groups[objectAttributes(gpuModule)].push_back(gpuModule);
    // Launches of a moved or merged kernel: the old reference to the new.
    // A kernel merge() moves and split() moves on has two entries, which
    // the replacement follows.
    DenseMap<Attribute, Attribute> moved;
    SymbolTable symbols(module);
    for (auto &[attributes, members] : groups) {
      if (members.size() > 1 && failed(merge(members, symbols, moved)))
        return signalPassFailure();
      split(members.front(), symbols, moved);
    }
    if (moved.empty())
      return;
    AttrTypeReplacer replacer;
    replacer.addReplacement(
        [&](SymbolRefAttr ref) -> std::optional<Attribute> {
          Attribute to = ref;
          for (auto it = moved.find(to); it != moved.end();
               it = moved.find(to))
            to = it->second;
          if (to == ref)
            return std::nullopt;
          return to;
        });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/false);
  }

  /// Moves the symbols of `members` into the first, which becomes the
  /// group's module `<function>_kernels`, and records in `moved` where the
  /// kernels of the others went; a lone kernel (a module of one kernel, as
  /// outlining makes) equal to one already there is dropped for it.
  LogicalResult merge(ArrayRef<gpu::GPUModuleOp> members,
                      SymbolTable &symbols,
                      DenseMap<Attribute, Attribute> &moved) {
    gpu::GPUModuleOp into = members.front();
    auto reference = [](StringAttr moduleName, StringAttr kernel) {
      return SymbolRefAttr::get(moduleName, {FlatSymbolRefAttr::get(kernel)});
    };
    // The launches of its own kernels follow the rename.
    if (failed(symbols.rename(into,
                              uniqueName(mergedName(into.getName()),
                                         [&](StringRef name) {
                                           return symbols.lookup(name);
                                         }))))
      return into.emitError("cannot rename the kernel module");
    StringAttr name = into.getNameAttr();
    SymbolTable table(into);
    // The lone kernels there so far, by structural hash: a kernel of a
    // later module equal to one of them is dropped for it.
    DenseMap<llvm::hash_code, SmallVector<gpu::GPUFuncOp>> distinct;
    auto remember = [&](gpu::GPUFuncOp kernel) {
      distinct[structuralHash(kernel)].push_back(kernel);
    };
    if (gpu::GPUFuncOp kernel = loneKernel(into))
      remember(kernel);

    for (gpu::GPUModuleOp from : members.drop_front()) {
      StringAttr fromName = from.getNameAttr();
      gpu::GPUFuncOp lone = loneKernel(from);
      if (lone) {
        auto &candidates = distinct[structuralHash(lone)];
        auto same = llvm::find_if(candidates, [&](gpu::GPUFuncOp other) {
          return sameKernel(lone, other);
        });
        if (same != candidates.end()) {
          moved[reference(fromName, lone.getNameAttr())] =
              reference(name, same->getNameAttr());
          symbols.erase(from);
          continue;
        }
      }
      // Names taken in the merged module change in `from` first, with
      // their uses there.
      SymbolTable fromTable(from);
      Block &body = from.getBodyRegion().front();
      for (Operation &op : llvm::make_early_inc_range(body)) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol)
          continue;
        StringAttr old = symbol.getNameAttr();
        if (Operation *taken = table.lookup(old)) {
          if (!isa<gpu::GPUFuncOp>(op) &&
              OperationEquivalence::isEquivalentTo(
                  &op, taken, OperationEquivalence::IgnoreLocations)) {
            // The same declaration or global: its uses resolve to the one
            // there.
            op.erase();
            continue;
          }
          // A name free in both: the uses in `from` must not meet another
          // of its symbols either.
          std::string name = uniqueName(old, [&](StringRef name) {
            return table.lookup(name) || fromTable.lookup(name);
          });
          if (failed(fromTable.rename(&op, name)))
            return op.emitError("cannot rename it into the kernel module");
        }
        if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
            kernel && kernel.isKernel())
          moved[reference(fromName, old)] =
              reference(name, kernel.getNameAttr());
      }
      Block &target = into.getBodyRegion().front();
      for (Operation &op : llvm::make_early_inc_range(body)) {
        op.moveBefore(&target, target.end());
        if (isa<SymbolOpInterface>(op))
          table.insert(&op);
      }
      if (lone)
        remember(lone);
      symbols.erase(from);
    }
    return success();
  }

  /// Spreads the kernels of `module` over ceil(kernels / kernelsPerModule)
  /// modules of about equal size (in operations), each kernel whole, so
  /// that -adj-gpu-modules-to-binary compiles them in parallel. A module
  /// with anything but kernels (a function its kernels call) stays whole.
  void split(gpu::GPUModuleOp module, SymbolTable &symbols,
             DenseMap<Attribute, Attribute> &moved) {
    SmallVector<gpu::GPUFuncOp> kernels;
    for (Operation &op : module.getBodyRegion().front()) {
      auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
      if (!kernel || !kernel.isKernel())
        return;
      kernels.push_back(kernel);
    }
    unsigned parts = (kernels.size() + kernelsPerModule - 1) /
                     std::max(1u, unsigned(kernelsPerModule));
    if (parts < 2)
      return;
    // Largest first, each to the lightest part (ties: the first).
    SmallVector<size_t> weights;
    for (gpu::GPUFuncOp kernel : kernels) {
      size_t ops = 0;
      kernel.walk([&](Operation *) { ++ops; });
      weights.push_back(ops);
    }
    auto order = llvm::to_vector(llvm::seq<unsigned>(0, kernels.size()));
    llvm::stable_sort(order, [&](unsigned a, unsigned b) {
      return weights[a] > weights[b];
    });
    SmallVector<size_t> load(parts, 0);
    SmallVector<unsigned> part(kernels.size(), 0);
    for (unsigned k : order) {
      unsigned lightest = std::min_element(load.begin(), load.end()) -
                          load.begin();
      part[k] = lightest;
      load[lightest] += weights[k];
    }
    // Part 0 stays in `module`; the others are new modules after it, with
    // its attributes (targets, ...).
    SmallVector<gpu::GPUModuleOp> modules = {module};
    OpBuilder builder(module);
    builder.setInsertionPointAfter(module);
    for (unsigned p = 1; p < parts; ++p) {
      auto extra =
          cast<gpu::GPUModuleOp>(builder.cloneWithoutRegions(*module));
      extra.getBodyRegion().emplaceBlock();
      // Named after the module, with the first free suffix.
      symbols.insert(extra);
      modules.push_back(extra);
      builder.setInsertionPointAfter(extra);
    }
    for (auto [kernel, p] : llvm::zip(kernels, part)) {
      if (p == 0)
        continue;
      Block &target = modules[p].getBodyRegion().front();
      kernel->moveBefore(&target, target.end());
      auto to = [&](gpu::GPUModuleOp m) {
        return SymbolRefAttr::get(m.getNameAttr(),
                                  {FlatSymbolRefAttr::get(
                                      kernel.getNameAttr())});
      };
      moved[to(module)] = to(modules[p]);
    }
  }

  /// The merged module's name after its first module's: outlining names
  /// kernels `<host function>_kernel[_<n>]`, and their module becomes
  /// `<host function>_kernels`.
  static std::string mergedName(StringRef first) {
    StringRef base = first;
    auto [head, tail] = base.rsplit('_');
    if (!tail.empty() && llvm::all_of(tail, llvm::isDigit) && !head.empty())
      base = head;
    return (base.ends_with("kernel") ? base + "s" : base + "_kernels").str();
  }

  /// `base`, or `base_<n>` with the first n for which `taken` is false.
  static std::string uniqueName(StringRef base,
                                llvm::function_ref<bool(StringRef)> taken) {
    std::string name = base.str();
    for (unsigned n = 0; taken(name); ++n)
      name = (base + "_" + Twine(n)).str();
    return name;
  }
};

} // namespace
