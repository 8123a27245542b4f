//===- FunctionValues.cpp - Closures by closed-world defunctionalization --===//
//
// After closure conversion every function value is made by an adj.closure
// or an adj.func_ref, and the module is the whole program, so the values
// that can reach a call of type !adj.fn<T> are those made at type T. A
// function value is a tag (which function) and a box (the runtime tuple of
// its captures, null when there are none); a call switches over the tags
// of the functions made at its type and calls the chosen one directly,
// captures unboxed and prepended to the arguments.
//
//   %f = adj.closure @g(%c) : (tensor<f32>) -> !adj.fn<(tensor<f32>) -> ...>
//   %y = adj.call %f(%x)
// becomes
//   %box = call @adj_rt_tuple_new(%c1); call @__adj_put_f32(%box, %c0, %c)
//   %y = scf.index_switch %tag case 0 { %c' = call @__adj_get_f32(%box, %c0)
//                                       %r = func.call @g(%c', %x) ... }
//
//===----------------------------------------------------------------------===//

#include "Structure.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// The number of captured values `callee` takes in front of the arguments
/// of a value of type `fnType`.
size_t numCaptures(FunctionType callee, adj::FnType fnType) {
  return callee.getNumInputs() - fnType.getInputs().size();
}

struct FuncRefPattern : OpConversionPattern<adj::FuncRefOp> {
  FuncRefPattern(const TypeConverter &converter, MLIRContext *ctx,
                 const HostPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(adj::FuncRefOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tag = plan.tags.find(op.getCalleeAttr().getAttr());
    // A reference only used as a direct callee disappears with its calls.
    if (!plan.valueRefs.count(op) || tag == plan.tags.end()) {
      rewriter.eraseOp(op);
      return success();
    }
    RuntimeBuilder rtb{rewriter, op.getLoc()};
    SmallVector<Value> value{
        arith::ConstantIndexOp::create(rewriter, op.getLoc(), tag->second),
        rtb.null()};
    SmallVector<SmallVector<Value>> replacement{value};
    rewriter.replaceOpWithMultiple(op, std::move(replacement));
    return success();
  }

  const HostPlan &plan;
};

struct ClosurePattern : OpConversionPattern<adj::ClosureOp> {
  ClosurePattern(const TypeConverter &converter, MLIRContext *ctx,
                 const HostPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(adj::ClosureOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t tag = plan.tags.lookup(op.getCalleeAttr().getAttr());
    RuntimeBuilder rtb{rewriter, op.getLoc()};
    Value box = op.getCaptures().empty()
                    ? rtb.null()
                    : rtb.box(op.getCaptures().getTypes(),
                              flatten(adaptor.getCaptures()));
    SmallVector<Value> value{
        arith::ConstantIndexOp::create(rewriter, op.getLoc(), tag), box};
    SmallVector<SmallVector<Value>> replacement{value};
    rewriter.replaceOpWithMultiple(op, std::move(replacement));
    return success();
  }

  const HostPlan &plan;
};

/// `adj.call` of any other function value: a switch over the functions
/// made at its type.
struct IndirectCallPattern : OpConversionPattern<adj::CallOp> {
  IndirectCallPattern(const TypeConverter &converter, MLIRContext *ctx,
                      const HostPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(adj::CallOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (plan.directCallee.count(op))
      return rewriter.notifyMatchFailure(op, "a direct call");
    auto fnType = dyn_cast<adj::FnType>(op.getCallee().getType());
    auto makers = plan.makers.find(fnType);
    if (!fnType || makers == plan.makers.end() || makers->second.empty())
      return rewriter.notifyMatchFailure(op, "no function of this type");
    SmallVector<Type> results;
    if (failed(typeConverter->convertTypes(op->getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "results not convertible");
    Location loc = op.getLoc();
    ValueRange callee = adaptor.getCallee();
    SmallVector<Value> args = flatten(adaptor.getArgs());

    auto emitCall = [&](FlatSymbolRefAttr target) {
      FunctionType signature = plan.signatures.lookup(target.getAttr());
      size_t captures = numCaptures(signature, fnType);
      RuntimeBuilder rtb{rewriter, loc};
      SmallVector<Value> operands;
      if (captures)
        operands = rtb.unbox(callee[1],
                             signature.getInputs().take_front(captures));
      llvm::append_range(operands, args);
      return func::CallOp::create(rewriter, loc, target, results, operands)
          .getResults();
    };

    ArrayRef<FlatSymbolRefAttr> targets = makers->second;
    SmallVector<Value> values;
    if (targets.size() == 1) {
      llvm::append_range(values, emitCall(targets.front()));
    } else {
      // The last function is the default: the tag is one of them.
      SmallVector<int64_t> cases;
      for (FlatSymbolRefAttr target : targets.drop_back())
        cases.push_back(plan.tags.lookup(target.getAttr()));
      auto switchOp = scf::IndexSwitchOp::create(rewriter, loc, results,
                                                 callee[0], cases,
                                                 cases.size());
      auto fill = [&](Region &region, FlatSymbolRefAttr target) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.createBlock(&region);
        scf::YieldOp::create(rewriter, loc, emitCall(target));
      };
      for (auto [region, target] :
           llvm::zip(switchOp.getCaseRegions(), targets.drop_back()))
        fill(region, target);
      fill(switchOp.getDefaultRegion(), targets.back());
      llvm::append_range(values, switchOp.getResults());
    }
    rewriter.replaceOpWithMultiple(
        op, splitConverted(*typeConverter, op->getResultTypes(), values));
    return success();
  }

  const HostPlan &plan;
};

} // namespace

void lowering::populateFunctionValuePatterns(const TypeConverter &converter,
                                             const HostPlan &plan,
                                             RewritePatternSet &patterns) {
  patterns.add<FuncRefPattern, ClosurePattern, IndirectCallPattern>(
      converter, patterns.getContext(), plan);
}
