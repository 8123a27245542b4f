//===- Matmul.cpp - Contractions to tiled GPU kernels ---------------------===//
//
// Any linalg contraction with one m, n and k loop (matmul, batch_matmul,
// their transposed forms written with indexing maps, generic contractions)
// becomes the tiled kernel of TiledGemm.h, reading A, B and C through the
// op's indexing maps. Where A, B and C have BLAS layouts, a GEMM record
// before the launch lets the runtime use a vendor library instead
// (GemmRecord.h). See Passes.td and docs/gpu-kernels.md.
//
//===----------------------------------------------------------------------===//

#include "GemmRecord.h"
#include "KernelBuilder.h"
#include "TiledGemm.h"

#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace adjoint {
#define GEN_PASS_DEF_MATMUL
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// Whether `dim` is the innermost index of `operand`.
bool isInnermost(linalg::LinalgOp op, OpOperand &operand, unsigned dim) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() == 0)
    return false;
  auto d = dyn_cast<AffineDimExpr>(map.getResults().back());
  return d && d.getPosition() == dim;
}

/// The problem of `op`, or failure when it is not a plain contraction
/// this kernel computes exactly.
FailureOr<GemmProblem> match(linalg::LinalgOp op, bool allowTf32) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !hasStaticMemrefOperands(op) || !linalg::isaContractionOpInterface(op))
    return failure();
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  if (!isa<Float16Type, Float32Type, Float64Type>(element))
    return failure();
  for (OpOperand *input : op.getDpsInputOperands())
    if (getElementTypeOrSelf(input->get()) != element ||
        !isa<MemRefType>(input->get().getType()))
      return failure(); // mixed precision has casts in the payload
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 ||
      dims->batch.size() + 3 != op.getNumLoops())
    return failure();
  // The payload must be out + a * b in that sense (not out - a * b, which
  // isaContractionOpInterface also accepts as a "contraction" body).
  Operation *yielded = op.getBlock()->getTerminator()->getOperand(0)
                           .getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp>(yielded))
    return failure();
  for (Value v : yielded->getOperands())
    if (auto *def = v.getDefiningOp(); def && !isa<arith::MulFOp>(def))
      return failure();

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<unsigned> batchDims(dims->batch.begin(), dims->batch.end());
  SmallVector<int64_t> batchSizes;
  GemmProblem p;
  for (unsigned d : batchDims) {
    batchSizes.push_back(ranges[d]);
    p.batch *= ranges[d];
  }
  p.m = ranges[m];
  p.n = ranges[n];
  p.k = ranges[k];
  p.element = element;
  OpOperand *a = op.getDpsInputOperand(0), *bOp = op.getDpsInputOperand(1);
  OpOperand *c = op.getDpsInitOperand(0);
  p.aKContiguous = isInnermost(op, *a, k);
  p.bKContiguous = isInnermost(op, *bOp, k);
  unsigned numLoops = op.getNumLoops();
  // Loop indices with the batch loops from the linear batch index; loops
  // the operand does not use are zero.
  auto point = [=](OpBuilder &b, Location loc, Value batch,
                   ArrayRef<std::pair<unsigned, Value>> set) {
    SmallVector<Value> idx(numLoops, indexConstant(b, loc, 0));
    SmallVector<Value> bs = delinearize(b, loc, batch, batchSizes);
    for (auto [d, v] : llvm::zip(batchDims, bs))
      idx[d] = v;
    for (auto [d, v] : set)
      idx[d] = v;
    return idx;
  };
  p.loadA = [=](OpBuilder &b, Location loc, Value batch, Value mi, Value ki) {
    return loadOperand(b, loc, op, *a, point(b, loc, batch, {{m, mi}, {k, ki}}));
  };
  p.loadB = [=](OpBuilder &b, Location loc, Value batch, Value ki, Value ni) {
    return loadOperand(b, loc, op, *bOp,
                       point(b, loc, batch, {{k, ki}, {n, ni}}));
  };
  AffineMap cMap = op.getMatchingIndexingMap(c);
  // C from its fill's zero (-adj-gpu-fold-fills) is the product alone.
  bool overwrite = initConstant(op, *c).has_value();
  p.accumulateC = [=](OpBuilder &b, Location loc, Value batch, Value mi,
                      Value ni, Value acc) {
    SmallVector<Value> at =
        applyMap(b, loc, cMap, point(b, loc, batch, {{m, mi}, {n, ni}}));
    Value sum = overwrite ? acc
                          : arith::AddFOp::create(
                                b, loc,
                                memref::LoadOp::create(b, loc, c->get(), at),
                                acc);
    memref::StoreOp::create(b, loc, sum, c->get(), at);
  };
  if (FailureOr<GemmRecord> record = gemmRecordOf(op, m, n, k, batchDims);
      succeeded(record)) {
    record->tf32 = allowTf32 && element.isF32();
    record->overwrite = overwrite;
    Value aValue = a->get(), bValue = bOp->get(), cValue = c->get();
    p.beforeLaunch = [=](OpBuilder &b, Location loc) {
      return emitGemmRecord(b, loc, *record, aValue, bValue, cValue);
    };
  }
  return p;
}

struct MatmulPass : adjoint::impl::MatmulBase<MatmulPass> {
  using MatmulBase::MatmulBase;

  void runOnOperation() override {
    GemmTiles tiles{tileM, tileN, tileK, threadM, threadN};
    auto matchOp = [&](Operation *op) -> FailureOr<GemmProblem> {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp)
        return failure();
      return match(linalgOp, allowTf32);
    };
    if (failed(replaceWithTiledGemm(getOperation(), tiles, getArgument(),
                                    matchOp)))
      signalPassFailure();
  }
};

} // namespace
