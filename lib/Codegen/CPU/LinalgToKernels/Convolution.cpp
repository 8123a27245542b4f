//===- Convolution.cpp - linalg.conv_2d_nchw_fchw to kernel calls ---------===//
//
// The runtime's convolution takes the input, the filter and the output with
// any stride and dilation; it accumulates into the output like the linalg
// op, or overwrites it when the zero fill before it is dropped.
//
// AdjToLinalg pads the input with tensor.pad, which bufferization turns into
// a zero-filled buffer and a copy of the input into its interior. The kernel
// reads the padding as zeros instead (its im2col writes them), so when the
// padded buffer serves the convolution alone the fill and the copy go and
// the kernel gets the unpadded input and the top/left padding: one pass
// over the input and one buffer fewer per convolution.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "adjoint/Codegen/Common/ViewRoot.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace adjoint::kernels;

namespace {

/// True when `op` writes zeros over all of `buffer`: a linalg.fill of zero,
/// or a linalg.map without inputs that yields zero.
bool isZeroFill(Operation *op, Value buffer) {
  auto isZero = [](Value v) {
    return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
  };
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.hasPureBufferSemantics() &&
           fill.getDpsInitOperand(0)->get() == buffer && isZero(fill.value());
  if (auto map = dyn_cast<linalg::MapOp>(op)) {
    if (!map.hasPureBufferSemantics() || !map.getInputs().empty() ||
        map.getInit() != buffer)
      return false;
    auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
    return yield.getNumOperands() == 1 && isZero(yield.getOperand(0));
  }
  return false;
}

/// A convolution input that was `source` padded with zeros: `top` rows and
/// `left` columns before it, as many after as the windows read.
struct ZeroPadded {
  Value source;
  int64_t top = 0, left = 0;
  memref::AllocOp buffer;
  Operation *fill = nullptr;
  memref::SubViewOp interior;
  memref::CopyOp copy;
  SmallVector<Operation *> deallocs;
  /// Deallocations of `source` between the copy and the convolution, which
  /// must now follow the convolution.
  SmallVector<Operation *> sourceDeallocs;
};

/// Matches `input` of `conv` to the buffer of a zero tensor.pad: an alloc
/// that is zero-filled, gets `source` copied into its interior and is then
/// read by `conv` alone, with nothing between the copy and `conv` that could
/// write `source`.
std::optional<ZeroPadded> matchZeroPadding(linalg::Conv2DNchwFchwOp conv,
                                           Value input) {
  ZeroPadded m;
  m.buffer = input.getDefiningOp<memref::AllocOp>();
  if (!m.buffer || m.buffer->getBlock() != conv->getBlock())
    return std::nullopt;
  for (OpOperand &use : m.buffer->getUses()) {
    Operation *user = use.getOwner();
    if (user == conv) {
      if (use.getOperandNumber() != 0)
        return std::nullopt;
    } else if (isa<memref::DeallocOp>(user)) {
      m.deallocs.push_back(user);
    } else if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      if (m.interior)
        return std::nullopt;
      m.interior = view;
    } else if (!m.fill && isZeroFill(user, m.buffer)) {
      m.fill = user;
    } else {
      return std::nullopt;
    }
  }
  if (!m.fill || !m.interior || !m.interior->hasOneUse())
    return std::nullopt;
  m.copy = dyn_cast<memref::CopyOp>(*m.interior->user_begin());
  if (!m.copy || m.copy.getTarget() != m.interior.getResult() ||
      m.copy->getBlock() != conv->getBlock() ||
      m.fill->getBlock() != conv->getBlock() ||
      !m.fill->isBeforeInBlock(m.copy) || !m.copy->isBeforeInBlock(conv))
    return std::nullopt;
  // The interior: all of N and C, unit strides, static H/W offsets.
  ArrayRef<int64_t> offsets = m.interior.getStaticOffsets();
  ArrayRef<int64_t> sizes = m.interior.getStaticSizes();
  ArrayRef<int64_t> full = m.buffer.getType().getShape();
  if (llvm::any_of(m.interior.getStaticStrides(),
                   [](int64_t s) { return s != 1; }) ||
      offsets[0] != 0 || offsets[1] != 0 || sizes[0] != full[0] ||
      sizes[1] != full[1] || ShapedType::isDynamic(offsets[2]) ||
      ShapedType::isDynamic(offsets[3]))
    return std::nullopt;
  m.source = m.copy.getSource();
  m.top = offsets[2];
  m.left = offsets[3];
  // Between the copy and the convolution: nothing that may write the
  // source. Buffers allocated there are fresh and cannot alias it.
  Value root = adjoint::viewRoot(m.source);
  llvm::SmallPtrSet<Value, 8> fresh;
  for (Operation *op = m.copy->getNextNode(); op != conv;
       op = op->getNextNode()) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      if (adjoint::viewRoot(dealloc.getMemref()) == root)
        m.sourceDeallocs.push_back(op);
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      fresh.insert(alloc.getResult());
      continue;
    }
    if (isMemoryEffectFree(op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && linalgOp.hasPureBufferSemantics() &&
        llvm::all_of(linalgOp.getDpsInits(), [&](Value init) {
          return fresh.contains(adjoint::viewRoot(init));
        }))
      continue;
    return std::nullopt;
  }
  return m;
}

struct Conv2DToKernel : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "not on memrefs");
    Value input = op.getDpsInputOperand(0)->get();
    Value filter = op.getDpsInputOperand(1)->get();
    Value output = op.getDpsInitOperand(0)->get();
    Type elem = cast<MemRefType>(output.getType()).getElementType();
    StringRef suffix = kernelSuffix(elem);
    if (suffix.empty() ||
        cast<MemRefType>(input.getType()).getElementType() != elem ||
        cast<MemRefType>(filter.getType()).getElementType() != elem)
      return rewriter.notifyMatchFailure(op, "no kernel for these types");
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    bool accumulate = !takeZeroFill(rewriter, op, output);
    std::optional<ZeroPadded> padded = matchZeroPadding(op, input);
    Value args[] = {castToDynamic(rewriter, loc,
                                  padded ? padded->source : input),
                    castToDynamic(rewriter, loc, filter),
                    castToDynamic(rewriter, loc, output),
                    i64Constant(rewriter, loc, strides[0]),
                    i64Constant(rewriter, loc, strides[1]),
                    i64Constant(rewriter, loc, dilations[0]),
                    i64Constant(rewriter, loc, dilations[1]),
                    i64Constant(rewriter, loc, padded ? padded->top : 0),
                    i64Constant(rewriter, loc, padded ? padded->left : 0),
                    i64Constant(rewriter, loc, accumulate)};
    // A convolution is never a terminator: the call lands before `next`.
    Operation *next = op->getNextNode();
    replaceWithKernelCall(rewriter, op,
                          ("adj_kernel_conv2d_nchw_fchw_" + suffix).str(),
                          args);
    if (!padded)
      return success();
    // The call now reads the source: it must outlive it.
    Operation *call = next->getPrevNode();
    for (Operation *dealloc : padded->sourceDeallocs)
      rewriter.moveOpAfter(dealloc, call);
    rewriter.eraseOp(padded->copy);
    rewriter.eraseOp(padded->interior);
    rewriter.eraseOp(padded->fill);
    for (Operation *dealloc : padded->deallocs)
      rewriter.eraseOp(dealloc);
    rewriter.eraseOp(padded->buffer);
    return success();
  }
};

} // namespace

void adjoint::kernels::populateConvolutionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<Conv2DToKernel>(patterns.getContext());
}
