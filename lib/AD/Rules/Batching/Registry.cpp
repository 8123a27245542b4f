//===- Registry.cpp - The table of batching rules and their helpers -------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

/// The rules of the families without a trait (AdjTraits.h), built once, on
/// first use; read-only afterwards. The creation ops (constant, fill, iota)
/// have no operands, so the transform leaves them unbatched and they need
/// no rules.
static const BatchRuleMap &batchTable() {
  static const BatchRuleMap table = [] {
    BatchRuleMap map;
    addContractionBatchRules(map);
    addFourierBatchRules(map);
    addMovementBatchRules(map);
    addConvolutionBatchRules(map);
    addDerivativesBatchRules(map);
    return map;
  }();
  return table;
}

const BatchRule *adjoint::ad::batching::lookupBatchRule(Operation *op) {
  // Families whose ops all batch alike say so by a trait.
  static const BatchRule broadcasting = batchElementwise;
  static const BatchRule reduction = batchReduction;
  static const BatchRule decomposition = batchDecomposition;
  if (op->hasTrait<adj::trait::BroadcastingElementwise>())
    return &broadcasting;
  if (op->hasTrait<adj::trait::Reduction>())
    return &reduction;
  if (op->hasTrait<adj::trait::MatrixDecomposition>())
    return &decomposition;
  const BatchRuleMap &table = batchTable();
  auto it = table.find(op->getName().getTypeID());
  return it == table.end() ? nullptr : &it->second;
}

RankedTensorType adjoint::ad::batching::batchedTensor(Type type,
                                                      int64_t size) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape{size};
  llvm::append_range(shape, tensor.getShape());
  return tensor.clone(shape);
}

Val adjoint::ad::batching::materialize(Emitter &e, Batched v, int64_t size) {
  if (v.batched)
    return e.val(v.value);
  return e.broadcastTo(e.val(v.value), batchedTensor(v.value.getType(), size));
}

Val adjoint::ad::batching::alignRank(Emitter &e, Batched v, int64_t rank) {
  Val x = e.val(v.value);
  if (!v.batched)
    return x;
  ArrayRef<int64_t> shape = x.shape();
  int64_t perExample = static_cast<int64_t>(shape.size()) - 1;
  if (perExample >= rank)
    return x;
  SmallVector<int64_t> aligned{shape.front()};
  aligned.append(rank - perExample, 1);
  llvm::append_range(aligned, shape.drop_front());
  return e.reshape(x, aligned);
}

Operation *adjoint::ad::batching::rebuild(Emitter &e, Operation *op,
                                          ValueRange operands, int64_t size,
                                          DictionaryAttr attrs) {
  OperationState state(e.loc(), op->getName());
  state.addOperands(operands);
  state.addAttributes(attrs ? attrs.getValue() : op->getAttrs());
  for (Type t : op->getResultTypes())
    state.addTypes(batchedTensor(t, size));
  return e.builder().create(state);
}

SmallVector<Batched> adjoint::ad::batching::batchedResult(Operation *op) {
  return {Batched{op->getResult(0), true}};
}

SmallVector<int64_t> adjoint::ad::batching::shiftAxes(ArrayRef<int64_t> axes) {
  SmallVector<int64_t> out;
  for (int64_t a : axes)
    out.push_back(a < 0 ? a : a + 1);
  return out;
}
