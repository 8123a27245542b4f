//===- KernelLayouts.cpp - Only static layouts reach kernels --------------===//

#include "KernelLayouts.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace adjoint {
#define GEN_PASS_DEF_KERNELLAYOUTS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

bool adjoint::gpu::hasStaticLayout(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         !llvm::any_of(strides, ShapedType::isDynamic);
}

namespace {

/// `value` (a buffer with a dynamic layout that is not a view made here, as
/// scf.if results are when the branches' layouts differ) becomes, for the
/// kernel, a flat buffer from its base pointer plus its offset and strides
/// as scalars; its loads and stores in the kernel index the flat buffer.
LogicalResult flattenIntoKernel(mlir::gpu::LaunchOp launch, Value value) {
  auto type = cast<MemRefType>(value.getType());
  Location loc = value.getLoc();
  Region &body = launch.getBody();
  for (OpOperand &use : value.getUses())
    if (body.isAncestor(use.getOwner()->getParentRegion()) &&
        !isa<memref::LoadOp, memref::StoreOp>(use.getOwner()))
      return use.getOwner()->emitError(
          "a kernel can only load and store a buffer of dynamic layout ")
             << type;
  OpBuilder b(launch);
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, value);
  // One past the last element the view can reach.
  Value extent = arith::AddIOp::create(
      b, loc, md.getOffset(), arith::ConstantIndexOp::create(b, loc, 1));
  for (auto [size, stride] : llvm::zip(type.getShape(), md.getStrides()))
    extent = arith::AddIOp::create(
        b, loc, extent,
        arith::MulIOp::create(
            b, loc, arith::ConstantIndexOp::create(b, loc, size - 1),
            stride));
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, md.getBaseBuffer(), b.getIndexAttr(0),
      ArrayRef<OpFoldResult>{extent},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
    Operation *user = use.getOwner();
    if (!body.isAncestor(user->getParentRegion()))
      continue;
    OpBuilder kb(user);
    auto indices = isa<memref::LoadOp>(user)
                       ? cast<memref::LoadOp>(user).getIndices()
                       : cast<memref::StoreOp>(user).getIndices();
    Value linear = md.getOffset();
    for (auto [index, stride] : llvm::zip(indices, md.getStrides()))
      linear = arith::AddIOp::create(
          kb, loc, linear, arith::MulIOp::create(kb, loc, index, stride));
    if (auto load = dyn_cast<memref::LoadOp>(user))
      load.getResult().replaceAllUsesWith(
          memref::LoadOp::create(kb, loc, flat, linear));
    else
      memref::StoreOp::create(kb, loc,
                              cast<memref::StoreOp>(user).getValueToStore(),
                              flat, linear);
    user->erase();
  }
  return success();
}

} // namespace

LogicalResult adjoint::gpu::legalizeKernelLayouts(mlir::gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  for (bool changed = true; changed;) {
    changed = false;
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(body, captured);
    for (Value value : captured) {
      auto type = dyn_cast<MemRefType>(value.getType());
      if (!type || hasStaticLayout(type))
        continue;
      Operation *view = value.getDefiningOp();
      if (!view || !isa<ViewLikeOpInterface>(view) ||
          view->getNumResults() != 1) {
        if (failed(flattenIntoKernel(launch, value)))
          return failure();
        changed = true;
        continue;
      }
      OpBuilder b = OpBuilder::atBlockBegin(&body.front());
      Operation *copy = b.clone(*view);
      replaceAllUsesInRegionWith(value, copy->getResult(0), body);
      changed = true;
    }
  }
  return success();
}

namespace {

struct KernelLayouts : adjoint::impl::KernelLayoutsBase<KernelLayouts> {
  void runOnOperation() override {
    WalkResult legal = getOperation().walk([](mlir::gpu::LaunchOp launch) {
      return failed(adjoint::gpu::legalizeKernelLayouts(launch))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (legal.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
