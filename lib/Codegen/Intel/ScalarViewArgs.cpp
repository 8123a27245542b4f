//===- ScalarViewArgs.cpp - Rank-0 kernel views as rank-1 buffers ---------===//

#include "adjoint/Codegen/Intel/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace adjoint {
#define GEN_PASS_DEF_SCALARVIEWARGS
#include "adjoint/Codegen/Intel/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// The static offset of a rank-0 view that the SPIR-V conversion would
/// drop, or 0 when `type` is not one.
int64_t droppedOffset(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getRank() != 0)
    return 0;
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset))
    return 0;
  return offset;
}

/// Retypes kernel argument `arg` (a rank-0 view at `offset`) as the rank-1
/// buffer `flat` and indexes its loads and stores at `offset`.
LogicalResult retype(BlockArgument arg, MemRefType flat, int64_t offset) {
  OpBuilder b(arg.getContext());
  b.setInsertionPointToStart(arg.getOwner());
  Value index = arith::ConstantIndexOp::create(b, arg.getLoc(), offset);
  for (OpOperand &use : arg.getUses()) {
    Operation *user = use.getOwner();
    if (auto load = dyn_cast<memref::LoadOp>(user);
        load && load.getMemRef() == arg) {
      load.getIndicesMutable().assign(index);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(user);
        store && store.getMemRef() == arg) {
      store.getIndicesMutable().assign(index);
      continue;
    }
    return user->emitError("a SPIR-V kernel only loads and stores its "
                           "scalar view argument #")
           << arg.getArgNumber() << ", not '" << user->getName() << "'";
  }
  arg.setType(flat);
  return success();
}

struct ScalarViewArgs : adjoint::impl::ScalarViewArgsBase<ScalarViewArgs> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Per kernel (module and function symbol), the rank-1 type of each
    // retyped argument.
    DenseMap<SymbolRefAttr, SmallVector<std::pair<unsigned, MemRefType>>>
        retyped;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (!kernel.isKernel() || kernel.getBody().empty())
          continue;
        SmallVector<std::pair<unsigned, MemRefType>> changed;
        for (BlockArgument arg : kernel.getArguments()) {
          int64_t offset = droppedOffset(arg.getType());
          if (offset == 0)
            continue;
          auto view = cast<MemRefType>(arg.getType());
          auto flat = MemRefType::get({offset + 1}, view.getElementType(),
                                      MemRefLayoutAttrInterface(),
                                      view.getMemorySpace());
          if (failed(retype(arg, flat, offset)))
            return signalPassFailure();
          changed.push_back({arg.getArgNumber(), flat});
        }
        if (changed.empty())
          continue;
        kernel.setFunctionType(FunctionType::get(
            &getContext(), kernel.getBody().getArgumentTypes(),
            kernel.getFunctionType().getResults()));
        auto symbol = SymbolRefAttr::get(
            gpuModule.getNameAttr(),
            {FlatSymbolRefAttr::get(kernel.getNameAttr())});
        retyped[symbol] = std::move(changed);
      }
    }
    if (retyped.empty())
      return;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto found = retyped.find(launch.getKernel());
      if (found == retyped.end())
        return;
      OpBuilder b(launch);
      for (auto [index, flat] : found->second) {
        OpOperand &operand = launch.getKernelOperandsMutable()[index];
        Value view = memref::ReinterpretCastOp::create(
            b, launch.getLoc(), flat, operand.get(), /*offset=*/0,
            /*sizes=*/ArrayRef<int64_t>{flat.getDimSize(0)},
            /*strides=*/ArrayRef<int64_t>{1});
        operand.set(view);
      }
    });
  }
};

} // namespace
