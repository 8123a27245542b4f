//===- SimplifyUtils.cpp - Helpers shared by the simplification passes ----===//
//
// Not a pass: the zero builder, the constant recognizers and the block
// rebuilding that SimplifyTuples, SimplifyEnvs, SimplifyAlgebra and
// RemoveDeadValues share.
//
//===----------------------------------------------------------------------===//

#include "SimplifyUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace adjoint::adj {

bool canBuildZero(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape();
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), canBuildZero);
  return isa<EnvType>(type);
}

Value buildZero(OpBuilder &builder, Location loc, Type type) {
  if (!canBuildZero(type))
    return {};
  if (isa<RankedTensorType>(type))
    return FillOp::create(builder, loc, type, builder.getF64FloatAttr(0.0));
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> elements;
    for (Type element : tuple.getTypes())
      elements.push_back(buildZero(builder, loc, element));
    return TupleOp::create(builder, loc, elements);
  }
  return EnvNewOp::create(builder, loc, type);
}

SmallVector<Value> tupleElements(OpBuilder &builder, Location loc,
                                 Value tuple) {
  if (auto built = tuple.getDefiningOp<TupleOp>())
    return llvm::to_vector(built.getElements());
  SmallVector<Value> elements;
  auto type = cast<TupleType>(tuple.getType());
  for (size_t i = 0; i < type.size(); ++i)
    elements.push_back(
        GetOp::create(builder, loc, tuple, builder.getI64IntegerAttr(i)));
  return elements;
}

/// Element `index` of a dense attribute as a double.
static std::optional<double> elementAsDouble(DenseElementsAttr dense,
                                             uint64_t index) {
  Type element = dense.getElementType();
  if (isa<FloatType>(element)) {
    APFloat value = *(dense.getValues<APFloat>().begin() + index);
    return value.convertToDouble();
  }
  if (auto integer = dyn_cast<IntegerType>(element)) {
    APInt value = *(dense.getValues<APInt>().begin() + index);
    // i1 is a boolean: 1 is true, not -1.
    return integer.getWidth() == 1
               ? static_cast<double>(value.getZExtValue())
               : static_cast<double>(value.getSExtValue());
  }
  return std::nullopt;
}

std::optional<double> getUniformConstant(Value value) {
  if (auto fill = value.getDefiningOp<FillOp>())
    return fill.getValue().convertToDouble();
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || dense.getNumElements() == 0)
    return std::nullopt;
  std::optional<double> first = elementAsDouble(dense, 0);
  if (!first || dense.isSplat())
    return first;
  for (int64_t i = 1, e = dense.getNumElements(); i < e; ++i)
    if (elementAsDouble(dense, i) != first)
      return std::nullopt;
  return first;
}

void rebuildBlock(
    RewriterBase &rewriter, Block *block, Region &dest, TypeRange newTypes,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, ValueRange)> remap) {
  SmallVector<Location> locs(newTypes.size(), block->getParent()->getLoc());
  Block *fresh = rewriter.createBlock(&dest, dest.end(), newTypes, locs);
  rewriter.setInsertionPointToStart(fresh);
  SmallVector<Value> replacements = remap(rewriter, fresh->getArguments());
  rewriter.mergeBlocks(block, fresh, replacements);
}

} // namespace adjoint::adj
