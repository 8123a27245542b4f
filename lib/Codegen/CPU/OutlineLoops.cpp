//===- OutlineLoops.cpp - each loop nest in a function of its own ---------===//
//
// A lowered training step is one function with hundreds or thousands of
// loop nests in sequence (one per fused op of the forward and backward
// passes). Several of LLVM's loop passes (IndVarSimplify, LoopRotate through
// ScalarEvolution) walk the dominator chain above each loop, so their time
// grows with the square of the number of loops in one function: at the cpu
// size of the convnet workload they were half of `opt -O3`, and an unrolled
// LSTM time loop took minutes (docs/cpu-backend.md). Outlining every
// top-level nest into its own never-inlined function makes that cost linear;
// a call per nest costs nanoseconds against the nest's own work.
//
// Static shapes stay in the memref types of the outlined function's
// parameters, so its loops keep their constant bounds and strides.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"

namespace adjoint::cpu {
#define GEN_PASS_DEF_OUTLINELOOPS
#include "adjoint/Codegen/CPU/Passes.h.inc"
} // namespace adjoint::cpu

using namespace mlir;

namespace {

/// A loop nest that can stand alone: a loop with no results (it only
/// writes memory). Loops with results (lowered adj.for / adj.while carrying
/// buffers) stay, and the nests inside them are outlined instead.
bool isNest(Operation *op) {
  return isa<scf::ForOp, scf::ParallelOp>(op) && op->getNumResults() == 0;
}

/// The outermost nests of `func`, in program order.
SmallVector<Operation *> nestsOf(func::FuncOp func) {
  SmallVector<Operation *> nests;
  func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isNest(op))
      return WalkResult::advance();
    nests.push_back(op);
    return WalkResult::skip();
  });
  return nests;
}

bool isClonableConstant(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         matchPattern(v, m_Constant());
}

/// Moves `nest` into a new private function placed after `parent` and
/// calls it there. The values it uses from above become parameters, except
/// constants, which are cloned so that LLVM still sees them.
void outline(Operation *nest, func::FuncOp parent, unsigned &counter,
             SymbolTable &symbols) {
  MLIRContext *ctx = nest->getContext();
  Location loc = nest->getLoc();
  llvm::SetVector<Value> used;
  for (Value v : nest->getOperands())
    used.insert(v);
  for (Region &region : nest->getRegions())
    getUsedValuesDefinedAbove(region, used);
  SmallVector<Value> constants, params;
  for (Value v : used)
    (isClonableConstant(v) ? constants : params).push_back(v);

  std::string name;
  do {
    name = (parent.getName() + "_loop_" + llvm::Twine(counter++)).str();
  } while (symbols.lookup(name));
  OpBuilder mb(ctx);
  mb.setInsertionPointAfter(parent);
  auto type = FunctionType::get(ctx, ValueRange(params).getTypes(), {});
  auto fn = func::FuncOp::create(mb, loc, name, type);
  fn.setPrivate();
  // Internal, so that objects compiled from different modules link
  // together; never inlined back, which would undo the point.
  fn->setAttr("llvm.linkage",
              LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  fn->setAttr("passthrough",
              ArrayAttr::get(ctx, {StringAttr::get(ctx, "noinline")}));
  symbols.insert(fn);

  Block *entry = fn.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  IRMapping map;
  for (Value v : constants)
    map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  for (auto [param, arg] : llvm::zip(params, entry->getArguments()))
    map.map(param, arg);
  b.clone(*nest, map);
  func::ReturnOp::create(b, loc);

  OpBuilder cb(nest);
  func::CallOp::create(cb, loc, fn, params);
  nest->erase();
  // Constants only the nest used are now dead in the parent.
  for (Value v : constants)
    if (v.use_empty())
      v.getDefiningOp()->erase();
}

struct OutlineLoops : adjoint::cpu::impl::OutlineLoopsBase<OutlineLoops> {
  using OutlineLoopsBase::OutlineLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      // A function with a single nest (a parallel chunk, a small kernel)
      // gains nothing.
      SmallVector<Operation *> nests = nestsOf(func);
      if (nests.size() < 2)
        continue;
      unsigned counter = 0;
      for (Operation *nest : nests)
        outline(nest, func, counter, symbols);
    }
  }
};

} // namespace
