//===- Reductions.cpp - Rules of matmul and the reductions ----------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

using Ts = ArrayRef<Val>;

/// The shape of a reduction's result with keepdims (reduced axes as 1s).
static SmallVector<int64_t> keptShape(Value input, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> shape(tensorOf(input).getShape());
  for (int64_t axis : axes)
    shape[axis] = 1;
  return shape;
}

/// A reduction's result (or its sensitivity) with the reduced axes kept, so
/// that it broadcasts against the input.
template <typename OpT> static Val kept(Emitter &e, OpT op, Val v) {
  return e.reshape(v, keptShape(op.getInput(), op.getAxes()));
}

/// The number of elements each output of a reduction combines.
template <typename OpT> static int64_t reducedCount(OpT op) {
  int64_t count = 1;
  for (int64_t axis : op.getAxes())
    count *= tensorOf(op.getInput()).getDimSize(axis);
  return count;
}

/// The weight of each input element in reduce_max's derivative: 1/k at the
/// k positions equal to the maximum, 0 elsewhere. Ties share the sensitivity
/// equally (the mean of the one-sided derivatives, as TensorFlow and JAX
/// do), rather than PyTorch's first-index choice, which depends on the
/// traversal order.
static Val maxWeights(Emitter &e, ReduceMaxOp op) {
  Val x = e.val(op.getInput());
  Val hit = e.indicator(
      e.cmp(CmpPredicate::eq, x, kept(e, op, e.val(op.getResult()))), x);
  return hit / e.reduceSum(hit, op.getAxes(), /*keepdims=*/true);
}

void adjoint::ad::rules::addReductionRules(RuleMap &m) {
  // C = A @ B over broadcast batch dimensions: dA = dC @ B^T and
  // dB = A^T @ dC, summed over the batch dimensions each operand was
  // broadcast along.
  define<MatmulOp>(
      m,
      [](Emitter &e, MatmulOp op, Val dy) -> Sens {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        return {e.unbroadcast(e.matmul(dy, e.transposeLast2(b)), a),
                e.unbroadcast(e.matmul(e.transposeLast2(a), dy), b)};
      },
      [](Emitter &e, MatmulOp op, Ts t) {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        return e.sum({t[0] ? e.matmul(t[0], b) : Val(),
                      t[1] ? e.matmul(a, t[1]) : Val()},
                     op.getType());
      });

  define<ReduceSumOp>(
      m,
      [](Emitter &e, ReduceSumOp op, Val dy) -> Sens {
        return {e.broadcastTo(kept(e, op, dy), op.getInput().getType())};
      },
      [](Emitter &e, ReduceSumOp op, Ts t) {
        return e.reduceSum(t[0], op.getAxes(), op.getKeepdims());
      });

  define<ReduceMeanOp>(
      m,
      [](Emitter &e, ReduceMeanOp op, Val dy) -> Sens {
        Val share = kept(e, op, dy) / static_cast<double>(reducedCount(op));
        return {e.broadcastTo(share, op.getInput().getType())};
      },
      [](Emitter &e, ReduceMeanOp op, Ts t) {
        return e.make<ReduceMeanOp>(t[0], op.getAxes(), op.getKeepdims());
      });

  define<ReduceMaxOp>(
      m,
      [](Emitter &e, ReduceMaxOp op, Val dy) -> Sens {
        return {maxWeights(e, op) * kept(e, op, dy)};
      },
      [](Emitter &e, ReduceMaxOp op, Ts t) {
        return e.reduceSum(maxWeights(e, op) * t[0], op.getAxes(),
                           op.getKeepdims());
      });
}
