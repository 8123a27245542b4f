//===- KernelBuilder.cpp - Helpers for hand-built GPU kernels -------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

MemRefType adjoint::gpu::workgroupBuffer(ArrayRef<int64_t> shape,
                                         Type element) {
  auto space = mlir::gpu::AddressSpaceAttr::get(
      element.getContext(), mlir::gpu::AddressSpace::Workgroup);
  return MemRefType::get(shape, element, MemRefLayoutAttrInterface(), space);
}

Value adjoint::gpu::indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

mlir::gpu::LaunchOp
adjoint::gpu::createLaunch(OpBuilder &b, Location loc, const LaunchShape &shape,
                           ArrayRef<MemRefType> workgroupBuffers) {
  SmallVector<Value, 6> sizes;
  for (int64_t s : shape.grid)
    sizes.push_back(indexConstant(b, loc, s));
  for (int64_t s : shape.block)
    sizes.push_back(indexConstant(b, loc, s));
  SmallVector<Type> buffers(workgroupBuffers.begin(), workgroupBuffers.end());
  auto launch = mlir::gpu::LaunchOp::create(
      b, loc, sizes[0], sizes[1], sizes[2], sizes[3], sizes[4], sizes[5],
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, buffers);
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto terminator = mlir::gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(terminator);
  return launch;
}

SmallVector<Value> adjoint::gpu::applyMap(OpBuilder &b, Location loc,
                                          AffineMap map, ValueRange dims) {
  SmallVector<Value> results;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      results.push_back(dims[d.getPosition()]);
      continue;
    }
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      results.push_back(indexConstant(b, loc, c.getValue()));
      continue;
    }
    results.push_back(affine::expandAffineExpr(b, loc, e, dims, {}));
  }
  return results;
}

SmallVector<Value> adjoint::gpu::delinearize(OpBuilder &b, Location loc,
                                             Value linear,
                                             ArrayRef<int64_t> sizes) {
  SmallVector<Value> coords(sizes.size());
  Value rest = linear;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i >= 0; --i) {
    if (i == 0) {
      coords[i] = rest;
      break;
    }
    if (sizes[i] == 1) {
      coords[i] = indexConstant(b, loc, 0);
      continue;
    }
    Value size = indexConstant(b, loc, sizes[i]);
    coords[i] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  return coords;
}

Value adjoint::gpu::lessThan(OpBuilder &b, Location loc, Value lhs,
                             Value rhs) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs, rhs);
}

Value adjoint::gpu::guardedLoad(OpBuilder &b, Location loc, Value inBounds,
                                Value memref, ValueRange indices) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{element}, inBounds,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value loaded = memref::LoadOp::create(b, loc, memref, indices);
  scf::YieldOp::create(b, loc, loaded);
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  scf::YieldOp::create(b, loc, zero);
  return ifOp.getResult(0);
}

void adjoint::gpu::emitIf(OpBuilder &b, Location loc, Value cond,
                          const std::function<void(OpBuilder &)> &then) {
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  then(b);
}

SmallVector<Value> adjoint::gpu::applyPayload(OpBuilder &b,
                                              linalg::LinalgOp op,
                                              ValueRange args,
                                              ValueRange loopIndices) {
  Block *body = op.getBlock();
  IRMapping map;
  map.map(body->getArguments(), args);
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), loopIndices[index.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
  SmallVector<Value> yielded;
  for (Value v : body->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

std::optional<TypedAttr> adjoint::gpu::initConstant(linalg::LinalgOp op,
                                                    OpOperand &init) {
  auto constants = op->getAttrOfType<ArrayAttr>(kInitConstantsAttrName);
  if (!constants || !op.isDpsInit(&init))
    return std::nullopt;
  unsigned k = init.getOperandNumber() - op.getNumDpsInputs();
  if (k >= constants.size())
    return std::nullopt;
  if (auto value = dyn_cast<TypedAttr>(constants[k]))
    return value;
  return std::nullopt;
}

Value adjoint::gpu::loadInit(OpBuilder &b, Location loc, linalg::LinalgOp op,
                             OpOperand &init, ValueRange at) {
  if (std::optional<TypedAttr> value = initConstant(op, init))
    return arith::ConstantOp::create(b, loc, *value);
  return memref::LoadOp::create(b, loc, init.get(), at);
}

Value adjoint::gpu::loadOperand(OpBuilder &b, Location loc,
                                linalg::LinalgOp op, OpOperand &operand,
                                ValueRange loopIndices) {
  Value memref = operand.get();
  if (!isa<MemRefType>(memref.getType()))
    return memref; // a scalar input is its own value at every point
  if (std::optional<TypedAttr> value = initConstant(op, operand))
    return arith::ConstantOp::create(b, loc, *value);
  SmallVector<Value> indices =
      applyMap(b, loc, op.getMatchingIndexingMap(&operand), loopIndices);
  return memref::LoadOp::create(b, loc, memref, indices);
}

bool adjoint::gpu::hasStaticMemrefOperands(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (!memref.hasStaticShape())
        return false;
    } else if (!type.isIntOrIndexOrFloat()) {
      return false;
    }
  }
  for (int64_t size : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(size))
      return false;
  return true;
}

void adjoint::gpu::barrier(OpBuilder &b, Location loc) {
  mlir::gpu::BarrierOp::create(b, loc);
}
