//===- AdjToLinalg.cpp - Lower typed adj to linalg, scf and func ----------===//
//
// The pass. Before converting anything it checks that every op is one the
// patterns handle, so that unsupported input is a diagnostic naming the op
// rather than a half-converted module. Tensor primitives convert 1:1; the
// host-side structure (functions, control flow, tuples, function values,
// environments; Structure.h) converts with a 1:N type converter.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "Structure.h"

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace adjoint {
#define GEN_PASS_DEF_ADJTOLINALG
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// True when `type` is a statically shaped tensor of integers or floats.
bool isLowerableTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         isa<FloatType, IntegerType, ComplexType>(tensor.getElementType());
}

/// Reports an error naming `what` of type `type` unless it has a host
/// representation.
LogicalResult checkHostType(Operation *op, Type type, StringRef what) {
  if (isHostType(type))
    return success();
  return op->emitError() << op->getName() << " with " << what << " of type "
                         << type << " is not supported by -adj-to-linalg yet";
}

/// True when a leaf of `type` is a function value.
bool hasFunctionLeaf(Type type) {
  SmallVector<Type> leaves;
  flattenLeaves(type, leaves);
  return llvm::any_of(leaves, llvm::IsaPred<adj::FnType>);
}

/// Checks the ops of the host-side structure; std::nullopt for the others.
std::optional<LogicalResult> checkStructure(Operation *op) {
  if (auto func = dyn_cast<adj::FuncOp>(op)) {
    for (Type type : func.getFunctionType().getInputs())
      if (failed(checkHostType(op, type, "an argument")))
        return failure();
    for (Type type : func.getFunctionType().getResults())
      if (failed(checkHostType(op, type, "a result")))
        return failure();
    return success();
  }
  if (isa<adj::LambdaOp>(op))
    return op->emitError()
           << "adj.lambda is not supported by -adj-to-linalg: run "
              "-adj-closure-convert (the end of -adj-optimize) first";
  if (isa<adj::GradOp, adj::ValueAndGradOp, adj::VjpOp, adj::JvpOp,
          adj::VmapOp>(op))
    return op->emitError() << op->getName()
                           << " is not supported by -adj-to-linalg: run "
                              "-adj-grad first";
  // Sensitivities of tuples and environments; tensors are primitives.
  if (isa<adj::ZerosLikeOp, adj::GradAddOp>(op) &&
      isa<RankedTensorType>(op->getResult(0).getType()))
    return std::nullopt;
  if (!isa<adj::FuncRefOp, adj::ClosureOp, adj::CallOp, adj::ReturnOp,
           adj::TupleOp, adj::GetOp, adj::IfOp, adj::ForOp, adj::WhileOp,
           adj::YieldOp, adj::EnvNewOp, adj::EnvGetOp, adj::EnvSetOp,
           adj::EnvAddOp, adj::ZerosLikeOp, adj::GradAddOp>(op))
    return std::nullopt;
  for (Type type : op->getOperandTypes())
    if (failed(checkHostType(op, type, "an operand")))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(checkHostType(op, type, "a result")))
      return failure();
  for (Region &region : op->getRegions())
    for (Type type : region.getArgumentTypes())
      if (failed(checkHostType(op, type, "a region argument")))
        return failure();
  // Sensitivities never hold function values; environments hold
  // sensitivities.
  Type stored;
  if (auto get = dyn_cast<adj::EnvGetOp>(op))
    stored = get.getType();
  else if (auto set = dyn_cast<adj::EnvSetOp>(op))
    stored = set.getValue().getType();
  else if (isa<adj::ZerosLikeOp, adj::GradAddOp>(op))
    stored = op->getResult(0).getType();
  if (stored && hasFunctionLeaf(stored))
    return op->emitError() << op->getName() << " of a value of type "
                           << stored
                           << " (holding a function) is not supported by "
                              "-adj-to-linalg";
  return success();
}

/// Ops of other dialects (a func.func driver, say) may use the results of
/// adj ops only when those are tensors: nothing converts their types.
LogicalResult checkForeign(Operation *op) {
  auto isAdjType = [](Type type) {
    return isa<adj::AdjDialect>(type.getDialect());
  };
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Region &region : op->getRegions())
    llvm::append_range(types, region.getArgumentTypes());
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    llvm::append_range(types, func.getArgumentTypes());
  for (Type type : types)
    if (isAdjType(type))
      return op->emitError()
             << op->getName() << " on a value of type " << type
             << " is not supported by -adj-to-linalg: only adj ops may "
                "take function values, tuples and environments";
  return success();
}

/// Reports why `op` cannot be lowered for `target` yet, or succeeds. The
/// tensor primitives that can are those with a pattern in `primitives`.
LogicalResult checkSupported(Operation *op, StringRef target,
                             const llvm::DenseSet<OperationName> &primitives) {
  if (!isa<adj::AdjDialect>(op->getDialect()))
    return checkForeign(op);
  auto unsupported = [&]() {
    return op->emitError() << op->getName()
                           << " is not supported by -adj-to-linalg yet";
  };
  if (std::optional<LogicalResult> structural = checkStructure(op))
    return *structural;
  // The CPU calls FFTW; GPU targets call a library or the generated FFT,
  // which -adj-expand-fft{outline} names on the op.
  if (isa<adj::FftOp>(op) && target != "cpu" &&
      !op->hasAttr(kGeneratedFftAttrName))
    return op->emitError() << op->getName()
                           << " reaches -adj-to-linalg for target '" << target
                           << "' without its generated FFT: run "
                              "-adj-expand-fft{outline} first";
  if (!primitives.contains(op->getName()))
    return unsupported();
  for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                      op->getResultTypes()))
    if (!isLowerableTensor(type))
      return op->emitError()
             << op->getName() << " on a value of type " << type
             << " is not supported by -adj-to-linalg yet (it needs a "
                "statically shaped integer, float or complex tensor)";

  if (auto constant = dyn_cast<adj::ConstantOp>(op))
    if (!isa<TypedAttr>(constant.getValue()))
      return unsupported();
  return success();
}

} // namespace

void lowering::populatePrimitivePatterns(RewritePatternSet &patterns,
                                         bool gpu) {
  populateElementwisePatterns(patterns);
  populateContractionPatterns(patterns);
  populateReductionsPatterns(patterns);
  populateConvolutionPatterns(patterns);
  populateMovementPatterns(patterns);
  populateCreationPatterns(patterns);
  populateDerivativesPatterns(patterns);
  populateBitsPatterns(patterns);
  populateLinearAlgebraPatterns(patterns, gpu);
}

namespace {

struct AdjToLinalg : adjoint::impl::AdjToLinalgBase<AdjToLinalg> {
  using AdjToLinalgBase::AdjToLinalgBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    populatePrimitivePatterns(patterns, target != "cpu");
    llvm::DenseSet<OperationName> primitives;
    for (const std::unique_ptr<RewritePattern> &pattern :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind())
        primitives.insert(*root);
    bool failed = false;
    // Pre-order, skipping the regions of a rejected op: one error for an
    // unsupported adj.for, not one more for its adj.yield.
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (succeeded(checkSupported(op, target, primitives)))
        return WalkResult::advance();
      failed = true;
      return WalkResult::skip();
    });
    if (failed)
      return signalPassFailure();

    HostPlan plan;
    if (mlir::failed(buildHostPlan(module, plan)))
      return signalPassFailure();
    declareRuntime(module, plan);

    HostTypeConverter converter;
    ConversionTarget legal(*ctx);
    legal.addIllegalDialect<adj::AdjDialect>();
    legal.addLegalDialect<arith::ArithDialect, complex::ComplexDialect,
                          func::FuncDialect, linalg::LinalgDialect,
                          math::MathDialect,
                          scf::SCFDialect, tensor::TensorDialect>();
    legal.addLegalDialect<bufferization::BufferizationDialect,
                          LLVM::LLVMDialect, memref::MemRefDialect>();
    legal.addLegalOp<ModuleOp>();

    populateFunctionPatterns(converter, plan, patterns);
    populateControlFlowPatterns(converter, patterns);
    populateTuplePatterns(converter, patterns);
    populateFunctionValuePatterns(converter, plan, patterns);
    populateEnvironmentPatterns(converter, patterns);
    if (mlir::failed(applyFullConversion(module, legal, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
