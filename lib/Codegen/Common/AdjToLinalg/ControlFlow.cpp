//===- ControlFlow.cpp - adj.if, adj.for and adj.while to scf -------------===//
//
// The regions move into the scf ops; carried values and results are
// flattened like everything else, and adj.yield becomes scf.yield (or
// scf.condition at the end of a while condition).
//
// adj.for has the interpreter's semantics exactly: it runs for i = lb,
// lb + step, ... while i < ub, and stops rather than wrap when i + step
// overflows. scf.for iterates over the trip count instead, computed without
// overflow, and rebuilds i from it. A step <= 0, a run-time error in the
// interpreter, runs the body zero times (compiled code has no error channel
// yet).
//
//===----------------------------------------------------------------------===//

#include "Structure.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// The scalar in a rank-0 tensor.
Value extractScalar(OpBuilder &b, Location loc, Value tensor) {
  return tensor::ExtractOp::create(b, loc, tensor, ValueRange{});
}

struct IfPattern : OpConversionPattern<adj::IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::IfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(typeConverter->convertTypes(op->getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "results not convertible");
    Location loc = op.getLoc();
    Value cond = extractScalar(rewriter, loc, adaptor.getCondition().front());
    auto ifOp = scf::IfOp::create(rewriter, loc, results, cond,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOpWithMultiple(
        op, splitConverted(*typeConverter, op->getResultTypes(),
                           ifOp.getResults()));
    return success();
  }
};

struct ForPattern : OpConversionPattern<adj::ForOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ForOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Block &oldBody = op.getBody().front();
    Type ivType = oldBody.getArgument(0).getType();
    // The body's signature: the induction variable stays a tensor<i64>
    // (rebuilt from the index below), the carried values flatten.
    TypeConverter::SignatureConversion signature(oldBody.getNumArguments());
    signature.addInputs(0, ivType);
    for (BlockArgument arg : oldBody.getArguments().drop_front()) {
      SmallVector<Type> converted;
      if (failed(typeConverter->convertType(arg.getType(), converted)))
        return rewriter.notifyMatchFailure(op, "carried type not convertible");
      signature.addInputs(arg.getArgNumber(), converted);
    }

    Value lb = extractScalar(rewriter, loc, adaptor.getLowerBound().front());
    Value ub = extractScalar(rewriter, loc, adaptor.getUpperBound().front());
    Value step = extractScalar(rewriter, loc, adaptor.getStep().front());
    auto i64 = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, v, 64);
    };
    Value zero = i64(0), one = i64(1);
    // trips = (ub > lb && step > 0) ? (ub - lb - 1) /u step + 1 : 0. The
    // difference of two i64 fits in an unsigned i64, so nothing overflows,
    // and the division never sees a zero step.
    Value positive = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sgt, step, zero);
    Value nonEmpty = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sgt, ub, lb);
    Value runs = arith::AndIOp::create(rewriter, loc, positive, nonEmpty);
    Value divisor = arith::SelectOp::create(rewriter, loc, positive, step, one);
    Value span = arith::SubIOp::create(
        rewriter, loc, arith::SubIOp::create(rewriter, loc, ub, lb), one);
    Value trips = arith::AddIOp::create(
        rewriter, loc, arith::DivUIOp::create(rewriter, loc, span, divisor),
        one);
    trips = arith::SelectOp::create(rewriter, loc, runs, trips, zero);
    Value upper = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getIndexType(), trips);
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto forOp = scf::ForOp::create(rewriter, loc, c0, upper, c1,
                                    flatten(adaptor.getInits()));
    Block *body = forOp.getBody();
    // Without carried values the builder adds a terminator; the old body
    // brings its own.
    if (!body->empty())
      rewriter.eraseOp(body->getTerminator());

    Block *converted =
        rewriter.applySignatureConversion(&oldBody, signature, typeConverter);
    rewriter.setInsertionPointToStart(body);
    Value k = arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                           forOp.getInductionVar());
    Value iv = arith::AddIOp::create(
        rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, k, step));
    Value ivTensor = tensor::FromElementsOp::create(
        rewriter, loc, ivType, iv);
    SmallVector<Value> args{ivTensor};
    llvm::append_range(args, forOp.getRegionIterArgs());
    rewriter.mergeBlocks(converted, body, args);

    rewriter.replaceOpWithMultiple(
        op, splitConverted(*typeConverter, op->getResultTypes(),
                           forOp.getResults()));
    return success();
  }
};

struct WhilePattern : OpConversionPattern<adj::WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::WhileOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(typeConverter->convertTypes(op->getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "results not convertible");
    auto whileOp = scf::WhileOp::create(rewriter, op.getLoc(), results,
                                        flatten(adaptor.getInits()),
                                        ArrayRef<NamedAttribute>{});
    rewriter.inlineRegionBefore(op.getCond(), whileOp.getBefore(),
                                whileOp.getBefore().end());
    rewriter.inlineRegionBefore(op.getBody(), whileOp.getAfter(),
                                whileOp.getAfter().end());
    if (failed(rewriter.convertRegionTypes(&whileOp.getBefore(),
                                           *typeConverter)) ||
        failed(rewriter.convertRegionTypes(&whileOp.getAfter(),
                                           *typeConverter)))
      return rewriter.notifyMatchFailure(op, "carried type not convertible");
    rewriter.replaceOpWithMultiple(
        op, splitConverted(*typeConverter, op->getResultTypes(),
                           whileOp.getResults()));
    return success();
  }
};

/// Runs after the parent: the yield then sits in an scf region.
struct YieldPattern : OpConversionPattern<adj::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::YieldOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values = flatten(adaptor.getOperands());
    Operation *parent = op->getParentOp();
    if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp>(parent))
      return rewriter.notifyMatchFailure(op, "parent not converted yet");
    auto whileOp = dyn_cast<scf::WhileOp>(parent);
    if (whileOp && op->getParentRegion() == &whileOp.getBefore()) {
      // The condition forwards the carried values to the body unchanged.
      Value cond = extractScalar(rewriter, op.getLoc(), values.front());
      rewriter.replaceOpWithNewOp<scf::ConditionOp>(
          op, cond, op->getBlock()->getArguments());
      return success();
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, values);
    return success();
  }
};

} // namespace

void lowering::populateControlFlowPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<IfPattern, ForPattern, WhilePattern, YieldPattern>(
      converter, patterns.getContext());
}
