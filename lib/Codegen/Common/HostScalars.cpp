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
//  - a while loop's 0-d integer tensor carried from such a scalar, and
//    yielded as one, is a scalar loop variable.
//
// Canonicalization then folds tensor.extract of the from_elements.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// The scalar a 0-d integer tensor holds, where the host knows it: a
/// from_elements operand, a fill's value or a splat constant
/// (materialized at `b`).
Value scalarOf(OpBuilder &b, Value tensor) {
  if (!isIntegerScalarTensor(tensor.getType()))
    return {};
  if (auto from = tensor.getDefiningOp<tensor::FromElementsOp>())
    return from.getElements()[0];
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return fill.getInputs()[0];
  DenseElementsAttr dense;
  if (matchPattern(tensor, m_Constant(&dense)) && dense.isSplat())
    return arith::ConstantOp::create(b, tensor.getLoc(),
                                     dense.getSplatValue<TypedAttr>());
  return {};
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
    SmallVector<Value> scalars;
    for (Value input : op.getDpsInputs()) {
      Value scalar = scalarOf(rewriter, input);
      if (!scalar)
        return failure();
      scalars.push_back(scalar);
    }
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

/// A while loop's 0-d integer tensor, carried from a host scalar and
/// passed unchanged to the body by the condition -> a scalar loop variable
/// (tensor.from_elements where the regions and the users of the result
/// need the tensor; the body yields the extracted element, which folds
/// away once the trip's update is scalar too).
struct ScalarizeWhileCarried : OpRewritePattern<scf::WhileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::WhileOp loop,
                                PatternRewriter &rewriter) const override {
    Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
    scf::ConditionOp condition = loop.getConditionOp();
    scf::YieldOp yield = loop.getYieldOp();
    // The before and after arguments are the same positions here: the
    // condition forwards each before argument unchanged.
    if (before.getNumArguments() != after.getNumArguments())
      return failure();
    for (auto [i, init] : llvm::enumerate(loop.getInits())) {
      if (!isIntegerScalarTensor(init.getType()) ||
          condition.getArgs()[i] != before.getArgument(i))
        continue;
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(loop);
      Value start = scalarOf(rewriter, init);
      if (!start)
        continue;
      Type tensorType = init.getType();
      Type scalarType = start.getType();
      Location loc = loop.getLoc();
      // Each region rebuilds the tensor from its scalar argument.
      auto retype = [&](Block &block) {
        BlockArgument arg = block.getArgument(i);
        arg.setType(scalarType);
        rewriter.setInsertionPointToStart(&block);
        Value tensor = tensor::FromElementsOp::create(
            rewriter, loc, tensorType, ValueRange{arg});
        rewriter.replaceAllUsesExcept(arg, tensor, tensor.getDefiningOp());
      };
      rewriter.setInsertionPoint(yield);
      Value next = tensor::ExtractOp::create(rewriter, loc,
                                             yield.getOperand(i),
                                             ValueRange{});
      rewriter.modifyOpInPlace(loop, [&] {
        loop->setOperand(i, start);
        retype(before);
        retype(after);
        // The condition forwards the scalar; the body yields it.
        condition->setOperand(1 + i, before.getArgument(i));
        yield->setOperand(i, next);
        loop.getResult(i).setType(scalarType);
      });
      rewriter.setInsertionPointAfter(loop);
      Value result = tensor::FromElementsOp::create(
          rewriter, loc, tensorType, ValueRange{loop.getResult(i)});
      rewriter.replaceAllUsesExcept(loop.getResult(i), result,
                                    result.getDefiningOp());
      return success();
    }
    return failure();
  }
};

struct HostScalars : adjoint::impl::HostScalarsBase<HostScalars> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ScalarizeGeneric, InlineScalarInput, ScalarizeWhileCarried>(
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
