//===- Movement.cpp - Rules of the shape and data movement primitives -----===//
//
// These ops are linear, so every jvp is the op applied to the tangent, and
// every bprop its transpose: broadcast <-> sum, slice <-> pad, gather <->
// scatter_add. adj.scatter is not (it overwrites, multiplies or compares):
// its rules follow its mode.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

using Ts = ArrayRef<Val>;

/// Which updates of a `set` scatter land: position j of the indices wins
/// when no later position names the same slot (the op applies them in
/// order). As a mask of the updates' shape [A..., I..., B...]: the last
/// position of each slot is a scatter max of the positions, and position j
/// wins when that maximum at its slot is j.
static Val setWinners(Emitter &e, ScatterOp op) {
  auto indicesType = tensorOf(op.getIndices());
  int64_t count = indicesType.getNumElements(), axis = op.getAxis();
  int64_t slots = tensorOf(op.getTarget()).getDimSize(axis);
  SmallVector<int64_t> order(count);
  for (int64_t j = 0; j < count; ++j)
    order[j] = j;
  Val positions = e.indices(indicesType.getShape(), order);
  Val indices = e.val(op.getIndices());
  if (indicesType.getElementType() != e.builder().getI64Type())
    indices = e.cast(indices, e.builder().getI64Type());
  Val last = e.scatter(
      ScatterMode::max,
      e.fill(-1, RankedTensorType::get({slots}, e.builder().getI64Type())),
      indices, positions, 0);
  Val wins = e.cmp(CmpPredicate::eq, e.gather(last, indices, 0), positions);
  SmallVector<int64_t> shape(axis, 1);
  llvm::append_range(shape, indicesType.getShape());
  shape.append(tensorOf(op.getUpdates()).getRank() - shape.size(), 1);
  return e.reshape(wins, shape);
}

/// 1 where `a == b`, else 0, in `a`'s element type.
static Val equalTo(Emitter &e, Val a, Val b) {
  return e.indicator(e.cmp(CmpPredicate::eq, a, b), a);
}

namespace {
/// Who holds a slot of a min/max scatter's result: `kept` is 1 where the
/// target's own value equals it, `landed` 1 for each update that equals it,
/// `count` how many of them tie there (they share the slot's derivative).
struct SlotWinners {
  Val kept, landed, count;
};
} // namespace

static SlotWinners slotWinners(Emitter &e, ScatterOp op) {
  Val indices = e.val(op.getIndices()), y = e.val(op.getResult());
  Val x = e.val(op.getTarget()), u = e.val(op.getUpdates());
  int64_t axis = op.getAxis();
  Val kept = equalTo(e, x, y);
  Val landed = equalTo(e, u, e.gather(y, indices, axis));
  return {kept, landed,
          kept + e.scatterAdd(e.zerosLike(x), indices, landed, axis)};
}

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

  // set: overwritten slots get no sensitivity, the winning updates theirs
  // (exact with repeated indices). mul: exact for distinct indices; with a
  // repeated index an update's sensitivity misses the other updates'
  // factors at its slot. min/max: the winners (the target and every update
  // equal to the result at a slot) share a slot's sensitivity equally, so
  // ties and repeated indices are exact as a subgradient.
  define<ScatterOp>(
      m,
      [](Emitter &e, ScatterOp op, Val dy) -> Sens {
        Val indices = e.val(op.getIndices());
        Val x = e.val(op.getTarget()), u = e.val(op.getUpdates());
        int64_t axis = op.getAxis();
        switch (op.getMode()) {
        case ScatterMode::set:
          return {e.scatter(ScatterMode::set, dy, indices, e.zerosLike(u),
                            axis),
                  Val(), e.where(setWinners(e, op),
                                 e.gather(dy, indices, axis))};
        case ScatterMode::mul:
          return {e.scatter(ScatterMode::mul, dy, indices, u, axis), Val(),
                  e.gather(dy * x, indices, axis)};
        case ScatterMode::min:
        case ScatterMode::max: {
          auto [kept, landed, count] = slotWinners(e, op);
          return {dy * kept / count, Val(),
                  landed * e.gather(dy / count, indices, axis)};
        }
        }
        return {Val(), Val(), Val()};
      },
      [](Emitter &e, ScatterOp op, Ts t) -> Val {
        Val indices = e.val(op.getIndices());
        Val x = e.val(op.getTarget()), u = e.val(op.getUpdates());
        int64_t axis = op.getAxis();
        Val tx = t[0] ? t[0] : e.zerosLike(x);
        switch (op.getMode()) {
        case ScatterMode::set:
          return e.scatter(ScatterMode::set, tx, indices,
                           t[2] ? t[2] : e.zerosLike(u), axis);
        case ScatterMode::mul: {
          Val scaled = e.scatter(ScatterMode::mul, tx, indices, u, axis);
          if (!t[2])
            return scaled;
          return e.scatterAdd(scaled, indices,
                              e.gather(x, indices, axis) * t[2], axis);
        }
        case ScatterMode::min:
        case ScatterMode::max: {
          auto [kept, landed, count] = slotWinners(e, op);
          Val sum = t[0] ? t[0] * kept : e.zerosLike(x);
          if (t[2])
            sum = e.scatterAdd(sum, indices, t[2] * landed, axis);
          return sum / count;
        }
        }
        return Val();
      });
}
