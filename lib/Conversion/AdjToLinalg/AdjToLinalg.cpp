//===- AdjToLinalg.cpp - Lower typed first-order adj to linalg ------------===//
//
// The pass and the function patterns. Before converting anything it checks
// that every op is one the patterns handle, so that unsupported input is a
// diagnostic naming the op rather than a half-converted module.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Conversion/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace adjoint {
#define GEN_PASS_DEF_ADJTOLINALG
#include "adjoint/Conversion/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

struct FuncPattern : OpConversionPattern<adj::FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = func::FuncOp::create(rewriter, op.getLoc(), op.getSymName(),
                                     op.getFunctionType());
    if (auto visibility = op.getSymVisibilityAttr())
      func.setSymVisibilityAttr(visibility);
    if (auto argAttrs = op.getArgAttrsAttr())
      func.setArgAttrsAttr(argAttrs);
    if (auto resAttrs = op.getResAttrsAttr())
      func.setResAttrsAttr(resAttrs);
    // ExecutionEngine::invoke calls the _mlir_ciface_ wrapper of an entry.
    if (func.isPublic())
      func->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReturnPattern : OpConversionPattern<adj::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::ReturnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

struct CallPattern : OpConversionPattern<adj::CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ref = op.getCallee().getDefiningOp<adj::FuncRefOp>();
    if (!ref)
      return rewriter.notifyMatchFailure(op, "callee is not adj.func_ref");
    rewriter.replaceOpWithNewOp<func::CallOp>(
        op, ref.getCalleeAttr(), op->getResultTypes(), adaptor.getArgs());
    return success();
  }
};

/// A function reference only used as a direct callee disappears with its
/// calls.
struct FuncRefPattern : OpConversionPattern<adj::FuncRefOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::FuncRefOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// True when `type` is a statically shaped tensor of integers or floats.
bool isLowerableTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         isa<FloatType, IntegerType>(tensor.getElementType());
}

/// Reports why `op` cannot be lowered yet, or succeeds.
LogicalResult checkSupported(Operation *op) {
  if (!isa<adj::AdjDialect>(op->getDialect()))
    return success();
  auto unsupported = [&]() {
    return op->emitError() << op->getName()
                           << " is not supported by -adj-to-linalg yet";
  };
  if (auto func = dyn_cast<adj::FuncOp>(op)) {
    for (Type type : func.getFunctionType().getInputs())
      if (!isLowerableTensor(type))
        return func.emitError() << "adj.func with an argument of type "
                                << type
                                << " is not supported by -adj-to-linalg yet";
    for (Type type : func.getFunctionType().getResults())
      if (!isLowerableTensor(type))
        return func.emitError() << "adj.func with a result of type " << type
                                << " is not supported by -adj-to-linalg yet";
    return success();
  }
  if (auto ref = dyn_cast<adj::FuncRefOp>(op)) {
    for (OpOperand &use : ref->getUses()) {
      auto call = dyn_cast<adj::CallOp>(use.getOwner());
      if (!call || use.getOperandNumber() != 0)
        return op->emitError()
               << "adj.func_ref used as a value (not as a direct callee) is "
                  "not supported by -adj-to-linalg yet";
    }
    return success();
  }
  if (auto call = dyn_cast<adj::CallOp>(op)) {
    if (!call.getCallee().getDefiningOp<adj::FuncRefOp>())
      return op->emitError() << "adj.call of a function value other than "
                                "adj.func_ref is not supported by "
                                "-adj-to-linalg yet";
    return success();
  }
  if (isa<adj::ReturnOp>(op))
    return success();
  if (!isa<adj::AddOp, adj::SubOp, adj::MulOp, adj::DivOp, adj::PowOp,
           adj::MaximumOp, adj::MinimumOp, adj::NegOp, adj::ExpOp, adj::LogOp,
           adj::TanhOp, adj::SigmoidOp, adj::ReluOp, adj::SqrtOp,
           adj::RsqrtOp, adj::AbsOp, adj::SignOp, adj::SinOp, adj::CosOp,
           adj::ErfOp, adj::CmpOp, adj::SelectOp, adj::CastOp, adj::MatmulOp,
           adj::ReduceSumOp, adj::ReduceMaxOp, adj::ReduceMeanOp,
           adj::BroadcastToOp, adj::ReshapeOp, adj::TransposeOp,
           adj::ConstantOp, adj::FillOp, adj::ZerosLikeOp, adj::GradAddOp>(
          op))
    return unsupported();
  for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                      op->getResultTypes()))
    if (!isLowerableTensor(type))
      return op->emitError()
             << op->getName() << " on a value of type " << type
             << " is not supported by -adj-to-linalg yet (it needs a "
                "statically shaped integer or float tensor)";
  if (auto matmul = dyn_cast<adj::MatmulOp>(op)) {
    auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
    auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
    if (lhs.getRank() != rhs.getRank() ||
        lhs.getShape().drop_back(2) != rhs.getShape().drop_back(2))
      return op->emitError() << "adj.matmul with broadcast batch dimensions ("
                             << lhs << " and " << rhs
                             << ") is not supported by -adj-to-linalg yet";
  }
  if (auto constant = dyn_cast<adj::ConstantOp>(op))
    if (!isa<TypedAttr>(constant.getValue()))
      return unsupported();
  return success();
}

struct AdjToLinalg : adjoint::impl::AdjToLinalgBase<AdjToLinalg> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool failed = false;
    // Pre-order, skipping the regions of a rejected op: one error for an
    // unsupported adj.for, not one more for its adj.yield.
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (succeeded(checkSupported(op)))
        return WalkResult::advance();
      failed = true;
      return WalkResult::skip();
    });
    if (failed)
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addIllegalDialect<adj::AdjDialect>();
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           tensor::TensorDialect>();
    target.addLegalOp<ModuleOp>();

    RewritePatternSet patterns(ctx);
    patterns.add<FuncPattern, ReturnPattern, CallPattern, FuncRefPattern>(
        ctx);
    populateElementwisePatterns(patterns);
    populateContractionPatterns(patterns);
    populateReductionPatterns(patterns);
    populateShapePatterns(patterns);
    if (mlir::failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
