//===- PaddedOperand.cpp - Reading a padded buffer from its source --------===//

#include "PaddedOperand.h"

#include "KernelBuilder.h"

#include "adjoint/Codegen/Common/ViewRoot.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// The constant `op` fills `buffer` with, if it is such a fill.
std::optional<TypedAttr> fillConstant(Operation *op, Value buffer) {
  TypedAttr constant;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (fill.getOutputs()[0] == buffer &&
        matchPattern(fill.getInputs()[0], m_Constant(&constant)))
      return constant;
    return std::nullopt;
  }
  auto map = dyn_cast<linalg::MapOp>(op);
  if (!map || !map.getInputs().empty() || map.getInit() != buffer)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
  if (matchPattern(yield.getOperand(0), m_Constant(&constant)))
    return constant;
  return std::nullopt;
}

/// Whether `op` may write or free memory (unknown effects count).
bool mayWrite(Operation *op) {
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op))
    return effects.hasEffect<MemoryEffects::Write>() ||
           effects.hasEffect<MemoryEffects::Free>();
  return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
         op->getNumRegions() != 0;
}

} // namespace

std::optional<PaddedOperand>
adjoint::gpu::findPaddedOperand(Operation *reader, Value buffer) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity())
    return std::nullopt;
  // The reader only reads the buffer: none of its outputs is in it.
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(reader))
    for (OpOperand &init : dps.getDpsInitsMutable())
      if (adjoint::viewRoot(init.get()) == buffer)
        return std::nullopt;
  PaddedOperand padded;
  padded.buffer = buffer;
  for (Operation *user : buffer.getUsers()) {
    if (user == reader || isa<memref::DeallocOp>(user))
      continue;
    if (std::optional<TypedAttr> constant = fillConstant(user, buffer)) {
      if (padded.fill)
        return std::nullopt;
      padded.fill = user;
      padded.constant = *constant;
      continue;
    }
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (!view || !view->hasOneUse())
      return std::nullopt;
    Operation *viewUser = *view->getUsers().begin();
    // A window the reader reads (a pooling window): static, all dims kept.
    if (viewUser == reader) {
      if (view.getType().getRank() != alloc.getType().getRank() ||
          llvm::any_of(view.getStaticOffsets(), ShapedType::isDynamic) ||
          llvm::any_of(view.getStaticStrides(), ShapedType::isDynamic))
        return std::nullopt;
      continue;
    }
    auto copy = dyn_cast<memref::CopyOp>(viewUser);
    if (padded.copy || !copy || copy.getTarget() != view.getResult())
      return std::nullopt;
    padded.copy = copy;
    padded.source = copy.getSource();
    padded.offsets.assign(view.getStaticOffsets());
    padded.sizes.assign(view.getStaticSizes());
    if (llvm::any_of(view.getStaticStrides(),
                     [](int64_t step) { return step != 1; }))
      return std::nullopt;
  }
  if (!padded.fill || !padded.copy ||
      padded.constant.getType() != alloc.getType().getElementType())
    return std::nullopt;
  auto sourceType = cast<MemRefType>(padded.source.getType());
  int64_t rank = alloc.getType().getRank();
  if (sourceType.getRank() != rank ||
      sourceType.getShape() != ArrayRef<int64_t>(padded.sizes) ||
      llvm::any_of(padded.offsets, ShapedType::isDynamic))
    return std::nullopt;
  // Fill, then copy, then the reader, in one block; the source keeps the
  // values it had at the copy until the reader runs.
  Block *block = reader->getBlock();
  if (padded.fill->getBlock() != block || padded.copy->getBlock() != block ||
      !padded.fill->isBeforeInBlock(padded.copy) ||
      !padded.copy->isBeforeInBlock(reader))
    return std::nullopt;
  // Bufferization frees the source right after the copy, its last use:
  // that deallocation moves after the reader, which reads the source now.
  Value root = adjoint::viewRoot(padded.source);
  SmallVector<Operation *> frees;
  for (Operation *op = padded.copy->getNextNode(); op != reader;
       op = op->getNextNode()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(op);
    if (dealloc && dealloc.getMemref() == root)
      frees.push_back(op);
    else if (!dealloc && mayWrite(op))
      return std::nullopt;
  }
  for (Operation *free : frees)
    free->moveAfter(reader);
  return padded;
}

namespace {

/// `padded.buffer[indices]`, read from the source.
Value loadPadded(OpBuilder &b, Location loc, const PaddedOperand &padded,
                 ValueRange indices) {
  auto type = cast<MemRefType>(padded.buffer.getType());
  Value inside;
  SmallVector<Value> at;
  for (auto [d, index] : llvm::enumerate(indices)) {
    int64_t offset = padded.offsets[d], size = padded.sizes[d];
    if (offset == 0 && size == type.getDimSize(d)) {
      at.push_back(index);
      continue;
    }
    // rel = index - offset must be in [0, size).
    Value rel = arith::SubIOp::create(b, loc, index,
                                      indexConstant(b, loc, offset));
    auto cmp = [&](arith::CmpIPredicate p, int64_t c) {
      return arith::CmpIOp::create(b, loc, p, rel, indexConstant(b, loc, c))
          .getResult();
    };
    Value in = arith::AndIOp::create(b, loc,
                                     cmp(arith::CmpIPredicate::sge, 0),
                                     cmp(arith::CmpIPredicate::slt, size));
    // Clamped, so that the load outside the window stays in bounds.
    Value low = indexConstant(b, loc, 0);
    Value high = indexConstant(b, loc, size - 1);
    at.push_back(arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, rel, low), high));
    inside = inside ? arith::AndIOp::create(b, loc, inside, in).getResult()
                    : in;
  }
  Value value = memref::LoadOp::create(b, loc, padded.source, at);
  if (!inside)
    return value;
  Value constant = arith::ConstantOp::create(b, loc, padded.constant);
  return arith::SelectOp::create(b, loc, inside, value, constant);
}

} // namespace

Value adjoint::gpu::viewedBuffer(Value operand) {
  if (auto view = operand.getDefiningOp<memref::SubViewOp>())
    return view.getSource();
  return operand;
}

Value adjoint::gpu::loadThroughPadding(OpBuilder &b, Location loc,
                                       ArrayRef<PaddedOperand> padded,
                                       Value operand, ValueRange indices) {
  Value buffer = viewedBuffer(operand);
  const PaddedOperand *pad = llvm::find_if(
      padded, [&](const PaddedOperand &p) { return p.buffer == buffer; });
  if (pad == padded.end())
    return memref::LoadOp::create(b, loc, operand, indices);
  if (operand == buffer)
    return loadPadded(b, loc, *pad, indices);
  // A window of the buffer (findPaddedOperand accepted only static views
  // of all its dims): its element is the buffer's at offset + index *
  // stride.
  auto view = operand.getDefiningOp<memref::SubViewOp>();
  SmallVector<Value> at;
  for (auto [index, offset, stride] : llvm::zip(
           indices, view.getStaticOffsets(), view.getStaticStrides())) {
    Value element = index;
    if (stride != 1)
      element = arith::MulIOp::create(b, loc, element,
                                      indexConstant(b, loc, stride));
    if (offset != 0)
      element = arith::AddIOp::create(b, loc, element,
                                      indexConstant(b, loc, offset));
    at.push_back(element);
  }
  return loadPadded(b, loc, *pad, at);
}

bool adjoint::gpu::erasePaddingIfUnread(const PaddedOperand &padded) {
  Operation *view = padded.copy->getOperand(1).getDefiningOp();
  for (Operation *user : padded.buffer.getUsers()) {
    bool unreadView = isa<memref::SubViewOp>(user) && user->use_empty();
    if (user != padded.fill && user != view && !unreadView &&
        !isa<memref::DeallocOp>(user))
      return false;
  }
  padded.copy->erase();
  view->erase();
  padded.fill->erase();
  for (Operation *user : llvm::make_early_inc_range(padded.buffer.getUsers()))
    user->erase();
  padded.buffer.getDefiningOp()->erase();
  return true;
}
