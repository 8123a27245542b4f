//===- FoldFills.cpp - A fill into the kernel that starts from it ---------===//
//
// Bufferized code initializes every reduction's and contraction's output
// with a linalg.fill (zeros for sums and products, -inf for max, ...) and
// then accumulates into it: on a GPU, one kernel for the fill and one for
// the work (a third of mlp's kernels were fills). When the next op to touch
// the filled buffer is a linalg op that starts from it (its output, read
// by its payload or reductions), the fill's constant becomes that op's
// starting value (kInitConstantsAttrName, which every kernel builder reads
// through loadOperand/loadInit; contractions and convolutions, and GEMM
// libraries through the record's overwrite flag, start from zero) and the
// fill goes.
//
// Conservative: the fill's value is a constant; the op is in the same
// block, and nothing between them touches the buffer or a view of it, is
// control flow or has unknown effects; the op's output is the filled buffer itself,
// which it does not also read as an input. A nonzero constant folds only
// into ops that are neither contractions nor convolutions (whose kernels
// and libraries start from zero or from memory).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "adjoint/Codegen/Common/ViewRoot.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace adjoint {
#define GEN_PASS_DEF_FOLDFILLS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// `root` and every view made of it, transitively.
llvm::SmallPtrSet<Value, 8> aliasesOf(Value root) {
  llvm::SmallPtrSet<Value, 8> aliases{root};
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == v)
          for (Value result : user->getResults())
            if (aliases.insert(result).second)
              work.push_back(result);
  }
  return aliases;
}

/// Whether `op`, or an op in its regions (a payload that loads a captured
/// buffer), has one of `values` as an operand.
bool usesAny(Operation *op, const llvm::SmallPtrSet<Value, 8> &values) {
  return op
      ->walk([&](Operation *inner) {
        return llvm::any_of(inner->getOperands(),
                            [&](Value v) { return values.contains(v); })
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

bool isZero(TypedAttr value) {
  if (auto f = dyn_cast<FloatAttr>(value))
    return f.getValue().isZero();
  if (auto i = dyn_cast<IntegerAttr>(value))
    return i.getValue().isZero();
  return false;
}

/// Whether `op` starts from `init`'s values: its payload reads the output,
/// or it reduces into it.
bool startsFrom(linalg::LinalgOp op, OpOperand &init) {
  return op.getNumReductionLoops() > 0 ||
         !op.getMatchingBlockArgument(&init).use_empty();
}

/// Whether `op` writes every element of `init`: its map picks each
/// parallel loop once (a projected permutation over all of them).
bool coversOutput(linalg::LinalgOp op, OpOperand &init) {
  AffineMap map = op.getMatchingIndexingMap(&init);
  return map.isProjectedPermutation() &&
         map.getNumResults() == op.getNumParallelLoops();
}

/// Folds `fill` into the op that starts from its buffer; false when there
/// is none it may fold into.
bool fold(linalg::FillOp fill) {
  if (!fill.hasPureBufferSemantics())
    return false;
  Attribute constant;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&constant)))
    return false;
  auto value = dyn_cast<TypedAttr>(constant);
  if (!value)
    return false;
  Value buffer = fill.getOutputs()[0];
  llvm::SmallPtrSet<Value, 8> aliases = aliasesOf(adjoint::viewRoot(buffer));
  auto touches = [&](Operation *op) { return usesAny(op, aliases); };
  for (Operation *op = fill->getNextNode(); op; op = op->getNextNode()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && linalgOp.hasPureBufferSemantics()) {
      OpOperand *init = nullptr;
      for (OpOperand &out : linalgOp.getDpsInitsMutable())
        if (out.get() == buffer)
          init = &out;
      if (init) {
        // As an input, or inside the payload (a captured view).
        bool readsElsewhere =
            llvm::any_of(linalgOp.getDpsInputOperands(),
                         [&](OpOperand *in) {
                           return aliases.contains(in->get());
                         }) ||
            llvm::any_of(linalgOp->getRegion(0).getOps(), [&](Operation &inner) {
              return usesAny(&inner, aliases);
            });
        bool zeroOnly = linalg::isaContractionOpInterface(linalgOp) ||
                        linalg::isaConvolutionOpInterface(linalgOp);
        if (readsElsewhere || !startsFrom(linalgOp, *init) ||
            !coversOutput(linalgOp, *init) ||
            (zeroOnly && !isZero(value)) || initConstant(linalgOp, *init))
          return false;
        // One entry per output: the constant, or unit (read from memory).
        Builder b(op->getContext());
        SmallVector<Attribute> constants(linalgOp.getNumDpsInits(),
                                         b.getUnitAttr());
        if (auto old = op->getAttrOfType<ArrayAttr>(kInitConstantsAttrName))
          constants.assign(old.begin(), old.end());
        constants[init->getOperandNumber() - linalgOp.getNumDpsInputs()] =
            value;
        op->setAttr(kInitConstantsAttrName, b.getArrayAttr(constants));
        fill->erase();
        return true;
      }
    }
    if (isa<ViewLikeOpInterface>(op) && isPure(op))
      continue; // a view writes nothing
    // Effects on other buffers are fine (a linalg op's region is its
    // payload); control flow and unknown effects (calls, effects on no
    // particular value) are not.
    if (touches(op) || (op->getNumRegions() && !linalgOp) ||
        (!isMemoryEffectFree(op) && !isa<MemoryEffectOpInterface>(op)))
      return false;
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffects(list);
      for (const MemoryEffects::EffectInstance &e : list)
        if (!e.getValue() && isa<MemoryEffects::Read, MemoryEffects::Write>(
                                 e.getEffect()))
          return false;
    }
  }
  return false;
}

struct FoldFills : adjoint::impl::FoldFillsBase<FoldFills> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<mlir::gpu::LaunchOp, mlir::gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto fill = dyn_cast<linalg::FillOp>(op))
        fills.push_back(fill);
      return WalkResult::advance();
    });
    for (linalg::FillOp fill : fills)
      (void)fold(fill);
  }
};

} // namespace
