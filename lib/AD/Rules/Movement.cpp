//===- Movement.cpp - Rules of the shape and data movement primitives -----===//
//
// These ops are linear, so every jvp is the op applied to the tangent, and
// every bprop its transpose: broadcast <-> sum, slice <-> pad, gather <->
// scatter_add.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

using Ts = ArrayRef<Val>;

void adjoint::ad::rules::addMovementRules(RuleMap &m) {
  define<BroadcastToOp>(
      m,
      [](Emitter &e, BroadcastToOp op, Val dy) -> Sens {
        return {e.unbroadcast(dy, op.getInput())};
      },
      [](Emitter &e, BroadcastToOp op, Ts t) {
        return e.broadcastTo(t[0], op.getType());
      });

  define<ReshapeOp>(
      m,
      [](Emitter &e, ReshapeOp op, Val dy) -> Sens {
        return {e.reshape(dy, tensorOf(op.getInput()).getShape())};
      },
      [](Emitter &e, ReshapeOp op, Ts t) {
        return e.reshape(t[0], tensorOf(op).getShape());
      });

  define<TransposeOp>(
      m,
      [](Emitter &e, TransposeOp op, Val dy) -> Sens {
        ArrayRef<int64_t> perm = op.getPerm();
        SmallVector<int64_t> inverse(perm.size());
        for (auto [i, p] : llvm::enumerate(perm))
          inverse[p] = i;
        return {e.transpose(dy, inverse)};
      },
      [](Emitter &e, TransposeOp op, Ts t) {
        return e.transpose(t[0], op.getPerm());
      });

  // The sensitivity goes back to every stride-th position from start:
  // zeros interleaved after each element, then padded (or, past the last
  // element read, cropped) to the input's extent.
  define<SliceOp>(
      m,
      [](Emitter &e, SliceOp op, Val dy) -> Sens {
        ArrayRef<int64_t> in = tensorOf(op.getInput()).getShape();
        if (tensorOf(op).getNumElements() == 0)
          return {e.zerosLike(op.getInput())};
        SmallVector<int64_t> high;
        for (auto [d, n] : llvm::enumerate(dy.shape()))
          high.push_back(in[d] - op.getStart()[d] - n * op.getStride()[d]);
        return {e.padOrCrop(e.interleaveZeros(dy, op.getStride()),
                            op.getStart(), high)};
      },
      [](Emitter &e, SliceOp op, Ts t) {
        return e.slice(t[0], op.getStart(), op.getLimit(), op.getStride());
      });

  define<ConcatOp>(
      m,
      [](Emitter &e, ConcatOp op, Val dy) -> Sens {
        int64_t axis = op.getAxis(), offset = 0;
        SmallVector<int64_t> start(dy.shape().size(), 0);
        SmallVector<int64_t> limit(dy.shape());
        Sens sens;
        for (Value input : op.getInputs()) {
          start[axis] = offset;
          offset += tensorOf(input).getDimSize(axis);
          limit[axis] = offset;
          sens.push_back(e.slice(dy, start, limit));
        }
        return sens;
      },
      [](Emitter &e, ConcatOp op, Ts t) {
        // Every piece is needed; only here do missing tangents become zeros.
        SmallVector<Value> pieces;
        for (auto [input, tangent] : llvm::zip(op.getInputs(), t))
          pieces.push_back(tangent ? tangent : e.zerosLike(input));
        return e.make<ConcatOp>(pieces, op.getAxis());
      });

  define<PadOp>(
      m,
      [](Emitter &e, PadOp op, Val dy) -> Sens {
        SmallVector<int64_t> limit;
        for (auto [low, size] :
             llvm::zip(op.getLow(), tensorOf(op.getInput()).getShape()))
          limit.push_back(low + size);
        return {e.slice(dy, op.getLow(), limit)};
      },
      // The padding value is a constant: its tangent is zero.
      [](Emitter &e, PadOp op, Ts t) {
        return e.pad(t[0], op.getLow(), op.getHigh());
      });

  // Indices are integers: the wrapper gives them no sensitivity.
  define<GatherOp>(
      m,
      [](Emitter &e, GatherOp op, Val dy) -> Sens {
        Val indices = e.val(op.getIndices());
        return {e.scatterAdd(e.zerosLike(op.getTable()), indices, dy,
                             op.getAxis()),
                Val()};
      },
      [](Emitter &e, GatherOp op, Ts t) {
        return e.gather(t[0], e.val(op.getIndices()), op.getAxis());
      });

  define<ScatterAddOp>(
      m,
      [](Emitter &e, ScatterAddOp op, Val dy) -> Sens {
        return {dy, Val(),
                e.gather(dy, e.val(op.getIndices()), op.getAxis())};
      },
      [](Emitter &e, ScatterAddOp op, Ts t) -> Val {
        if (!t[2])
          return t[0];
        Val target = t[0] ? t[0] : e.zerosLike(op.getTarget());
        return e.scatterAdd(target, e.val(op.getIndices()), t[2],
                            op.getAxis());
      });
}
