//===- TypeConverter.cpp - Host representation of adj types ---------------===//
//
// Tuples disappear by 1:N conversion: a tuple value becomes the values of
// its leaves, depth-first. Function values and environments become opaque
// runtime handles (see Structure.h).
//
//===----------------------------------------------------------------------===//

#include "Structure.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

HostTypeConverter::HostTypeConverter() {
  // Tried last: everything that is not an adj type stays as it is.
  addConversion([](Type type) { return type; });
  addConversion([](adj::EnvType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  addConversion([](adj::FnType type, SmallVectorImpl<Type> &results) {
    results.push_back(IndexType::get(type.getContext()));
    results.push_back(LLVM::LLVMPointerType::get(type.getContext()));
    return success();
  });
  addConversion([this](adj::TupleType type, SmallVectorImpl<Type> &results)
                    -> std::optional<LogicalResult> {
    for (Type element : type.getTypes())
      if (failed(convertType(element, results)))
        return failure();
    return success();
  });
}

bool lowering::isHostType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape() &&
           isa<FloatType, IntegerType, ComplexType>(tensor.getElementType());
  if (auto tuple = dyn_cast<adj::TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isHostType);
  if (auto fn = dyn_cast<adj::FnType>(type))
    return llvm::all_of(fn.getInputs(), isHostType) &&
           llvm::all_of(fn.getResults(), isHostType);
  return isa<adj::EnvType>(type);
}

void lowering::flattenLeaves(Type type, SmallVectorImpl<Type> &leaves) {
  if (auto tuple = dyn_cast<adj::TupleType>(type)) {
    for (Type element : tuple.getTypes())
      flattenLeaves(element, leaves);
    return;
  }
  leaves.push_back(type);
}

SmallVector<Value> lowering::flatten(ArrayRef<ValueRange> values) {
  SmallVector<Value> result;
  for (ValueRange range : values)
    llvm::append_range(result, range);
  return result;
}

SmallVector<SmallVector<Value>>
lowering::splitConverted(const TypeConverter &converter, TypeRange types,
                         ValueRange flat) {
  SmallVector<SmallVector<Value>> result;
  size_t offset = 0;
  for (Type type : types) {
    SmallVector<Type> converted;
    // Callers only split values whose types the converter produced.
    (void)converter.convertType(type, converted);
    result.push_back(llvm::to_vector(flat.slice(offset, converted.size())));
    offset += converted.size();
  }
  assert(offset == flat.size() && "converted values do not match the types");
  return result;
}
