//===- HostMemory.cpp - Device buffers on the host -> runtime calls -------===//

#include "DeviceBuffers.h"
#include "HostRuntime.h"
#include "LinalgToLaunch.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace adjoint {
#define GEN_PASS_DEF_HOSTMEMORY
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using adjoint::gpu::bufferAddress;
using adjoint::gpu::elementBytes;
using adjoint::gpu::i64Constant;
using adjoint::gpu::memrefAt;

namespace {

/// Copy kernels for strided clones are rare (-adj-gpu-map-to-kernels makes
/// the ones of strided memref.copy ops) and small: the common workgroup size.
constexpr int64_t kCopyWorkgroupSize = 256;

struct HostMemory : adjoint::impl::HostMemoryBase<HostMemory> {
  void runOnOperation() override;

private:
  LogicalResult rewrite(Operation *op);
  Value call(OpBuilder &b, Location loc, StringRef name, TypeRange results,
             ValueRange args);
  Value hostSlot(OpBuilder &b, Operation *user, Type type);
  Value elementAddress(OpBuilder &b, Location loc, Value memref,
                       ValueRange indices);
  Value allocate(OpBuilder &b, Location loc, MemRefType type, Operation *op);

  Type ptrType;
  bool failedDeclaration = false;
};

Value HostMemory::call(OpBuilder &b, Location loc, StringRef name,
                       TypeRange results, ValueRange args) {
  auto type = b.getFunctionType(args.getTypes(), results);
  FailureOr<func::FuncOp> callee =
      adjoint::gpu::getRuntimeFunction(getOperation(), name, type);
  if (failed(callee)) {
    failedDeclaration = true;
    return Value();
  }
  auto op = func::CallOp::create(b, loc, *callee, args);
  return results.empty() ? Value() : op.getResult(0);
}

/// A host slot for one element, at the top of the function so that a loop
/// reading a device scalar each trip does not grow the stack.
Value HostMemory::hostSlot(OpBuilder &b, Operation *user, Type type) {
  OpBuilder::InsertionGuard guard(b);
  auto func = user->getParentOfType<func::FuncOp>();
  b.setInsertionPointToStart(&func.getBody().front());
  return LLVM::AllocaOp::create(b, user->getLoc(), ptrType, type,
                                i64Constant(b, user->getLoc(), 1));
}

Value HostMemory::elementAddress(OpBuilder &b, Location loc, Value memref,
                                 ValueRange indices) {
  auto md = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = md.getOffset();
  for (auto [index, stride] : llvm::zip(indices, md.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  int64_t bytes =
      elementBytes(cast<MemRefType>(memref.getType()).getElementType());
  Value offset = arith::MulIOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), linear),
      i64Constant(b, loc, bytes));
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(),
                             bufferAddress(b, loc, memref, false),
                             ArrayRef<LLVM::GEPArg>{offset});
}

Value HostMemory::allocate(OpBuilder &b, Location loc, MemRefType type,
                           Operation *op) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
    op->emitError("device buffers need a static shape and identity layout, "
                  "not ")
        << type;
    return Value();
  }
  int64_t bytes = type.getNumElements() * elementBytes(type.getElementType());
  Value pointer = call(b, loc, "adj_rt_gpu_alloc", ptrType,
                       i64Constant(b, loc, bytes));
  return pointer ? memrefAt(b, loc, pointer, type) : Value();
}

LogicalResult HostMemory::rewrite(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto bytesOf = [&](MemRefType type) {
    return i64Constant(b, loc,
                       type.getNumElements() *
                           elementBytes(type.getElementType()));
  };
  Value replacement;
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    replacement = allocate(b, loc, alloc.getType(), op);
  } else if (isa<memref::AllocaOp>(op)) {
    // Device memory has no stack: the buffer leaks to the pool's caller
    // unless something frees it, so refuse rather than leak.
    return op->emitError("a stack buffer cannot live on the device");
  } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
    call(b, loc, "adj_rt_gpu_free", {},
         bufferAddress(b, loc, dealloc.getMemref(), false));
  } else if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        op, get.getNameAttr());
    if (!global || !global.getConstant() || !get.getType().hasStaticShape())
      return op->emitError("only constant, statically shaped globals can "
                           "be used on the device");
    // Every current use moves to the device copy; the host address below
    // stays the only use of the host global.
    SmallVector<OpOperand *> uses(
        llvm::make_pointer_range(get.getResult().getUses()));
    b.setInsertionPointAfter(op);
    Value device =
        call(b, loc, "adj_rt_gpu_constant", ptrType,
             {bufferAddress(b, loc, get.getResult(), true),
              bytesOf(get.getType())});
    if (!device)
      return failure();
    Value memref = memrefAt(b, loc, device, get.getType());
    for (OpOperand *use : uses)
      use->set(memref);
    return success();
  } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    auto source = copy.getSource().getType();
    auto target = copy.getTarget().getType();
    if (!adjoint::gpu::isContiguous(source) ||
        !adjoint::gpu::isContiguous(target)) {
      IRRewriter rewriter(b);
      auto kernel = linalg::CopyOp::create(b, loc, copy.getSource(),
                                           copy.getTarget());
      rewriter.eraseOp(copy);
      return adjoint::gpu::mapLinalgOpToLaunch(rewriter, kernel,
                                                kCopyWorkgroupSize);
    }
    call(b, loc, "adj_rt_gpu_memcpy", {},
         {bufferAddress(b, loc, copy.getTarget(), true),
          bufferAddress(b, loc, copy.getSource(), true),
          bytesOf(cast<MemRefType>(source))});
  } else if (auto clone = dyn_cast<bufferization::CloneOp>(op)) {
    auto type = cast<MemRefType>(clone.getType());
    replacement = allocate(b, loc, type, op);
    if (!replacement)
      return failure();
    auto copy = memref::CopyOp::create(b, loc, clone.getInput(), replacement);
    clone.getOutput().replaceAllUsesWith(replacement);
    op->erase();
    return rewrite(copy);
  } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
    Type type = load.getType();
    Value slot = hostSlot(b, op, type);
    call(b, loc, "adj_rt_gpu_read", {},
         {slot, elementAddress(b, loc, load.getMemref(), load.getIndices()),
          i64Constant(b, loc, elementBytes(type))});
    replacement = LLVM::LoadOp::create(b, loc, type, slot);
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    Type type = store.getValueToStore().getType();
    Value slot = hostSlot(b, op, type);
    LLVM::StoreOp::create(b, loc, store.getValueToStore(), slot);
    call(b, loc, "adj_rt_gpu_write", {},
         {elementAddress(b, loc, store.getMemref(), store.getIndices()), slot,
          i64Constant(b, loc, elementBytes(type))});
  } else {
    return success();
  }
  if (failedDeclaration)
    return failure();
  if (op->getNumResults()) {
    if (!replacement)
      return failure();
    op->getResult(0).replaceAllUsesWith(replacement);
  }
  op->erase();
  return success();
}

/// Host ops that may hold a device buffer without touching its memory.
bool keepsDeviceBuffer(Operation *op) {
  return isa<ViewLikeOpInterface, memref::ExtractStridedMetadataOp,
             memref::ExtractAlignedPointerAsIndexOp, memref::DimOp,
             memref::RankOp, memref::AssumeAlignmentOp, func::CallOp,
             func::ReturnOp, scf::YieldOp, scf::ConditionOp, scf::ForOp,
             scf::IfOp, scf::WhileOp, scf::IndexSwitchOp, arith::SelectOp,
             gpu::LaunchOp, UnrealizedConversionCastOp>(op);
}

void HostMemory::runOnOperation() {
  ModuleOp module = getOperation();
  ptrType = LLVM::LLVMPointerType::get(&getContext());

  adjoint::gpu::DeviceBuffers device(module);
  SmallVector<Operation *> work;
  bool failedUse = false;
  for (auto func : module.getOps<func::FuncOp>())
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      bool touches = llvm::any_of(op->getOperands(), [&](Value v) {
        return isa<MemRefType>(v.getType()) && device.contains(v);
      });
      bool defines = llvm::any_of(op->getResults(), [&](Value v) {
        return isa<MemRefType>(v.getType()) && device.contains(v);
      });
      if (isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp>(op)
              ? defines
              : touches) {
        if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
                memref::GetGlobalOp, memref::CopyOp, bufferization::CloneOp,
                memref::LoadOp, memref::StoreOp>(op))
          work.push_back(op);
        else if (!keepsDeviceBuffer(op)) {
          op->emitError("this host op would touch device memory; run it in "
                        "a kernel (-adj-gpu-map-to-kernels handles linalg)");
          failedUse = true;
        }
      }
      return WalkResult::advance();
    });
  if (failedUse)
    return signalPassFailure();
  for (Operation *op : work)
    if (failed(rewrite(op)))
      return signalPassFailure();
}

} // namespace
