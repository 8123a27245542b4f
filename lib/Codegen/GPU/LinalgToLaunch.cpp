//===- LinalgToLaunch.cpp - One linalg op -> one gpu.launch ---------------===//

#include "LinalgToLaunch.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {

Value indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The indices `map` gives at loop position `ivs`. Plain dimensions and
/// constants need no affine.apply; -lower-affine expands the rest (strided
/// convolution windows, say).
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      indices.push_back(ivs[dim.getPosition()]);
    else if (auto cst = dyn_cast<AffineConstantExpr>(expr))
      indices.push_back(indexConstant(b, loc, cst.getValue()));
    else
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

/// Emits the payload of `op` at loop position `ivs` with the outputs'
/// current values `outs` (null where the payload does not read them) and
/// returns the values it yields.
SmallVector<Value> emitPayload(OpBuilder &b, Location loc,
                               linalg::LinalgOp op, ArrayRef<Value> ivs,
                               ArrayRef<Value> outs,
                               ArrayRef<adjoint::gpu::PaddedOperand> padded) {
  Block *body = op.getBlock();
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    if (arg.use_empty())
      continue;
    Value value = input->get();
    if (isa<MemRefType>(value.getType()))
      value = adjoint::gpu::loadThroughPadding(
          b, loc, padded, value,
          applyMap(b, loc, op.getMatchingIndexingMap(input), ivs));
    mapping.map(arg, value);
  }
  for (auto [init, out] : llvm::zip(op.getDpsInitsMutable(), outs))
    if (out)
      mapping.map(op.getMatchingBlockArgument(&init), out);
  SmallVector<Value> yielded;
  for (Operation &inner : body->getOperations()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    if (auto yield = dyn_cast<linalg::YieldOp>(inner)) {
      for (Value v : yield.getValues())
        yielded.push_back(mapping.lookupOrDefault(v));
      continue;
    }
    b.clone(inner, mapping);
  }
  return yielded;
}

/// The reduction loops `dims[k...]` around the payload, carrying the
/// outputs' values; returns their final values.
SmallVector<Value> emitReductionNest(OpBuilder &b, Location loc,
                                     linalg::LinalgOp op,
                                     ArrayRef<int64_t> ranges,
                                     ArrayRef<unsigned> dims, size_t k,
                                     SmallVector<Value> &ivs,
                                     ValueRange accs,
                                     ArrayRef<adjoint::gpu::PaddedOperand>
                                         padded) {
  if (k == dims.size())
    return emitPayload(b, loc, op, ivs, SmallVector<Value>(accs), padded);
  Value lb = indexConstant(b, loc, 0);
  Value ub = indexConstant(b, loc, ranges[dims[k]]);
  Value step = indexConstant(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, step, accs,
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange iterArgs) {
        ivs[dims[k]] = iv;
        SmallVector<Value> next =
            emitReductionNest(nb, nloc, op, ranges, dims, k + 1, ivs,
                              iterArgs, padded);
        scf::YieldOp::create(nb, nloc, next);
      });
  return SmallVector<Value>(loop.getResults());
}

} // namespace

bool adjoint::gpu::isContiguous(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() &&
         memref::isStaticShapeAndContiguousRowMajor(memref);
}

FailureOr<mlir::gpu::LaunchOp>
adjoint::gpu::mapLinalgOpToLaunch(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t workgroupSize,
                                  ArrayRef<PaddedOperand> padded) {
  Location loc = op.getLoc();
  if (!op.hasPureBufferSemantics())
    return op.emitError("GPU kernels need linalg ops on buffers "
                        "(bufferize first)");
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return op.emitError("GPU kernels need static shapes");
  if (workgroupSize <= 0)
    return op.emitError("the workgroup size must be positive");

  SmallVector<unsigned> parallel, reduction;
  for (auto [dim, kind] : llvm::enumerate(op.getIteratorTypesArray()))
    (kind == utils::IteratorType::parallel ? parallel : reduction)
        .push_back(dim);
  int64_t items = 1;
  for (unsigned dim : parallel)
    items *= ranges[dim];
  if (items == 0) {
    rewriter.eraseOp(op);
    return mlir::gpu::LaunchOp();
  }
  int64_t block = std::min(workgroupSize, items);
  int64_t grid = (items + block - 1) / block;

  rewriter.setInsertionPoint(op);
  Value one = indexConstant(rewriter, loc, 1);
  auto launch = mlir::gpu::LaunchOp::create(
      rewriter, loc, indexConstant(rewriter, loc, grid), one, one,
      indexConstant(rewriter, loc, block), one, one);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  mlir::gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPointToStart(&launch.getBody().front());

  Value item = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            indexConstant(rewriter, loc, block)),
      launch.getThreadIds().x);
  Value inRange =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, item,
                            indexConstant(rewriter, loc, items));
  auto guardIf = scf::IfOp::create(rewriter, loc, inRange,
                                   /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(&guardIf.getThenRegion().front());

  // Row-major delinearization: the last parallel dimension varies fastest,
  // so consecutive work items touch consecutive elements (coalesced).
  SmallVector<Value> ivs(ranges.size());
  int64_t stride = 1;
  for (unsigned dim : llvm::reverse(parallel)) {
    Value pos = stride == 1 ? item
                            : arith::DivUIOp::create(
                                  rewriter, loc, item,
                                  indexConstant(rewriter, loc, stride));
    if (stride * ranges[dim] != items)
      pos = arith::RemUIOp::create(rewriter, loc, pos,
                                   indexConstant(rewriter, loc, ranges[dim]));
    ivs[dim] = pos;
    stride *= ranges[dim];
  }
  // Output maps use parallel dimensions only; placeholders stand for the
  // reduction dimensions until their loops exist.
  Value zero = reduction.empty() ? Value() : indexConstant(rewriter, loc, 0);
  for (unsigned dim : reduction)
    ivs[dim] = zero;

  SmallVector<Value> outs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    bool read = !reduction.empty() ||
                !op.getMatchingBlockArgument(&init).use_empty();
    outs.push_back(read ? adjoint::gpu::loadOperand(rewriter, loc, op, init,
                                                    ivs)
                        : Value());
  }
  SmallVector<Value> results =
      reduction.empty()
          ? emitPayload(rewriter, loc, op, ivs, outs, padded)
          : emitReductionNest(rewriter, loc, op, ranges, reduction, 0, ivs,
                              outs, padded);
  for (unsigned dim : reduction)
    ivs[dim] = zero;
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), results))
    memref::StoreOp::create(
        rewriter, loc, value, init.get(),
        applyMap(rewriter, loc, op.getMatchingIndexingMap(&init), ivs));
  rewriter.eraseOp(op);
  return launch;
}
