//===- Environments.cpp - Sensitivity environments on the host ------------===//
//
// An environment is a runtime handle (null is the empty one). The value
// under a key is stored as a runtime tuple of its leaves, so env_get at a
// tuple type reads the leaves back one by one, and an absent key (a null
// tuple) reads as zeros, which is the interpreter's `env_get` of an absent
// key.
//
//===----------------------------------------------------------------------===//

#include "Structure.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

Type pointerType(MLIRContext *ctx) { return LLVM::LLVMPointerType::get(ctx); }

struct EnvNewPattern : OpConversionPattern<adj::EnvNewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::EnvNewOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, RuntimeBuilder{rewriter, op.getLoc()}.null());
    return success();
  }
};

struct EnvSetPattern : OpConversionPattern<adj::EnvSetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::EnvSetOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeBuilder rtb{rewriter, op.getLoc()};
    Value tuple = rtb.box(op.getValue().getType(),
                          flatten(adaptor.getValue()));
    Value env = rtb.call(rt::kEnvSet, pointerType(getContext()),
                         {adaptor.getEnv().front(), rtb.i64(op.getKey()),
                          tuple})[0];
    rewriter.replaceOp(op, env);
    return success();
  }
};

struct EnvGetPattern : OpConversionPattern<adj::EnvGetOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::EnvGetOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeBuilder rtb{rewriter, op.getLoc()};
    Value tuple = rtb.call(rt::kEnvGet, pointerType(getContext()),
                           {adaptor.getEnv().front(), rtb.i64(op.getKey())})[0];
    SmallVector<SmallVector<Value>> replacement;
    replacement.push_back(rtb.unbox(tuple, op.getType()));
    rewriter.replaceOpWithMultiple(op, std::move(replacement));
    return success();
  }
};

struct EnvAddPattern : OpConversionPattern<adj::EnvAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(adj::EnvAddOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RuntimeBuilder rtb{rewriter, op.getLoc()};
    Value env = rtb.call(rt::kEnvAdd, pointerType(getContext()),
                         {adaptor.getLhs().front(),
                          adaptor.getRhs().front()})[0];
    rewriter.replaceOp(op, env);
    return success();
  }
};

} // namespace

void lowering::populateEnvironmentPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<EnvNewPattern, EnvSetPattern, EnvGetPattern, EnvAddPattern>(
      converter, patterns.getContext());
}
