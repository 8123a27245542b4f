//===- Reductions.cpp - Reductions to cooperative GPU kernels -------------===//
//
// Row reductions: a workgroup per output element, strided serial partials,
// a shuffle butterfly per subgroup, subgroup partials through workgroup
// memory. Column reductions (and short rows): 32 outputs per workgroup, the
// reduction of each split over slices that meet in workgroup memory. See
// Passes.td and docs/gpu-kernels.md.
//
//===----------------------------------------------------------------------===//

#include "Combiners.h"
#include "KernelBuilder.h"
#include "ReductionConsumer.h"

#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "llvm/Support/MathExtras.h"

namespace adjoint {
#define GEN_PASS_DEF_REDUCTIONS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// A matched reduction: which loops are parallel and which reduce.
struct Reduction {
  mutable linalg::GenericOp op; // op accessors are not const
  SmallVector<utils::IteratorType> iterators;
  bool isParallel(unsigned dim) const {
    return iterators[dim] == utils::IteratorType::parallel;
  }
  SmallVector<Combiner> combiners;
  SmallVector<unsigned> parallelDims, reductionDims;
  SmallVector<int64_t> parallelSizes, reductionSizes;
  int64_t parallelCount = 1, reductionCount = 1;
};

FailureOr<Reduction> match(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0 || !hasStaticMemrefOperands(op))
    return failure();
  Reduction r;
  r.op = op;
  r.iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (auto [dim, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool parallel = kind == utils::IteratorType::parallel;
    (parallel ? r.parallelDims : r.reductionDims).push_back(dim);
    (parallel ? r.parallelSizes : r.reductionSizes).push_back(ranges[dim]);
    (parallel ? r.parallelCount : r.reductionCount) *= ranges[dim];
  }
  if (r.parallelCount == 0 || r.reductionCount == 0)
    return failure(); // nothing to launch; the naive mapping handles it
  // Every output element must belong to exactly one work item or group:
  // outputs indexed by all parallel loops, each once.
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation() ||
        map.getNumResults() != r.parallelDims.size())
      return failure();
    for (AffineExpr e : map.getResults())
      if (!r.isParallel(cast<AffineDimExpr>(e).getPosition()))
        return failure();
  }
  FailureOr<SmallVector<Combiner>> combiners = matchCombiners(op);
  if (failed(combiners))
    return failure();
  r.combiners = std::move(*combiners);
  return r;
}

/// Loop indices in loop order from the parallel and reduction coordinates.
SmallVector<Value> loopIndices(const Reduction &r, ValueRange parallel,
                               ValueRange reduction) {
  SmallVector<Value> indices(r.parallelDims.size() + r.reductionDims.size());
  for (auto [dim, v] : llvm::zip(r.parallelDims, parallel))
    indices[dim] = v;
  for (auto [dim, v] : llvm::zip(r.reductionDims, reduction))
    indices[dim] = v;
  return indices;
}

/// The payload at one loop point, with `accumulators` as the outputs.
SmallVector<Value> step(OpBuilder &b, Location loc, const Reduction &r,
                        ValueRange indices, ValueRange accumulators) {
  SmallVector<Value> args;
  for (OpOperand *input : r.op.getDpsInputOperands())
    args.push_back(loadOperand(b, loc, r.op, *input, indices));
  llvm::append_range(args, accumulators);
  return applyPayload(b, r.op, args, indices);
}

/// Work item `tid` of `workgroupSize` combines elements tid, tid + size,
/// ... of the row (none where `active` is false). The trip count is the same for every work item (the
/// last step is guarded): Intel's OpenCL CPU compiler miscomputed shuffles
/// after a loop that some lanes of a subgroup never entered.
SmallVector<Value> stridedReduce(OpBuilder &b, Location loc,
                                 const Reduction &r, ValueRange parallel,
                                 Value tid, int64_t workgroupSize,
                                 ValueRange init, Value active = nullptr) {
  int64_t trips = llvm::divideCeil(r.reductionCount, workgroupSize);
  Value count = indexConstant(b, loc, r.reductionCount);
  Value size = indexConstant(b, loc, workgroupSize);
  bool exact = r.reductionCount % workgroupSize == 0;
  auto loop = scf::ForOp::create(
      b, loc, indexConstant(b, loc, 0), indexConstant(b, loc, trips),
      indexConstant(b, loc, 1), init,
      [&](OpBuilder &nb, Location nloc, Value trip, ValueRange accs) {
        Value iv = arith::AddIOp::create(
            nb, nloc, arith::MulIOp::create(nb, nloc, trip, size), tid);
        auto body = [&](OpBuilder &bb) {
          SmallVector<Value> red =
              delinearize(bb, nloc, iv, r.reductionSizes);
          return step(bb, nloc, r, loopIndices(r, parallel, red), accs);
        };
        if (exact && !active) {
          scf::YieldOp::create(nb, nloc, body(nb));
          return;
        }
        Value inRange = exact ? Value() : lessThan(nb, nloc, iv, count);
        Value cond = !inRange ? active
                     : !active
                         ? inRange
                         : Value(arith::AndIOp::create(nb, nloc, inRange,
                                                       active));
        auto ifOp = scf::IfOp::create(nb, nloc, accs.getTypes(), cond, true);
        {
          OpBuilder::InsertionGuard guard(nb);
          nb.setInsertionPointToStart(ifOp.thenBlock());
          scf::YieldOp::create(nb, nloc, body(nb));
          nb.setInsertionPointToStart(ifOp.elseBlock());
          scf::YieldOp::create(nb, nloc, accs);
        }
        scf::YieldOp::create(nb, nloc, ifOp.getResults());
      });
  return SmallVector<Value>(loop.getResults());
}

/// `acc` combined over the subgroup with a shuffle-xor butterfly: every lane
/// ends with the subgroup's result.
Value subgroupReduce(OpBuilder &b, Location loc, const Combiner &c, Value acc,
                     int64_t subgroupSize) {
  for (int64_t offset = subgroupSize / 2; offset >= 1; offset /= 2) {
    Value other = mlir::gpu::ShuffleOp::create(
                      b, loc, acc, static_cast<int32_t>(offset),
                      static_cast<int32_t>(subgroupSize),
                      mlir::gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    acc = c.combine(b, other, acc);
  }
  return acc;
}

/// out[p] = combine(out[p], acc) for every output.
void writeOutputs(OpBuilder &b, Location loc, const Reduction &r,
                  ValueRange parallel, ValueRange accs, bool combineOld) {
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> reductionZeros(r.reductionDims.size(), zero);
  SmallVector<Value> indices = loopIndices(r, parallel, reductionZeros);
  for (auto [k, init] : llvm::enumerate(r.op.getDpsInitsMutable())) {
    SmallVector<Value> at =
        applyMap(b, loc, r.op.getMatchingIndexingMap(&init), indices);
    Value result = accs[k];
    if (combineOld) {
      Value old = loadInit(b, loc, r.op, init, at);
      result = r.combiners[k].combine(b, result, old);
    }
    memref::StoreOp::create(b, loc, result, init.get(), at);
  }
}

/// The consumer's payload at every point of the row, work item `tid`
/// taking every `workgroupSize`-th, with `result` for the inputs that read
/// the reduction's result.
void emitRowConsumer(OpBuilder &b, Location loc, const Reduction &r,
                     const ReductionConsumer &consumer, ValueRange parallel,
                     Value tid, int64_t workgroupSize, Value result) {
  linalg::GenericOp op = consumer.op;
  int64_t trips = llvm::divideCeil(r.reductionCount, workgroupSize);
  Value size = indexConstant(b, loc, workgroupSize);
  Value count = indexConstant(b, loc, r.reductionCount);
  scf::ForOp::create(
      b, loc, indexConstant(b, loc, 0), indexConstant(b, loc, trips),
      indexConstant(b, loc, 1), ValueRange{},
      [&](OpBuilder &nb, Location nloc, Value trip, ValueRange) {
        Value iv = arith::AddIOp::create(
            nb, nloc, arith::MulIOp::create(nb, nloc, trip, size), tid);
        emitIf(nb, nloc, lessThan(nb, nloc, iv, count), [&](OpBuilder &tb) {
          SmallVector<Value> red =
              delinearize(tb, nloc, iv, r.reductionSizes);
          SmallVector<Value> indices = loopIndices(r, parallel, red);
          SmallVector<Value> args;
          for (auto [input, reads] :
               llvm::zip(op.getDpsInputOperands(), consumer.readsResult))
            args.push_back(reads ? result
                                 : loadOperand(tb, nloc, op, *input, indices));
          for (OpOperand &out : op.getDpsInitsMutable())
            args.push_back(op.getMatchingBlockArgument(&out).use_empty()
                               ? Value(arith::ConstantOp::create(
                                     tb, nloc,
                                     tb.getZeroAttr(getElementTypeOrSelf(
                                         out.get().getType()))))
                               : loadOperand(tb, nloc, op, out, indices));
          SmallVector<Value> yielded = applyPayload(tb, op, args, indices);
          for (auto [out, v] : llvm::zip(op.getDpsInitsMutable(), yielded))
            memref::StoreOp::create(
                tb, nloc, v, out.get(),
                applyMap(tb, nloc, op.getMatchingIndexingMap(&out), indices));
        });
        scf::YieldOp::create(nb, nloc);
      });
}

/// A workgroup per output element.
void emitRowKernel(OpBuilder &b, Location loc, const Reduction &r,
                   int64_t subgroupSize, int64_t workgroupSize,
                   ArrayRef<linalg::GenericOp> epilogues,
                   const ReductionConsumer *consumer) {
  int64_t numSubgroups = workgroupSize / subgroupSize;
  SmallVector<MemRefType> partials;
  if (numSubgroups > 1)
    for (OpOperand &init : r.op.getDpsInitsMutable())
      partials.push_back(workgroupBuffer(
          {numSubgroups}, getElementTypeOrSelf(init.get().getType())));
  LaunchShape shape;
  shape.grid[0] = r.parallelCount;
  shape.block[0] = workgroupSize;
  mlir::gpu::LaunchOp launch = createLaunch(b, loc, shape, partials);
  launch->setAttr("adj.subgroup_size", b.getI64IntegerAttr(subgroupSize));

  Value tid = launch.getThreadIds().x;
  SmallVector<Value> parallel =
      delinearize(b, loc, launch.getBlockIds().x, r.parallelSizes);
  SmallVector<Value> identities;
  for (const Combiner &c : r.combiners)
    identities.push_back(arith::ConstantOp::create(b, loc, c.identity));
  SmallVector<Value> accs =
      stridedReduce(b, loc, r, parallel, tid, workgroupSize, identities);
  for (auto [k, c] : llvm::enumerate(r.combiners))
    accs[k] = subgroupReduce(b, loc, c, accs[k], subgroupSize);

  if (numSubgroups > 1) {
    Value sgSize = indexConstant(b, loc, subgroupSize);
    Value lane = arith::RemUIOp::create(b, loc, tid, sgSize);
    Value subgroup = arith::DivUIOp::create(b, loc, tid, sgSize);
    Value zero = indexConstant(b, loc, 0);
    Value leader =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
    auto buffers = launch.getWorkgroupAttributions();
    emitIf(b, loc, leader, [&](OpBuilder &tb) {
      for (auto [acc, buffer] : llvm::zip(accs, buffers))
        memref::StoreOp::create(tb, loc, acc, buffer, subgroup);
    });
    barrier(b, loc);
    // Every subgroup combines the partials (only lane 0 of the workgroup
    // writes): no divergent shuffles, and numSubgroups <= subgroupSize.
    Value count = indexConstant(b, loc, numSubgroups);
    Value has = lessThan(b, loc, lane, count);
    Value last = indexConstant(b, loc, numSubgroups - 1);
    Value slot = arith::MinUIOp::create(b, loc, lane, last);
    for (auto [k, c] : llvm::enumerate(r.combiners)) {
      Value partial = memref::LoadOp::create(b, loc, buffers[k], slot);
      Value v = arith::SelectOp::create(b, loc, has, partial, identities[k]);
      accs[k] = subgroupReduce(b, loc, c, v, subgroupSize);
    }
  }
  // Intel's CPU OpenCL runtime (2026.2) miscompiles a workgroup of one
  // subgroup that stores a butterfly's result from lane 0 only: the stored
  // value is garbage (docs/gpu-kernels.md). The workgroup barrier that
  // several subgroups need anyway keeps it right here too, at the cost of
  // one barrier per row.
  if (numSubgroups == 1)
    barrier(b, loc);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                      indexConstant(b, loc, 0));
  if (!consumer && epilogues.empty()) {
    emitIf(b, loc, first, [&](OpBuilder &tb) {
      writeOutputs(tb, loc, r, parallel, accs, /*combineOld=*/true);
    });
    return;
  }
  // Every work item needs the row's result for the consumer: all read the
  // initial value before work item 0 overwrites it.
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> zeros(r.reductionDims.size(), zero);
  SmallVector<Value> rowStart = loopIndices(r, parallel, zeros);
  SmallVector<Value> results;
  for (auto [k, init] : llvm::enumerate(r.op.getDpsInitsMutable())) {
    Value old = loadOperand(b, loc, r.op, init, rowStart);
    results.push_back(r.combiners[k].combine(b, accs[k], old));
  }
  // Epilogues read and write only the result (and scalars).
  for (linalg::GenericOp epilogue : epilogues) {
    SmallVector<Value> args;
    for (OpOperand &operand : epilogue->getOpOperands())
      args.push_back(isa<MemRefType>(operand.get().getType())
                         ? results.front()
                         : operand.get());
    results.front() = applyPayload(b, epilogue, args, parallel).front();
  }
  barrier(b, loc);
  emitIf(b, loc, first, [&](OpBuilder &tb) {
    writeOutputs(tb, loc, r, parallel, results, /*combineOld=*/false);
  });
  if (consumer)
    emitRowConsumer(b, loc, r, *consumer, parallel, tid, workgroupSize,
                    results.front());
}

/// Work items per workgroup along the outputs of a column reduction:
/// enough adjacent outputs for full 128-byte reads of each input row.
constexpr int64_t kColumnsPerWorkgroup = 32;

/// Column reductions and short rows: workgroup (x, y) = (output, slice of
/// the reduction). Work item (x, y) combines reduction elements y, y + Y,
/// ... of output x; slice partials meet in workgroup memory and work item
/// (x, 0) combines them into out[x].
void emitColumnKernel(OpBuilder &b, Location loc, const Reduction &r,
                      int64_t workgroupSize) {
  int64_t cols = std::min(r.parallelCount, kColumnsPerWorkgroup);
  int64_t slices =
      std::max<int64_t>(1, std::min(workgroupSize / cols, r.reductionCount));
  SmallVector<MemRefType> partials;
  if (slices > 1)
    for (OpOperand &init : r.op.getDpsInitsMutable())
      partials.push_back(workgroupBuffer(
          {slices, cols}, getElementTypeOrSelf(init.get().getType())));
  LaunchShape shape;
  shape.grid[0] = llvm::divideCeil(r.parallelCount, cols);
  shape.block = {cols, slices, 1};
  mlir::gpu::LaunchOp launch = createLaunch(b, loc, shape, partials);
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  Value linear = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            indexConstant(b, loc, cols)),
      tx);
  Value active =
      r.parallelCount % cols == 0
          ? Value()
          : lessThan(b, loc, linear, indexConstant(b, loc, r.parallelCount));
  SmallVector<Value> parallel = delinearize(b, loc, linear, r.parallelSizes);
  SmallVector<Value> identities;
  for (const Combiner &c : r.combiners)
    identities.push_back(arith::ConstantOp::create(b, loc, c.identity));
  SmallVector<Value> accs = stridedReduce(b, loc, r, parallel, ty, slices,
                                          identities, active);
  Value zero = indexConstant(b, loc, 0);
  Value writer = active;
  if (slices > 1) {
    auto buffers = launch.getWorkgroupAttributions();
    for (auto [acc, buffer] : llvm::zip(accs, buffers))
      memref::StoreOp::create(b, loc, acc, buffer, ValueRange{ty, tx});
    barrier(b, loc);
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ty, zero);
    writer = active ? Value(arith::AndIOp::create(b, loc, first, active))
                    : first;
    auto combineSlices = [&](OpBuilder &tb) {
      auto loop = scf::ForOp::create(
          tb, loc, zero, indexConstant(tb, loc, slices),
          indexConstant(tb, loc, 1), identities,
          [&](OpBuilder &lb, Location l, Value j, ValueRange sums) {
            SmallVector<Value> next;
            for (auto [k, c] : llvm::enumerate(r.combiners)) {
              Value part = memref::LoadOp::create(lb, l, buffers[k],
                                                  ValueRange{j, tx});
              next.push_back(c.combine(lb, part, sums[k]));
            }
            scf::YieldOp::create(lb, l, next);
          });
      writeOutputs(tb, loc, r, parallel, loop.getResults(),
                   /*combineOld=*/true);
    };
    emitIf(b, loc, writer, combineSlices);
    return;
  }
  if (!writer) {
    writeOutputs(b, loc, r, parallel, accs, /*combineOld=*/true);
    return;
  }
  emitIf(b, loc, writer, [&](OpBuilder &tb) {
    writeOutputs(tb, loc, r, parallel, accs, /*combineOld=*/true);
  });
}

/// Rows when the first input's innermost dim is reduced and a row has at
/// least a subgroup of elements; otherwise columns.
bool isRowReduction(const Reduction &r, int64_t subgroupSize) {
  if (r.reductionCount < subgroupSize)
    return false;
  for (OpOperand *input : r.op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || type.getRank() == 0)
      continue;
    AffineExpr inner = r.op.getMatchingIndexingMap(input).getResults().back();
    auto dim = dyn_cast<AffineDimExpr>(inner);
    return dim && !r.isParallel(dim.getPosition());
  }
  return true;
}

struct ReductionsPass
    : adjoint::impl::ReductionsBase<ReductionsPass> {
  using ReductionsBase::ReductionsBase;

  void runOnOperation() override {
    if (subgroupSize < 1 || !llvm::isPowerOf2_64(subgroupSize) ||
        workgroupSize < subgroupSize || workgroupSize % subgroupSize != 0 ||
        workgroupSize > subgroupSize * subgroupSize) {
      getOperation().emitError()
          << "-adj-gpu-reductions: subgroup-size must be a power of two and "
             "workgroup-size a multiple of it, at most its square (got "
          << static_cast<int64_t>(subgroupSize) << " and "
          << static_cast<int64_t>(workgroupSize) << ")";
      return signalPassFailure();
    }
    // linalg.reduce is a generic in disguise: generalized, it takes the
    // same kernels (and, unmatched, the same naive mapping later).
    SmallVector<linalg::ReduceOp> named;
    getOperation().walk([&](linalg::ReduceOp op) {
      if (!op->getParentOfType<mlir::gpu::LaunchOp>() &&
          op.hasPureBufferSemantics())
        named.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::ReduceOp op : named) {
      rewriter.setInsertionPoint(op);
      // The generic keeps the starting constants of -adj-gpu-fold-fills
      // (generalization drops discardable attributes).
      Attribute starts = op->getAttr(kInitConstantsAttrName);
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, op);
      if (succeeded(generic) && starts)
        (*generic)->setAttr(kInitConstantsAttrName, starts);
    }
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) {
      if (!op->getParentOfType<mlir::gpu::LaunchOp>())
        ops.push_back(op);
    });
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (linalg::GenericOp op : ops) {
      if (fused.contains(op))
        continue; // erased: it runs in its reduction's kernel
      FailureOr<Reduction> r = match(op);
      if (failed(r))
        continue;
      OpBuilder b(op);
      if (isRowReduction(*r, subgroupSize)) {
        // No more work items than a row has elements, in whole subgroups.
        int64_t wg = std::min<int64_t>(
            workgroupSize, llvm::alignTo(r->reductionCount, subgroupSize));
        SmallVector<linalg::GenericOp> epilogues;
        FailureOr<ReductionConsumer> consumer = failure();
        if (fuseConsumers) {
          epilogues = matchReductionEpilogues(op);
          Operation *last =
              epilogues.empty() ? op.getOperation() : epilogues.back();
          consumer = matchReductionConsumer(op, last);
        }
        if (succeeded(consumer))
          hoistAllocations(op, *consumer);
        emitRowKernel(b, op.getLoc(), *r, subgroupSize, wg, epilogues,
                      succeeded(consumer) ? &*consumer : nullptr);
        for (linalg::GenericOp epilogue : epilogues) {
          fused.insert(epilogue);
          epilogue.erase();
        }
        if (succeeded(consumer)) {
          fused.insert(consumer->op);
          consumer->op.erase();
        }
      } else {
        emitColumnKernel(b, op.getLoc(), *r, workgroupSize);
      }
      op.erase();
    }
  }
};

} // namespace
