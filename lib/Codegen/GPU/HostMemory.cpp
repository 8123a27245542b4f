//===- HostMemory.cpp - Device buffers on the host -> runtime calls -------===//

#include "HostRuntime.h"
#include "LinalgToLaunch.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

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

bool hasStaticLayout(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         !llvm::any_of(strides, ShapedType::isDynamic);
}

/// `value` (a buffer with a dynamic layout that is not a view made here, as
/// scf.if results are when the branches' layouts differ) becomes, for the
/// kernel, a flat buffer from its base pointer plus its offset and strides
/// as scalars; its loads and stores in the kernel index the flat buffer.
LogicalResult flattenIntoKernel(gpu::LaunchOp launch, Value value) {
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
  Value extent = arith::AddIOp::create(b, loc, md.getOffset(),
                                       arith::ConstantIndexOp::create(b, loc, 1));
  for (auto [size, stride] : llvm::zip(type.getShape(), md.getStrides()))
    extent = arith::AddIOp::create(
        b, loc, extent,
        arith::MulIOp::create(
            b, loc, arith::ConstantIndexOp::create(b, loc, size - 1),
            stride));
  auto flatType = MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value flat = memref::ReinterpretCastOp::create(
      b, loc, flatType, md.getBaseBuffer(), b.getIndexAttr(0),
      ArrayRef<OpFoldResult>{extent}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
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

/// A view with a dynamic offset or strides (a row picked by an index read
/// from a tensor, say) cannot be a kernel argument: kernels take a memref
/// as one pointer and its layout from the type. Such views are made again
/// inside the kernel from their sources (which become the arguments) and
/// fold into the kernel's loads and stores; other buffers of dynamic layout
/// are flattened (flattenIntoKernel).
LogicalResult sinkDynamicViews(gpu::LaunchOp launch) {
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

/// Which host buffers hold device memory: classes of buffers that alias
/// (union-find), a class being on the device when one of its members can
/// reach a kernel or the caller.
class DeviceBuffers {
public:
  explicit DeviceBuffers(ModuleOp module);
  bool contains(Value v) { return device.contains(find(v)); }

private:
  Value find(Value v) {
    auto it = parent.find(v);
    if (it == parent.end())
      return v;
    Value root = find(it->second);
    parent[v] = root;
    return root;
  }
  void join(Value a, Value b) {
    if (!isa<MemRefType>(a.getType()) || !isa<MemRefType>(b.getType()))
      return;
    a = find(a);
    b = find(b);
    if (a != b)
      parent[a] = b;
  }
  void joinAll(ValueRange as, ValueRange bs) {
    for (auto [a, b] : llvm::zip(as, bs))
      join(a, b);
  }
  void seed(Value v) {
    if (isa<MemRefType>(v.getType()))
      seeds.push_back(v);
  }
  void visit(Operation *op, ModuleOp module);

  DenseMap<Value, Value> parent;
  SmallVector<Value> seeds;
  DenseSet<Value> device;
};

DeviceBuffers::DeviceBuffers(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isDeclaration())
      continue;
    // The caller passes and receives device buffers.
    if (func.isPublic()) {
      for (Value arg : func.getArguments())
        seed(arg);
      func.walk([&](func::ReturnOp ret) {
        for (Value v : ret.getOperands())
          seed(v);
      });
    }
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        SetVector<Value> captured;
        getUsedValuesDefinedAbove(launch.getBody(), captured);
        for (Value v : captured)
          seed(v);
        return WalkResult::skip();
      }
      visit(op, module);
      return WalkResult::advance();
    });
  }
  for (Value v : seeds)
    device.insert(find(v));
}

void DeviceBuffers::visit(Operation *op, ModuleOp module) {
  auto joinYields = [&](Region &region, ValueRange results) {
    if (!region.empty())
      joinAll(region.front().getTerminator()->getOperands(), results);
  };
  if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
    join(view.getViewSource(), op->getResult(0));
  } else if (auto md = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
    join(md.getSource(), md.getBaseBuffer());
  } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    join(copy.getSource(), copy.getTarget());
  } else if (auto clone = dyn_cast<bufferization::CloneOp>(op)) {
    join(clone.getInput(), clone.getOutput());
  } else if (auto select = dyn_cast<arith::SelectOp>(op)) {
    join(select.getTrueValue(), select.getResult());
    join(select.getFalseValue(), select.getResult());
  } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
    joinAll(loop.getInitArgs(), loop.getRegionIterArgs());
    joinAll(loop.getRegionIterArgs(), loop.getResults());
    joinYields(loop.getRegion(), loop.getResults());
  } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    joinAll(loop.getInits(), loop.getBeforeArguments());
    joinAll(loop.getConditionOp().getArgs(), loop.getResults());
    joinAll(loop.getAfterArguments(), loop.getResults());
    joinYields(loop.getAfter(), loop.getBeforeArguments());
  } else if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(op)) {
    for (Region &region : op->getRegions())
      joinYields(region, op->getResults());
  } else if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee || callee.isDeclaration())
      return;
    joinAll(call.getOperands(), callee.getArguments());
    callee.walk([&](func::ReturnOp ret) {
      joinAll(ret.getOperands(), call.getResults());
    });
  }
}

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
  WalkResult sunk = module.walk([&](gpu::LaunchOp launch) {
    return failed(sinkDynamicViews(launch)) ? WalkResult::interrupt()
                                            : WalkResult::advance();
  });
  if (sunk.wasInterrupted())
    return signalPassFailure();

  DeviceBuffers device(module);
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
