//===- HostScalars.cpp - Integer scalar math stays scalar -----------------===//
//
// A loop's counter reaches the body as a 0-d tensor (tensor.from_elements
// of the induction variable), and index arithmetic on it (t = T - 1 - i, a
// clamp) is a 0-d linalg.generic. As tensors they bufferize to device
// buffers on a GPU: a one-item kernel per step, and a read back to the
// host where the result picks a slice, which stops the call from running
// as one graph (GpuDeviceSteps.cpp). Integer math is exact anywhere, so
// here it becomes scalar arith on the host:
//
//  - a 0-d generic of integers whose inputs are scalars (from_elements or
//    constants) is its payload on those scalars, its results from_elements;
//  - a generic reading a 0-d integer from_elements through a broadcast
//    map reads the scalar itself in its payload.
//
//
// Not (yet) a while loop's carried counter: made a scalar loop variable,
// it changed how the loop's other carried buffers bufferize (lstm's step:
// 630 -> 884 kernels, 76 -> 304 copies), so the condition on it stays a
// device read.
//
// Canonicalization then folds tensor.extract of the from_elements.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace adjoint {
#define GEN_PASS_DEF_HOSTSCALARS
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// A 0-d tensor of integers or indices.
bool isIntegerScalarTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 0 &&
         tensor.getElementType().isIntOrIndex();
}

/// Whether the host knows the scalar a 0-d integer tensor holds: a
/// from_elements operand, a fill's value or a splat constant.
bool knownOnHost(Value tensor) {
  DenseElementsAttr dense;
  return isIntegerScalarTensor(tensor.getType()) &&
         (tensor.getDefiningOp<tensor::FromElementsOp>() ||
          tensor.getDefiningOp<linalg::FillOp>() ||
          (matchPattern(tensor, m_Constant(&dense)) && dense.isSplat()));
}

/// That scalar (knownOnHost), a constant materialized at `b`.
Value scalarOf(OpBuilder &b, Value tensor) {
  if (auto from = tensor.getDefiningOp<tensor::FromElementsOp>())
    return from.getElements()[0];
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return fill.getInputs()[0];
  DenseElementsAttr dense;
  (void)matchPattern(tensor, m_Constant(&dense));
  return arith::ConstantOp::create(b, tensor.getLoc(),
                                   dense.getSplatValue<TypedAttr>());
}

/// A payload of integer arithmetic only (exact on the host).
bool isArithOnly(linalg::GenericOp op) {
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!isa<arith::ArithDialect>(inner.getDialect()) || !isPure(&inner))
      return false;
  return true;
}

/// A 0-d integer generic on host scalars -> its payload on the scalars.
struct ScalarizeGeneric : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumLoops() != 0 ||
        !isArithOnly(op) ||
        !llvm::all_of(op->getOperandTypes(), isIntegerScalarTensor))
      return failure();
    for (OpOperand &init : op.getDpsInitsMutable())
      if (!op.getMatchingBlockArgument(&init).use_empty())
        return failure();
    // Nothing is created before every input is known to match.
    if (!llvm::all_of(op.getDpsInputs(), knownOnHost))
      return failure();
    SmallVector<Value> scalars;
    for (Value input : op.getDpsInputs())
      scalars.push_back(scalarOf(rewriter, input));
    IRMapping map;
    Block *body = op.getBlock();
    for (auto [arg, scalar] :
         llvm::zip(body->getArguments().take_front(scalars.size()), scalars))
      map.map(arg, scalar);
    for (Operation &inner : body->without_terminator())
      rewriter.clone(inner, map);
    SmallVector<Value> results;
    for (auto [yielded, type] : llvm::zip(
             body->getTerminator()->getOperands(), op->getResultTypes()))
      results.push_back(tensor::FromElementsOp::create(
          rewriter, op.getLoc(), type, ValueRange{map.lookupOrDefault(yielded)}));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// A generic's broadcast input of a host integer scalar -> the scalar,
/// read in the payload.
struct InlineScalarInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto from = input->get().getDefiningOp<tensor::FromElementsOp>();
      if (!from || !isIntegerScalarTensor(input->get().getType()) ||
          op.getMatchingIndexingMap(input).getNumResults() != 0)
        continue;
      // The same generic without the operand: its payload reads the
      // scalar.
      unsigned index = input->getOperandNumber();
      SmallVector<Value> inputs = op.getDpsInputs();
      inputs.erase(inputs.begin() + index);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps.erase(maps.begin() + index);
      auto generic = linalg::GenericOp::create(
          rewriter, op.getLoc(), op->getResultTypes(), inputs,
          op.getDpsInits(), maps, op.getIteratorTypesArray());
      rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                  generic.getRegion().begin());
      Block &body = generic.getRegion().front();
      rewriter.replaceAllUsesWith(body.getArgument(index),
                                  from.getElements()[0]);
      body.eraseArgument(index);
      rewriter.replaceOp(op, generic->getResults());
      return success();
    }
    return failure();
  }
};

struct HostScalars : adjoint::impl::HostScalarsBase<HostScalars> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ScalarizeGeneric, InlineScalarInput>(
        &getContext());
    tensor::FromElementsOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    tensor::ExtractOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns,
                                                       &getContext());
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
