//===- ReductionConsumer.cpp - Elementwise consumers of row reductions ----===//

#include "ReductionConsumer.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace {

/// `map` without the results that index a unit dim of `shape` with the
/// constant 0: how a view that only adds unit dims is read.
SmallVector<AffineExpr> withoutUnitDims(AffineMap map,
                                        ArrayRef<int64_t> shape) {
  SmallVector<AffineExpr> kept;
  for (auto [expr, size] : llvm::zip(map.getResults(), shape)) {
    auto c = dyn_cast<AffineConstantExpr>(expr);
    if (size == 1 && c && c.getValue() == 0)
      continue;
    kept.push_back(expr);
  }
  return kept;
}

} // namespace

SmallVector<linalg::GenericOp>
adjoint::gpu::matchReductionEpilogues(linalg::GenericOp reduction) {
  SmallVector<linalg::GenericOp> epilogues;
  if (reduction.getNumDpsInits() != 1)
    return epilogues;
  OpOperand *init = reduction.getDpsInitOperand(0);
  Value result = init->get();
  // The result must be laid out as the parallel loops in order, so that
  // an identity map over those loops reads the same element.
  SmallVector<unsigned> parallel;
  SmallVector<int64_t> sizes, ranges = reduction.getStaticLoopRanges();
  for (auto [d, kind] : llvm::enumerate(reduction.getIteratorTypesArray()))
    if (kind == utils::IteratorType::parallel) {
      parallel.push_back(d);
      sizes.push_back(ranges[d]);
    }
  AffineMap resultMap = reduction.getMatchingIndexingMap(init);
  for (auto [expr, d] : llvm::zip_equal(resultMap.getResults(), parallel))
    if (cast<AffineDimExpr>(expr).getPosition() != d)
      return epilogues;
  for (Operation *next = reduction->getNextNode(); next;
       next = next->getNextNode()) {
    auto op = dyn_cast<linalg::GenericOp>(next);
    if (!op || op.getNumDpsInits() != 1 ||
        op.getDpsInitOperand(0)->get() != result ||
        op.getNumReductionLoops() != 0 ||
        op.getStaticLoopRanges() != sizes)
      break;
    bool inPlace = true;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue; // a scalar is the same everywhere
      inPlace &= operand.get() == result &&
                 op.getMatchingIndexingMap(&operand).isIdentity();
    }
    if (!inPlace)
      break;
    epilogues.push_back(op);
  }
  return epilogues;
}

FailureOr<adjoint::gpu::ReductionConsumer>
adjoint::gpu::matchReductionConsumer(linalg::GenericOp reduction,
                                     Operation *after) {
  if (reduction.getNumDpsInits() != 1)
    return failure();
  OpOperand *init = reduction.getDpsInitOperand(0);
  Value result = init->get();
  auto resultType = cast<MemRefType>(result.getType());
  SmallVector<AffineExpr> resultExprs = withoutUnitDims(
      reduction.getMatchingIndexingMap(init), resultType.getShape());

  // Views of the result (unit dims added or removed) and allocations may
  // sit between the two ops; anything else may read or write memory.
  llvm::SmallPtrSet<Value, 4> views{result};
  Operation *next = after->getNextNode();
  for (; next; next = next->getNextNode()) {
    if (isa<memref::AllocOp>(next) && next->getNumOperands() == 0)
      continue; // hoisted above the kernel by hoistAllocations
    if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(next) &&
        views.contains(next->getOperand(0))) {
      views.insert(next->getResult(0));
      continue;
    }
    break;
  }
  auto consumer = dyn_cast_or_null<linalg::GenericOp>(next);
  if (!consumer || !hasStaticMemrefOperands(consumer) ||
      consumer.getNumLoops() != reduction.getNumLoops() ||
      consumer.getNumReductionLoops() != 0 ||
      consumer.getStaticLoopRanges() != reduction.getStaticLoopRanges())
    return failure();

  ReductionConsumer c;
  c.op = consumer;
  bool readsAny = false;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    Value v = input->get();
    bool reads = views.contains(v);
    if (reads) {
      auto type = cast<MemRefType>(v.getType());
      if (withoutUnitDims(consumer.getMatchingIndexingMap(input),
                          type.getShape()) != resultExprs)
        return failure(); // reads the result elsewhere than its row
    }
    c.readsResult.push_back(reads);
    readsAny |= reads;
  }
  if (!readsAny)
    return failure();
  // The outputs are written while other work items still read the
  // reduction's operands: they must be fresh buffers distinct from those.
  for (OpOperand &out : consumer.getDpsInitsMutable()) {
    Value v = out.get();
    if (!v.getDefiningOp<memref::AllocOp>() || views.contains(v) ||
        llvm::is_contained(reduction->getOperands(), v) ||
        !consumer.getMatchingIndexingMap(&out).isPermutation())
      return failure();
    for (OpOperand *input : consumer.getDpsInputOperands())
      if (input->get() == v)
        return failure();
  }
  return c;
}

void adjoint::gpu::hoistAllocations(linalg::GenericOp reduction,
                                    const ReductionConsumer &consumer) {
  Operation *op = reduction->getNextNode();
  Operation *end = consumer.op;
  while (op && op != end) {
    Operation *next = op->getNextNode();
    if (isa<memref::AllocOp>(op))
      op->moveBefore(reduction);
    op = next;
  }
}
