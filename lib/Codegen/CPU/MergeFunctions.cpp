//===- MergeFunctions.cpp - one function for equal private functions ------===//
//
// The layers of a model and the steps of an unrolled loop lower to the same
// loop nests again and again; -adj-cpu-parallel-to-runtime and
// -adj-cpu-outline-loops make each a function of its own, so most of those
// functions are equal but for their names. Keeping one of each lets LLVM
// optimize and emit it once (bert at the cpu size: 632 functions, 382
// distinct; an LSTM unrolled over 64 steps: 4299).
//
// Equal means the same type, attributes and body as printed (SSA names are
// numbered per function, locations are not printed). References are
// redirected in func.call and func.constant, the only ways the lowering
// refers to a function; a function referred to otherwise is kept. Merging two functions can make their callers
// equal, so it repeats until nothing changes.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace adjoint::cpu {
#define GEN_PASS_DEF_MERGEFUNCTIONS
#include "adjoint/Codegen/CPU/Passes.h.inc"
} // namespace adjoint::cpu

using namespace mlir;

namespace {

/// What makes two functions interchangeable: everything but the name.
std::string key(func::FuncOp fn) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (NamedAttribute attr : fn->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      os << attr.getName() << "=" << attr.getValue() << ";";
  os << "\n";
  AsmState state(fn);
  for (Block &block : fn.getBody()) {
    block.printAsOperand(os, state);
    os << "\n";
    for (Operation &op : block) {
      op.print(os, state);
      os << "\n";
    }
  }
  return text;
}

/// Functions referred to other than as the callee of a func.call or the
/// value of a func.constant: they may be kept as the copy others merge
/// into, but never removed. None when the uses cannot all be known (an
/// unregistered op might be a symbol table).
std::optional<llvm::DenseSet<StringAttr>> pinnedFunctions(ModuleOp module) {
  auto all = SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!all)
    return std::nullopt;
  llvm::DenseMap<StringAttr, int> uses, redirectable;
  for (const SymbolTable::SymbolUse &use : *all)
    ++uses[use.getSymbolRef().getRootReference()];
  module.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op))
      ++redirectable[call.getCalleeAttr().getAttr()];
    else if (auto constant = dyn_cast<func::ConstantOp>(op))
      ++redirectable[constant.getValueAttr().getRootReference()];
  });
  llvm::DenseSet<StringAttr> pinned;
  for (auto [symbol, count] : uses)
    if (count != redirectable.lookup(symbol))
      pinned.insert(symbol);
  return pinned;
}

/// Merges one round; returns whether anything was merged.
bool mergeOnce(ModuleOp module) {
  std::optional<llvm::DenseSet<StringAttr>> pinned = pinnedFunctions(module);
  if (!pinned)
    return false;
  llvm::StringMap<func::FuncOp> first;
  llvm::DenseMap<StringAttr, StringAttr> replacement;
  SmallVector<func::FuncOp> merged;
  for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPrivate() || fn.isExternal())
      continue;
    auto [it, isNew] = first.try_emplace(key(fn), fn);
    if (isNew || pinned->contains(fn.getSymNameAttr()))
      continue;
    replacement[fn.getSymNameAttr()] = it->second.getSymNameAttr();
    merged.push_back(fn);
  }
  if (merged.empty())
    return false;
  module.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (StringAttr to = replacement.lookup(call.getCalleeAttr().getAttr()))
        call.setCallee(to);
    } else if (auto constant = dyn_cast<func::ConstantOp>(op)) {
      if (StringAttr to = replacement.lookup(
              constant.getValueAttr().getRootReference()))
        constant.setValueAttr(FlatSymbolRefAttr::get(to));
    }
  });
  for (func::FuncOp fn : merged)
    fn.erase();
  return true;
}

struct MergeFunctions : adjoint::cpu::impl::MergeFunctionsBase<MergeFunctions> {
  using MergeFunctionsBase::MergeFunctionsBase;

  void runOnOperation() override {
    while (mergeOnce(getOperation())) {
    }
  }
};

} // namespace
