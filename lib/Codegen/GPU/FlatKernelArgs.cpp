//===- FlatKernelArgs.cpp - memref<?xT> kernel arguments as pointers ------===//

#include "adjoint/Codegen/GPU/Passes.h"

#include <limits>

namespace adjoint {
#define GEN_PASS_DEF_FLATKERNELARGS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// A flat buffer of dynamic extent: what -adj-gpu-kernel-layouts makes of
/// dynamic layouts, and what bare pointers cannot carry.
bool isFlatDynamic(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getRank() == 1 && memref.isDynamicDim(0) &&
         memref.getLayout().isIdentity();
}

/// The use of `arg` other than as the buffer of a load or store, if any.
Operation *otherUse(BlockArgument arg) {
  for (OpOperand &use : arg.getUses()) {
    Operation *user = use.getOwner();
    if (auto load = dyn_cast<memref::LoadOp>(user))
      if (load.getMemRef() == arg)
        continue;
    if (auto store = dyn_cast<memref::StoreOp>(user))
      if (store.getMemRef() == arg)
        continue;
    return user;
  }
  return nullptr;
}

struct FlatKernelArgs
    : adjoint::impl::FlatKernelArgsBase<FlatKernelArgs> {
  void runOnOperation() override {
    bool failedKernel = false;
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel() || kernel.getBody().empty())
        continue;
      Block &entry = kernel.getBody().front();
      SmallVector<Type> inputs(kernel.getArgumentTypes());
      OpBuilder b(&entry, entry.begin());
      for (BlockArgument arg : entry.getArguments()) {
        if (arg.getArgNumber() >= inputs.size() ||
            !isFlatDynamic(arg.getType()))
          continue;
        auto flat = cast<MemRefType>(arg.getType());
        if (Operation *user = otherUse(arg)) {
          user->emitError("a kernel on CUDA or HIP only loads and stores its "
                          "argument #")
              << arg.getArgNumber() << " of type " << flat
              << " (a pointer); this '" << user->getName()
              << "' needs its extent";
          failedKernel = true;
          continue;
        }
        auto pointer =
            MemRefType::get({}, flat.getElementType(), AffineMap(),
                            flat.getMemorySpace());
        arg.setType(pointer);
        inputs[arg.getArgNumber()] = pointer;
        // The largest extent whose byte size fits an index: every real
        // buffer is within it.
        unsigned bytes = std::max<unsigned>(
            1, flat.getElementTypeBitWidth() / 8);
        Location loc = arg.getLoc();
        Value extent = arith::ConstantIndexOp::create(
            b, loc, std::numeric_limits<int64_t>::max() / bytes);
        auto view = memref::ReinterpretCastOp::create(
            b, loc, flat, arg, OpFoldResult(b.getIndexAttr(0)),
            ArrayRef<OpFoldResult>{extent},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
        arg.replaceAllUsesExcept(view.getResult(), view);
      }
      kernel.setFunctionType(FunctionType::get(
          &getContext(), inputs, kernel.getFunctionType().getResults()));
    }
    if (failedKernel)
      signalPassFailure();
  }
};

} // namespace
