//===- Functions.cpp - adj.func, adj.return and direct calls --------------===//
//
// adj.func becomes func.func with every tuple argument and result flattened
// into its leaves; adj.return and calls of an adj.func_ref follow. Direct
// and mutual recursion need nothing more: func.call names its callee.
//
// A function that can call itself (HostPlan::recursive) enters the
// runtime's recursion guard on entry and leaves it before returning, so that
// unbounded recursion fails the call with an error instead of overflowing
// the stack.
//
// A donated entry argument (kDonateAttrName on the adj.func, flattened leaf
// indices) becomes a kDonatedArgAttrName attribute on that func.func
// argument.
//
// A public function whose calls can make runtime objects (boxes,
// environments) marks the runtime's arena on entry and releases it before
// returning, so that what one call makes does not outlive it. Functions
// that return function values or environments skip that: what they return
// lives in the arena.
//
//===----------------------------------------------------------------------===//

#include "Structure.h"

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// True when no leaf of `types` is a runtime handle.
bool onlyTensorLeaves(TypeRange types) {
  SmallVector<Type> leaves;
  for (Type type : types)
    flattenLeaves(type, leaves);
  return llvm::all_of(leaves, llvm::IsaPred<RankedTensorType>);
}

/// The arena mark taken at the entry of `func`, if it takes one.
func::CallOp arenaMark(func::FuncOp func) {
  if (func.getBody().empty())
    return {};
  auto call = dyn_cast_or_null<func::CallOp>(
      func.getBody().front().empty() ? nullptr
                                     : &func.getBody().front().front());
  if (call && call.getCallee() == rt::kMark)
    return call;
  return {};
}

/// Counts one more level of recursion (see Invoke.h): the runtime fails
/// the call, naming `function`, past the depth limit or near the end of
/// the stack.
void enterGuard(OpBuilder &b, Location loc, StringRef function) {
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      b.getInsertionBlock()->getParentOp(),
      b.getStringAttr(rt::functionNameGlobal(function)));
  Value name = memref::GetGlobalOp::create(b, loc, global.getType(),
                                           global.getSymName());
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, name);
  func::CallOp::create(b, loc, rt::kEnterRecursive, TypeRange{}, pointer);
}

/// The converted arguments of `op` that kDonateAttrName names. Donated
/// inputs are indices of the flattened leaves, which are the converted
/// arguments when every leaf is a tensor (as in compiled entries).
LogicalResult donatedArguments(adj::FuncOp op, size_t convertedCount,
                               SmallVectorImpl<int64_t> &donated) {
  auto donate = op->getAttrOfType<DenseI64ArrayAttr>(kDonateAttrName);
  if (!donate)
    return success();
  SmallVector<Type> leaves;
  for (Type t : op.getFunctionType().getInputs())
    flattenLeaves(t, leaves);
  if (leaves.size() != convertedCount ||
      !llvm::all_of(leaves, llvm::IsaPred<RankedTensorType>))
    return op.emitOpError() << kDonateAttrName
                            << " needs arguments whose leaves are tensors";
  for (int64_t index : donate.asArrayRef()) {
    if (index < 0 || index >= static_cast<int64_t>(convertedCount))
      return op.emitOpError()
             << kDonateAttrName << " index " << index << " out of range";
    donated.push_back(index);
  }
  return success();
}

struct FuncPattern : OpConversionPattern<adj::FuncOp> {
  FuncPattern(const TypeConverter &converter, MLIRContext *ctx,
              const HostPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(adj::FuncOp op, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    SmallVector<Type> results;
    if (failed(typeConverter->convertSignatureArgs(type.getInputs(),
                                                   signature)) ||
        failed(typeConverter->convertTypes(type.getResults(), results)))
      return rewriter.notifyMatchFailure(op, "signature not convertible");
    SmallVector<int64_t> donated;
    if (failed(donatedArguments(op, signature.getConvertedTypes().size(),
                                donated)))
      return failure();
    auto func = func::FuncOp::create(
        rewriter, op.getLoc(), op.getSymName(),
        FunctionType::get(getContext(), signature.getConvertedTypes(),
                          results));
    if (auto visibility = op.getSymVisibilityAttr())
      func.setSymVisibilityAttr(visibility);
    // Argument and result attributes follow the values into their leaves.
    auto spread = [&](ArrayAttr attrs, TypeRange types) -> ArrayAttr {
      if (!attrs)
        return {};
      SmallVector<Attribute> spreadAttrs;
      for (auto [attr, t] : llvm::zip(attrs, types)) {
        SmallVector<Type> converted;
        (void)typeConverter->convertType(t, converted);
        spreadAttrs.append(converted.size(), attr);
      }
      return rewriter.getArrayAttr(spreadAttrs);
    };
    if (ArrayAttr argAttrs = spread(op.getArgAttrsAttr(), type.getInputs()))
      func.setArgAttrsAttr(argAttrs);
    if (ArrayAttr resAttrs = spread(op.getResAttrsAttr(), type.getResults()))
      func.setResAttrsAttr(resAttrs);
    for (int64_t index : donated)
      func.setArgAttr(index, kDonatedArgAttrName, rewriter.getUnitAttr());
    // ExecutionEngine::invoke calls the _mlir_ciface_ wrapper of an entry.
    if (func.isPublic())
      func->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
    if (op.getBody().empty()) {
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    Block *entry = rewriter.applySignatureConversion(
        &func.getBody().front(), signature, typeConverter);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(entry);
    if (func.isPublic() && plan.allocating.contains(op.getSymNameAttr()) &&
        onlyTensorLeaves(type.getResults()))
      func::CallOp::create(rewriter, op.getLoc(), rt::kMark,
                           rewriter.getI64Type(), ValueRange{});
    if (plan.recursive.contains(op.getSymNameAttr()))
      enterGuard(rewriter, op.getLoc(), op.getSymName());
    rewriter.eraseOp(op);
    return success();
  }

  const HostPlan &plan;
};

struct ReturnPattern : OpConversionPattern<adj::ReturnOp> {
  ReturnPattern(const TypeConverter &converter, MLIRContext *ctx,
                const HostPlan &plan)
      : OpConversionPattern(converter, ctx), plan(plan) {}

  LogicalResult
  matchAndRewrite(adj::ReturnOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<func::FuncOp>();
    if (!func)
      return rewriter.notifyMatchFailure(op, "not in a converted function");
    if (plan.recursive.contains(func.getSymNameAttr()))
      func::CallOp::create(rewriter, op.getLoc(), rt::kLeaveRecursive,
                           TypeRange{}, ValueRange{});
    if (func::CallOp mark = arenaMark(func))
      func::CallOp::create(rewriter, op.getLoc(), rt::kRelease, TypeRange{},
                           mark.getResult(0));
    rewriter.replaceOpWithNewOp<func::ReturnOp>(
        op, flatten(adaptor.getOperands()));
    return success();
  }

  const HostPlan &plan;
};

/// `adj.call` of an `adj.func_ref`: a func.call of the named function.
struct DirectCallPattern : OpConversionPattern<adj::CallOp> {
  DirectCallPattern(const TypeConverter &converter, MLIRContext *ctx,
                    const HostPlan &plan)
      : OpConversionPattern(converter, ctx, /*benefit=*/2), plan(plan) {}

  LogicalResult
  matchAndRewrite(adj::CallOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FlatSymbolRefAttr callee = plan.directCallee.lookup(op);
    if (!callee)
      return rewriter.notifyMatchFailure(op, "not a call of adj.func_ref");
    SmallVector<Type> results;
    if (failed(typeConverter->convertTypes(op->getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "results not convertible");
    auto call = func::CallOp::create(rewriter, op.getLoc(), callee, results,
                                     flatten(adaptor.getArgs()));
    rewriter.replaceOpWithMultiple(
        op, splitConverted(*typeConverter, op->getResultTypes(),
                           call.getResults()));
    return success();
  }

  const HostPlan &plan;
};

} // namespace

void lowering::populateFunctionPatterns(const TypeConverter &converter,
                                        const HostPlan &plan,
                                        RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FuncPattern, DirectCallPattern, ReturnPattern>(converter, ctx,
                                                              plan);
}
