//===- DeviceBuffers.cpp - Which host buffers hold device memory ----------===//

#include "DeviceBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using adjoint::gpu::DeviceBuffers;

Value DeviceBuffers::find(Value v) {
  auto it = parent.find(v);
  if (it == parent.end())
    return v;
  Value root = find(it->second);
  parent[v] = root;
  return root;
}

void DeviceBuffers::join(Value a, Value b) {
  if (!isa<MemRefType>(a.getType()) || !isa<MemRefType>(b.getType()))
    return;
  a = find(a);
  b = find(b);
  if (a != b)
    parent[a] = b;
}

void DeviceBuffers::joinAll(ValueRange as, ValueRange bs) {
  for (auto [a, b] : llvm::zip(as, bs))
    join(a, b);
}

void DeviceBuffers::seed(Value v) {
  if (isa<MemRefType>(v.getType()))
    seeds.push_back(v);
}

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
      if (auto launch = dyn_cast<mlir::gpu::LaunchOp>(op)) {
        SetVector<Value> captured;
        getUsedValuesDefinedAbove(launch.getBody(), captured);
        for (Value v : captured)
          seed(v);
        return WalkResult::skip();
      }
      // The closure runtime copies boxed tensors on the call's device
      // (lib/Runtime/BoxMemory.h): the buffers whose addresses it takes are
      // device buffers, even where no kernel touches them.
      if (auto call = dyn_cast<func::CallOp>(op);
          call && call.getCallee().starts_with("adj_rt_tuple_"))
        for (Value operand : call.getOperands())
          if (auto pointer = operand.getDefiningOp<
                             memref::ExtractAlignedPointerAsIndexOp>())
            seed(pointer.getSource());
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
