//===- Movement.cpp - Batching rules of the shape and data movement ops ---===//
//
// Shapes, permutations and boxes gain the batch dimension in front. Gather
// and the scatters keep a shared table or target unbatched when only the
// indices are batched; when both are, the batch is folded into the indexed
// dimension (with the indices offset per example), which is one gather or
// scatter over all examples.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

using Operands = ArrayRef<Batched>;
using Result = FailureOr<SmallVector<Batched>>;

/// A shape or box attribute with `first` prepended for the batch.
static SmallVector<int64_t> prepend(int64_t first, ArrayRef<int64_t> rest) {
  SmallVector<int64_t> out{first};
  llvm::append_range(out, rest);
  return out;
}

/// The permutation that moves axis `from` of a rank-`rank` tensor to 0.
static SmallVector<int64_t> moveToFront(int64_t from, int64_t rank) {
  SmallVector<int64_t> perm{from};
  for (int64_t i = 0; i < rank; ++i)
    if (i != from)
      perm.push_back(i);
  return perm;
}

/// The inverse of a permutation.
static SmallVector<int64_t> inverse(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> out(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    out[p] = i;
  return out;
}

/// `indices` (batched, [S, I...]) clamped into [0, stride) and plus
/// `stride * s` for example `s`: the positions in a table whose batch is
/// folded into the indexed dimension. The clamp keeps an index out of range
/// in its own example's rows, where compiled per-example code clamps it,
/// instead of reaching a neighbour's.
static Val offsetIndices(Emitter &e, Val indices, int64_t stride) {
  RankedTensorType type = indices.type();
  Type element = type.getElementType();
  auto scalar = [&](int64_t value) -> Val {
    auto scalarType = RankedTensorType::get({}, element);
    return e.make<adj::ConstantOp>(
        scalarType,
        DenseElementsAttr::get(
            scalarType, APInt(element.getIntOrFloatBitWidth(), value)));
  };
  SmallVector<int64_t> ones(type.getRank(), 1);
  ones[0] = type.getDimSize(0);
  Val iota = e.make<adj::IotaOp>(RankedTensorType::get(ones, element),
                                 int64_t{0});
  Val clamped = e.make<adj::MinimumOp>(
      e.make<adj::MaximumOp>(indices, scalar(0)), scalar(stride - 1));
  return clamped + e.make<adj::MulOp>(iota, scalar(stride));
}

namespace {
/// A batched tensor [S, A..., N, B...] indexed along N (its per-example
/// `axis`): `front` is it with N moved next to the batch, [S, N, A...,
/// B...] (by `perm`), and `folded` that with the two merged, [S * N, A...,
/// B...], so each example owns rows [s * n, (s + 1) * n).
struct Folded {
  Val front, folded;
  SmallVector<int64_t> perm;
  int64_t n;
};
} // namespace

static Folded foldIndexedAxis(Emitter &e, Val t, int64_t axis, int64_t size) {
  int64_t rank = t.type().getRank();
  SmallVector<int64_t> perm{0, axis + 1};
  for (int64_t i = 1; i < rank; ++i)
    if (i != axis + 1)
      perm.push_back(i);
  Val front = e.transpose(t, perm);
  int64_t n = front.shape()[1];
  SmallVector<int64_t> folded{size * n};
  llvm::append_range(folded, front.shape().drop_front(2));
  return {front, e.reshape(front, folded), perm, n};
}


static Result batchGather(Emitter &e, Operation *op, Operands operands,
                          int64_t size) {
  auto gather = cast<adj::GatherOp>(op);
  int64_t axis = gather.getAxis();
  Batched table = operands[0], indices = operands[1];
  RankedTensorType perExample = tensorOf(gather.getResult());
  if (!indices.batched) {
    // [S, A..., N, B...][I...] along axis + 1 is [S, A..., I..., B...].
    return SmallVector<Batched>{
        {e.gather(e.val(table.value), e.val(indices.value), axis + 1), true}};
  }
  if (!table.batched) {
    // [A..., N, B...][S, I...] is [A..., S, I..., B...]: move S to front.
    Val r = e.gather(e.val(table.value), e.val(indices.value), axis);
    return SmallVector<Batched>{
        {e.transpose(r, moveToFront(axis, perExample.getRank() + 1)), true}};
  }
  // Both batched: bring the indexed axis next to the batch, fold the two,
  // and offset each example's indices into its own rows.
  Folded f = foldIndexedAxis(e, e.val(table.value), axis, size);
  Val idx = offsetIndices(e, e.val(indices.value), f.n);
  // [S, I..., A..., B...]: move A... back before I....
  Val r = e.gather(f.folded, idx, 0);
  int64_t numI = tensorOf(indices.value).getRank() - 1;
  SmallVector<int64_t> back{0};
  for (int64_t i = 0; i < axis; ++i)
    back.push_back(1 + numI + i);
  for (int64_t i = 0; i < numI; ++i)
    back.push_back(1 + i);
  for (int64_t i = 1 + numI + axis; i < r.type().getRank(); ++i)
    back.push_back(i);
  return SmallVector<Batched>{{e.transpose(r, back), true}};
}

/// scatter_add and scatter (every mode): the two share an operand layout
/// (target, indices, updates; axis). Folding the batch keeps each example's
/// indices in their row-major order and puts different examples in
/// disjoint rows, so `set`'s last-one-wins order is the per-example one.
static Result batchScatter(Emitter &e, Operation *op, Operands operands,
                           int64_t size) {
  int64_t axis = cast<IntegerAttr>(op->getAttr("axis")).getInt();
  auto emit = [&](Val target, Val indices, Val updates, int64_t at) {
    if (auto scatter = dyn_cast<adj::ScatterOp>(op))
      return e.scatter(scatter.getMode(), target, indices, updates, at);
    return e.scatterAdd(target, indices, updates, at);
  };
  Batched indices = operands[1];
  Val target = materialize(e, operands[0], size);
  Val updates = materialize(e, operands[2], size);
  if (!indices.batched)
    return SmallVector<Batched>{
        {emit(target, e.val(indices.value), updates, axis + 1), true}};
  // Batched indices: fold the batch into the indexed dimension of the
  // target ([S, A..., N, B...] -> [S * N, A..., B...] after moving N next
  // to S) and of the updates ([S, A..., I..., B...] -> [S, I..., A...,
  // B...]), offsetting the indices per example.
  Folded f = foldIndexedAxis(e, target, axis, size);
  int64_t numI = tensorOf(indices.value).getRank() - 1;
  SmallVector<int64_t> updPerm{0};
  for (int64_t i = 0; i < numI; ++i)
    updPerm.push_back(1 + axis + i);
  for (int64_t i = 0; i < axis; ++i)
    updPerm.push_back(1 + i);
  for (int64_t i = 1 + axis + numI; i < updates.type().getRank(); ++i)
    updPerm.push_back(i);
  Val upd = e.transpose(updates, updPerm);
  Val idx = offsetIndices(e, e.val(indices.value), f.n);
  Val r = emit(f.folded, idx, upd, 0);
  Val unfolded = e.reshape(r, f.front.shape());
  return SmallVector<Batched>{{e.transpose(unfolded, inverse(f.perm)), true}};
}

void adjoint::ad::batching::addMovementBatchRules(BatchRuleMap &map) {
  map[TypeID::get<adj::ReshapeOp>()] = [](Emitter &e, Operation *op,
                                          Operands operands,
                                          int64_t size) -> Result {
    return batchedResult(rebuild(e, op, {operands[0].value}, size));
  };
  map[TypeID::get<adj::BroadcastToOp>()] = [](Emitter &e, Operation *op,
                                              Operands operands,
                                              int64_t size) -> Result {
    int64_t rank = tensorOf(op->getResult(0)).getRank();
    return batchedResult(
        rebuild(e, op, {alignRank(e, operands[0], rank)}, size));
  };
  map[TypeID::get<adj::TransposeOp>()] = [](Emitter &e, Operation *op,
                                            Operands operands,
                                            int64_t) -> Result {
    SmallVector<int64_t> perm{0};
    for (int64_t p : cast<adj::TransposeOp>(op).getPerm())
      perm.push_back(p + 1);
    return SmallVector<Batched>{
        {e.transpose(e.val(operands[0].value), perm), true}};
  };
  map[TypeID::get<adj::SliceOp>()] = [](Emitter &e, Operation *op,
                                        Operands operands,
                                        int64_t size) -> Result {
    auto slice = cast<adj::SliceOp>(op);
    return SmallVector<Batched>{
        {e.slice(e.val(operands[0].value), prepend(0, slice.getStart()),
                 prepend(size, slice.getLimit()),
                 prepend(1, slice.getStride())),
         true}};
  };
  map[TypeID::get<adj::PadOp>()] = [](Emitter &e, Operation *op,
                                      Operands operands, int64_t) -> Result {
    auto pad = cast<adj::PadOp>(op);
    return SmallVector<Batched>{
        {e.pad(e.val(operands[0].value), prepend(0, pad.getLow()),
               prepend(0, pad.getHigh()), pad.getValue().convertToDouble()),
         true}};
  };
  map[TypeID::get<adj::ConcatOp>()] = [](Emitter &e, Operation *op,
                                         Operands operands,
                                         int64_t size) -> Result {
    SmallVector<Value> inputs;
    for (Batched v : operands)
      inputs.push_back(materialize(e, v, size));
    int64_t axis = cast<adj::ConcatOp>(op).getAxis();
    return SmallVector<Batched>{
        {e.make<adj::ConcatOp>(inputs, axis < 0 ? axis : axis + 1), true}};
  };
  map[TypeID::get<adj::GatherOp>()] = batchGather;
  map[TypeID::get<adj::ScatterAddOp>()] = batchScatter;
  map[TypeID::get<adj::ScatterOp>()] = batchScatter;
}
