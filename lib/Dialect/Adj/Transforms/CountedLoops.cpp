//===- CountedLoops.cpp - Trip counts of adj.for and counted adj.while ----===//

#include "adjoint/Dialect/Adj/Transforms/CountedLoops.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/IR/Matchers.h"

#include <cmath>
#include <limits>

using namespace mlir;

std::optional<int64_t> adjoint::adj::constantInt(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.getElementType().isInteger())
    return std::nullopt;
  // The grad transform and the front end make integer zeros as fills.
  if (auto fill = value.getDefiningOp<FillOp>()) {
    double v = fill.getValue().convertToDouble();
    if (type.getNumElements() != 1 || v != std::trunc(v) ||
        std::fabs(v) > 0x1p53)
      return std::nullopt;
    return static_cast<int64_t>(v);
  }
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || attr.getNumElements() != 1)
    return std::nullopt;
  return (*attr.begin()).getSExtValue();
}

Value adjoint::adj::constantI64(OpBuilder &b, Location loc, int64_t value) {
  auto type = RankedTensorType::get({}, b.getI64Type());
  return ConstantOp::create(
      b, loc, type,
      DenseElementsAttr::get(type, b.getI64IntegerAttr(value).getValue()));
}

namespace {

using namespace adjoint::adj;

/// `k + c` (or `c + k`) with `k` the argument `arg` and `c` a constant.
std::optional<int64_t> constantIncrement(Value next, BlockArgument arg) {
  auto add = next.getDefiningOp<AddOp>();
  if (!add || add.getType() != arg.getType())
    return std::nullopt;
  if (add.getLhs() == arg)
    return constantInt(add.getRhs());
  if (add.getRhs() == arg)
    return constantInt(add.getLhs());
  return std::nullopt;
}

std::optional<uint64_t> whileTripCount(WhileOp loop) {
  Block &cond = loop.getCond().front();
  Block &body = loop.getBody().front();
  auto cmp = cond.getTerminator()->getOperand(0).getDefiningOp<CmpOp>();
  if (!cmp)
    return std::nullopt;
  // Normalize `v > k` to `k < v` and `v >= k` to `k <= v`.
  Value counter = cmp.getLhs(), bound = cmp.getRhs();
  CmpPredicate predicate = cmp.getPredicate();
  if (predicate == CmpPredicate::gt || predicate == CmpPredicate::ge) {
    std::swap(counter, bound);
    predicate = predicate == CmpPredicate::gt ? CmpPredicate::lt
                                              : CmpPredicate::le;
  }
  auto arg = dyn_cast<BlockArgument>(counter);
  if ((predicate != CmpPredicate::lt && predicate != CmpPredicate::le) ||
      !arg || arg.getOwner() != &cond)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || type.getRank() != 0 || !type.getElementType().isInteger() ||
      type.getElementType().isInteger(1))
    return std::nullopt;
  unsigned index = arg.getArgNumber();
  std::optional<int64_t> start = constantInt(loop.getInits()[index]);
  std::optional<int64_t> limit = constantInt(bound);
  std::optional<int64_t> step = constantIncrement(
      body.getTerminator()->getOperand(index), body.getArgument(index));
  if (!start || !limit || !step || *step <= 0)
    return std::nullopt;
  // The counter must not wrap before the condition fails: k + c stays
  // representable in the counter's width while k < limit (or k <= limit).
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  int64_t max = width >= 64 ? std::numeric_limits<int64_t>::max()
                            : (int64_t(1) << (width - 1)) - 1;
  int64_t end = *limit;
  if (predicate == CmpPredicate::le) {
    if (end == max)
      return std::nullopt;
    ++end;
  }
  if (end > *start && end - 1 > max - *step)
    return std::nullopt;
  return adjoint::checkedTripCount(*start, end, *step);
}

} // namespace

std::optional<uint64_t> adjoint::adj::staticTripCount(Operation *loop) {
  if (auto forOp = dyn_cast<ForOp>(loop)) {
    std::optional<int64_t> lb = constantInt(forOp.getLowerBound());
    std::optional<int64_t> ub = constantInt(forOp.getUpperBound());
    std::optional<int64_t> step = constantInt(forOp.getStep());
    if (!lb || !ub || !step)
      return std::nullopt;
    return adjoint::checkedTripCount(*lb, *ub, *step);
  }
  if (auto whileOp = dyn_cast<WhileOp>(loop))
    return whileTripCount(whileOp);
  return std::nullopt;
}
