//===- InferPromote.cpp - -adj-infer: dtype promotion and type joins ------===//
//
// The ops are strict (one element type per op), so inference promotes the
// way the builder does (Promotion.h): an elementwise op or matmul on two
// dtypes gets an adj.cast of the operand of the lower one, and the values
// that meet at an adj.if's results or a loop's carried values are converted
// to the join of their types (adj.cast, adj.broadcast_to) once every type is
// known.
//
// A body is interpreted several times (rounds of recursion, loop
// iterations), and the types of a cast's operand may change between them, so
// the casts inference inserts carry a marker: a later interpretation looks
// through them, retargets them or bypasses them, and the marker is dropped
// when the pass ends.
//
//===----------------------------------------------------------------------===//

#include "InferImpl.h"

#include "adjoint/Dialect/Adj/IR/Promotion.h"

using namespace mlir;
using namespace adjoint::adj;
using namespace adjoint::adj::infer;

/// Marks the casts that inference inserted.
static constexpr llvm::StringLiteral kPromoted = "adj.promoted";

/// The operands of `op` that must share one element type.
static SmallVector<unsigned> promotedOperands(Operation *op) {
  if (isa<AddOp, SubOp, MulOp, DivOp, PowOp, MaximumOp, MinimumOp, CmpOp,
          MatmulOp>(op))
    return {0, 1};
  if (isa<SelectOp>(op))
    return {1, 2};
  return {};
}

static CastOp promotionCast(Value v) {
  auto cast = v.getDefiningOp<CastOp>();
  return cast && cast->hasAttr(kPromoted) ? cast : CastOp();
}

void Inferrer::interpretPromotionCast(CastOp cast) {
  Abs input = get(cast.getInput());
  auto type = input->kind == AbsNode::Kind::Leaf
                  ? dyn_cast<RankedTensorType>(input->type)
                  : RankedTensorType();
  auto result = dyn_cast<RankedTensorType>(cast.getType());
  if (!type || !result)
    return set(cast.getResult(), unknown());
  set(cast.getResult(), leaf(type.clone(result.getElementType())));
}

void Inferrer::promoteOperands(Operation *op) {
  SmallVector<unsigned> indices = promotedOperands(op);
  SmallVector<Value> sources;
  Type promoted;
  for (unsigned i : indices) {
    Value v = op->getOperand(i);
    if (CastOp cast = promotionCast(v))
      v = cast.getInput();
    Abs abs = get(v);
    auto type = abs->kind == AbsNode::Kind::Leaf
                    ? dyn_cast<RankedTensorType>(abs->type)
                    : RankedTensorType();
    if (!type)
      return; // unknown yet, or not a tensor: the op's rule decides
    promoted = promoted ? promoteElementTypes(promoted, type.getElementType())
                        : type.getElementType();
    if (!promoted)
      return;
    sources.push_back(v);
  }
  for (auto [i, source] : llvm::zip(indices, sources)) {
    Value current = op->getOperand(i);
    CastOp cast = promotionCast(current);
    auto type = llvm::cast<RankedTensorType>(get(source)->type);
    if (type.getElementType() == promoted) {
      // Promoted in an earlier interpretation, no longer needed.
      op->setOperand(i, source);
      if (cast && cast->use_empty())
        cast->erase();
      continue;
    }
    if (!cast) {
      OpBuilder builder(op);
      cast = CastOp::create(builder, op->getLoc(), type.clone(promoted),
                            source);
      cast->setAttr(kPromoted, UnitAttr::get(ctx));
      op->setOperand(i, cast.getResult());
    }
    set(cast.getResult(), leaf(type.clone(promoted)));
  }
}

/// `v` converted to `target`, a type it joins to, with ops inserted at
/// `builder`'s insertion point: cast, broadcast, through tuples.
static Value convert(OpBuilder &builder, Location loc, Value v, Type target) {
  Type type = v.getType();
  // Anything else (an untyped op, a mismatch) is left for the verifier.
  if (type == target || joinTypes(type, target) != target)
    return v;
  if (auto tuple = dyn_cast<adjoint::adj::TupleType>(target)) {
    SmallVector<Value> elements;
    for (auto [i, element] : llvm::enumerate(tuple.getTypes())) {
      Value e = GetOp::create(builder, loc, element, v,
                              static_cast<int64_t>(i));
      elements.push_back(convert(builder, loc, e, element));
    }
    return TupleOp::create(builder, loc, target, elements);
  }
  auto from = cast<RankedTensorType>(type);
  auto to = cast<RankedTensorType>(target);
  if (from.getElementType() != to.getElementType())
    v = CastOp::create(builder, loc, from.clone(to.getElementType()), v);
  if (from.getShape() != to.getShape())
    v = BroadcastToOp::create(builder, loc, to, v);
  return v;
}

/// Converts the operands of `terminator` (from position `first`) to
/// `types`, just before it.
static void convertOperands(Operation *user, unsigned first,
                            TypeRange types) {
  OpBuilder builder(user);
  for (auto [i, type] : llvm::enumerate(types)) {
    OpOperand &operand = user->getOpOperand(first + i);
    operand.set(convert(builder, user->getLoc(), operand.get(), type));
  }
}

void Inferrer::insertJoinConversions(Operation *root) {
  root->walk([&](Operation *op) {
    if (op->hasAttr(kPromoted))
      op->removeAttr(kPromoted);
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        convertOperands(region->front().getTerminator(), 0,
                        ifOp.getResultTypes());
      return;
    }
    auto forOp = dyn_cast<ForOp>(op);
    auto whileOp = dyn_cast<WhileOp>(op);
    if (!forOp && !whileOp)
      return;
    Region &body = forOp ? forOp.getBody() : whileOp.getBody();
    ValueRange args = body.front().getArguments();
    if (forOp)
      args = args.drop_front(); // the induction variable
    SmallVector<Type> carried(args.getTypes());
    unsigned firstInit = forOp ? 3 : 0;
    convertOperands(op, firstInit, carried);
    convertOperands(body.front().getTerminator(), 0, carried);
  });
}
