//===- Scatters.cpp - Scatter loops on buffers -> one kernel --------------===//
//
// adj.scatter_add and adj.scatter become, on every target, a sequential
// scf.for over the index positions that combines one row of updates per
// step (AdjToLinalg/Movement.cpp): the interpreter's order. On a GPU that
// loop would stay on the host and read each index from device memory and
// launch one row kernel per position: bert's embedding gradient is 16384
// reads and launches per step, and no graph can hold it. This pass makes
// each such loop (and the loop over the leading dimensions around it) one
// kernel:
//
//  - with atomics (CUDA, HIP; sums only: addf, addi), one work item per
//    (leading, position, column) element adds its update into the target
//    with memref.atomic_rmw: fully parallel, and a float sum's order is
//    the hardware's, as in XLA's and torch's GPU scatters;
//  - otherwise (every combine, every target), one work item per (leading,
//    column) element walks the positions in order: the same results, bit
//    for bit, as the sequential loop.
//
// The loops are the ones -adj-to-linalg tagged (kScatterLoopAttrName) with
// the whole structure it made, after bufferization; anything else is left
// alone:
//
//   scf.for %j = 0 to count step 1 {          // no results
//     <index arithmetic: memref.load of the indices, casts, clamps>
//     %row = memref.subview %target[...]      // views
//     %upd = memref.subview %updates[...]
//     linalg.generic ins(%upd) outs(%row)     // 1-D, identity maps
//       { combine(%out, %in) }
//   }
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/Common/ViewRoot.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace adjoint {
#define GEN_PASS_DEF_SCATTERS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// A recognized scatter loop: the loop over positions, the loop over the
/// leading dimensions around it (null when there is none), and the row
/// combine: a linalg.generic, or a memref.copy where the update replaces
/// the row (adj.scatter's `set`, canonicalized).
struct ScatterLoop {
  scf::ForOp positions;
  scf::ForOp leading;
  Operation *combine = nullptr;
  Value updateRow, targetRow;
  int64_t count = 0;
  int64_t outer = 1;
  int64_t inner = 0;
};

/// `lb` is 0, `step` 1 and `ub` constant: the trip count, or -1.
int64_t tripCount(scf::ForOp loop) {
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto step = getConstantIntValue(loop.getStep());
  auto ub = getConstantIntValue(loop.getUpperBound());
  if (!lb || !step || !ub || *lb != 0 || *step != 1 || loop.getNumResults())
    return -1;
  return *ub;
}

/// A row combine that replaces the row: a copy between two views.
bool isRowCopy(Operation &op) {
  auto copy = dyn_cast<memref::CopyOp>(op);
  return copy && copy.getSource().getDefiningOp<memref::SubViewOp>() &&
         copy.getTarget().getDefiningOp<memref::SubViewOp>() &&
         cast<MemRefType>(copy.getTarget().getType()).getRank() == 1;
}

/// The row combine of a scatter loop body: a 1-D generic with identity
/// maps, one input and one output, both views made in the body.
linalg::GenericOp rowCombine(Operation &op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || generic.getNumLoops() != 1 ||
      generic.getIteratorTypesArray().front() != utils::IteratorType::parallel ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }) ||
      !generic.hasPureBufferSemantics())
    return {};
  for (OpOperand *operand : generic.getDpsInputOperands())
    if (!operand->get().getDefiningOp<memref::SubViewOp>())
      return {};
  if (!generic.getDpsInits()[0].getDefiningOp<memref::SubViewOp>())
    return {};
  // The payload reads nothing but its two arguments (and constants).
  Block *payload = generic.getBlock();
  for (Operation &inner : payload->without_terminator()) {
    if (!isPure(&inner) || isa<linalg::IndexOp>(inner))
      return {};
    for (Value operand : inner.getOperands())
      if (operand.getParentBlock() != payload &&
          !matchPattern(operand, m_Constant()))
        return {};
  }
  return generic;
}

std::optional<ScatterLoop> recognize(scf::ForOp loop) {
  if (!loop->hasAttr(adjoint::kScatterLoopAttrName))
    return std::nullopt;
  ScatterLoop s;
  s.positions = loop;
  s.count = tripCount(loop);
  if (s.count <= 0)
    return std::nullopt;
  Block *body = loop.getBody();
  // Index arithmetic and views, then the combine, then the yield.
  Operation *last = body->getTerminator()->getPrevNode();
  if (!last)
    return std::nullopt;
  if (linalg::GenericOp generic = rowCombine(*last)) {
    s.updateRow = generic.getDpsInputs()[0];
    s.targetRow = generic.getDpsInits()[0];
  } else if (isRowCopy(*last)) {
    s.updateRow = cast<memref::CopyOp>(last).getSource();
    s.targetRow = cast<memref::CopyOp>(last).getTarget();
  } else {
    return std::nullopt;
  }
  s.combine = last;
  // The rows are views made in the body; nothing the body reads (indices,
  // updates) is the target's memory, which the kernel writes while other
  // work items read.
  for (Value row : {s.updateRow, s.targetRow})
    if (row.getDefiningOp()->getBlock() != body)
      return std::nullopt;
  Value target = adjoint::viewRoot(s.targetRow);
  if (adjoint::viewRoot(s.updateRow) == target)
    return std::nullopt;
  for (Operation &op : body->without_terminator()) {
    if (&op == last)
      break;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (adjoint::viewRoot(load.getMemRef()) == target)
        return std::nullopt;
      continue;
    }
    if (isa<memref::SubViewOp>(op))
      continue;
    if (!isPure(&op) || op.getNumRegions())
      return std::nullopt;
  }
  auto rowType = cast<MemRefType>(s.targetRow.getType());
  if (!rowType.hasStaticShape())
    return std::nullopt;
  s.inner = rowType.getNumElements();
  // The loop over the leading dimensions: it holds this loop and nothing
  // else.
  if (auto parent = dyn_cast<scf::ForOp>(loop->getParentOp());
      parent && parent->hasAttr(adjoint::kScatterLoopAttrName) &&
      &parent.getBody()->front() == loop.getOperation() &&
      loop->getNextNode() == parent.getBody()->getTerminator()) {
    int64_t outer = tripCount(parent);
    if (outer > 0) {
      s.leading = parent;
      s.outer = outer;
    }
  }
  return s;
}

/// The atomic kind of a combine that only sums: `out + in`.
std::optional<arith::AtomicRMWKind> atomicSum(Operation *op) {
  auto combine = dyn_cast<linalg::GenericOp>(op);
  if (!combine)
    return std::nullopt;
  Block *body = combine.getBlock();
  if (body->getOperations().size() != 2)
    return std::nullopt;
  Operation &sum = body->front();
  Value in = body->getArgument(0), out = body->getArgument(1);
  auto sums = [&](Operation &o) {
    return o.getNumOperands() == 2 &&
           ((o.getOperand(0) == out && o.getOperand(1) == in) ||
            (o.getOperand(0) == in && o.getOperand(1) == out)) &&
           body->getTerminator()->getOperand(0) == o.getResult(0);
  };
  if (isa<arith::AddFOp>(sum) && sums(sum))
    return arith::AtomicRMWKind::addf;
  if (isa<arith::AddIOp>(sum) && sums(sum))
    return arith::AtomicRMWKind::addi;
  return std::nullopt;
}

/// The kernel of `s`: its work items, delinearized, index the loops; the
/// body's index arithmetic and views are cloned for them.
void emitKernel(IRRewriter &rewriter, ScatterLoop s, bool atomics,
                int64_t workgroupSize) {
  std::optional<arith::AtomicRMWKind> kind =
      atomics ? atomicSum(s.combine) : std::nullopt;
  Operation *root = s.leading ? s.leading.getOperation()
                              : s.positions.getOperation();
  Location loc = root->getLoc();
  // Parallel dimensions: (leading, position, column) with atomics, else
  // (leading, column).
  SmallVector<int64_t> sizes = {s.outer};
  if (kind)
    sizes.push_back(s.count);
  sizes.push_back(s.inner);
  int64_t items = 1;
  for (int64_t n : sizes)
    items *= n;
  if (items == 0)
    return; // recognize() takes only loops with work; kept as they are
  int64_t block = std::min(workgroupSize, items);
  rewriter.setInsertionPoint(root);
  LaunchShape shape;
  shape.grid[0] = (items + block - 1) / block;
  shape.block[0] = block;
  mlir::gpu::LaunchOp launch = createLaunch(rewriter, loc, shape);
  Value item = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x,
                            indexConstant(rewriter, loc, block)),
      launch.getThreadIds().x);
  emitIf(rewriter, loc, lessThan(rewriter, loc, item,
                                 indexConstant(rewriter, loc, items)),
         [&](OpBuilder &b) {
           SmallVector<Value> coords = delinearize(b, loc, item, sizes);
           Value column = coords.back();
           auto element = [&](Value position) {
             // The body's index arithmetic and views at this position.
             IRMapping map;
             if (s.leading)
               map.map(s.leading.getInductionVar(), coords[0]);
             map.map(s.positions.getInductionVar(), position);
             for (Operation &op : s.positions.getBody()->without_terminator())
               if (&op != s.combine)
                 b.clone(op, map);
             Value update = memref::LoadOp::create(
                 b, loc, map.lookup(s.updateRow), column);
             Value row = map.lookup(s.targetRow);
             if (kind) {
               // On the row's source: the kernel pipelines fold views into
               // loads and stores, not into atomics.
               auto view = row.getDefiningOp<memref::SubViewOp>();
               IRRewriter indexing(b.getContext());
               indexing.setInsertionPoint(b.getInsertionBlock(),
                                          b.getInsertionPoint());
               SmallVector<Value> indices;
               affine::resolveIndicesIntoOpWithOffsetsAndStrides(
                   indexing, loc, view.getMixedOffsets(),
                   view.getMixedStrides(), view.getDroppedDims(),
                   ValueRange{column}, indices);
               memref::AtomicRMWOp::create(b, loc, *kind, update,
                                           view.getSource(), indices);
               if (view->use_empty())
                 view->erase();
               return;
             }
             auto generic = dyn_cast<linalg::GenericOp>(s.combine);
             Value combined =
                 generic ? applyPayload(b, generic,
                                        {update, memref::LoadOp::create(
                                                     b, loc, row, column)},
                                        {column})[0]
                         : update;
             memref::StoreOp::create(b, loc, combined, row, column);
           };
           if (kind) {
             element(coords[1]);
             return;
           }
           scf::ForOp::create(
               b, loc, indexConstant(b, loc, 0),
               indexConstant(b, loc, s.count), indexConstant(b, loc, 1),
               ValueRange{},
               [&](OpBuilder &nb, Location, Value j, ValueRange) {
                 OpBuilder::InsertionGuard guard(b);
                 b.setInsertionPoint(scf::YieldOp::create(nb, loc));
                 element(j);
               });
         });
  rewriter.eraseOp(root);
}

struct Scatters : adjoint::impl::ScattersBase<Scatters> {
  using ScattersBase::ScattersBase;

  void runOnOperation() override {
    SmallVector<ScatterLoop> loops;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<mlir::gpu::LaunchOp, mlir::gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto loop = dyn_cast<scf::ForOp>(op))
        if (std::optional<ScatterLoop> s = recognize(loop)) {
          loops.push_back(*s);
          return WalkResult::skip();
        }
      return WalkResult::advance();
    });
    IRRewriter rewriter(&getContext());
    for (ScatterLoop &s : loops)
      emitKernel(rewriter, s, atomics, workgroupSize);
  }
};

} // namespace
