//===- Reductions.cpp - Rules of reduce_sum, reduce_mean and reduce_max ---===//

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

void adjoint::ad::rules::addReductionsRules(RuleMap &m) {
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
