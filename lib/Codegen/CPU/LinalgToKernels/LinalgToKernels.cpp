//===- LinalgToKernels.cpp - Matmul and conv to runtime kernel calls ------===//
//
// The pass and the helpers its patterns share: the kernel ABI is memref
// descriptors of fully dynamic strided type (so one entry point serves
// every shape, layout and transposed view) plus i64 scalars.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "adjoint/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace adjoint::cpu {
#define GEN_PASS_DEF_LINALGTOKERNELS
#include "adjoint/Codegen/CPU/Passes.h.inc"
} // namespace adjoint::cpu

using namespace mlir;

llvm::StringRef adjoint::kernels::kernelSuffix(Type elementType,
                                               bool complex) {
  if (elementType.isF32())
    return "f32";
  if (elementType.isF64())
    return "f64";
  if (auto c = dyn_cast<ComplexType>(elementType); c && complex) {
    if (c.getElementType().isF32())
      return "c64";
    if (c.getElementType().isF64())
      return "c128";
  }
  return "";
}

Value adjoint::kernels::castToDynamic(OpBuilder &b, Location loc, Value v) {
  auto type = cast<MemRefType>(v.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                       strides);
  auto dynamic = MemRefType::get(shape, type.getElementType(), layout,
                                 type.getMemorySpace());
  if (dynamic == type)
    return v;
  return memref::CastOp::create(b, loc, dynamic, v);
}

Value adjoint::kernels::i64Constant(OpBuilder &b, Location loc,
                                    int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}

bool adjoint::kernels::takeZeroFill(RewriterBase &rewriter, Operation *op,
                                    Value dest) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInitOperand(0)->get() != dest)
    return false;
  auto complexZero = [](Value v) {
    auto cst = v.getDefiningOp<complex::ConstantOp>();
    return cst && llvm::all_of(cst.getValue(), [](Attribute part) {
             auto f = dyn_cast<FloatAttr>(part);
             return f && f.getValue().isZero();
           });
  };
  if (!matchPattern(fill.value(), m_AnyZeroFloat()) &&
      !matchPattern(fill.value(), m_Zero()) && !complexZero(fill.value()))
    return false;
  rewriter.eraseOp(fill);
  return true;
}

void adjoint::kernels::replaceWithKernelCall(RewriterBase &rewriter,
                                             Operation *op,
                                             llvm::StringRef name,
                                             ValueRange args) {
  auto module = op->getParentOfType<ModuleOp>();
  auto type = rewriter.getFunctionType(args.getTypes(), {});
  if (!module.lookupSymbol<func::FuncOp>(name)) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(module.getBody());
    auto decl = func::FuncOp::create(rewriter, op->getLoc(), name, type);
    decl.setPrivate();
    // The runtime defines _mlir_ciface_<name>, taking descriptors by
    // pointer: the one calling convention that is stable across ranks.
    decl->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
  }
  rewriter.setInsertionPoint(op);
  func::CallOp::create(rewriter, op->getLoc(), name, TypeRange{}, args);
  rewriter.eraseOp(op);
}

namespace {

struct LinalgToKernels : adjoint::cpu::impl::LinalgToKernelsBase<LinalgToKernels> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    adjoint::kernels::populateContractionPatterns(patterns);
    adjoint::kernels::populateConvolutionPatterns(patterns);
    // Each pattern erases its root, so the driver converges; a product it
    // did not reach would still be correct (loops).
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
