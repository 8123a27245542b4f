//===- TensorSizes.cpp - Every adj tensor type has a size that fits -------===//

#include "adjoint/Dialect/Adj/IR/TensorSizes.h"
#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;

std::optional<int64_t> adjoint::adj::staticTensorBytes(RankedTensorType type) {
  auto staticDims = llvm::make_filter_range(
      type.getShape(), [](int64_t d) { return !ShapedType::isDynamic(d); });
  Type element = type.getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType();
  int64_t elementBytes =
      element.isIntOrFloat() ? (element.getIntOrFloatBitWidth() + 7) / 8 : 8;
  if (isa<ComplexType>(type.getElementType()))
    elementBytes *= 2;
  return checkedTensorBytes(staticDims, elementBytes);
}

static RankedTensorType findOversized(TypeRange types) {
  for (Type t : types)
    if (RankedTensorType found = findOversizedTensor(t))
      return found;
  return {};
}

RankedTensorType adjoint::adj::findOversizedTensor(Type type) {
  return TypeSwitch<Type, RankedTensorType>(type)
      .Case<RankedTensorType>([](RankedTensorType t) {
        return staticTensorBytes(t) ? RankedTensorType() : t;
      })
      .Case<adj::TupleType>(
          [](adj::TupleType t) { return findOversized(t.getTypes()); })
      .Case<adj::FnType>([](adj::FnType t) {
        if (RankedTensorType found = findOversized(t.getInputs()))
          return found;
        return findOversized(t.getResults());
      })
      .Case<FunctionType>([](FunctionType t) {
        if (RankedTensorType found = findOversized(t.getInputs()))
          return found;
        return findOversized(t.getResults());
      })
      .Default([](Type) { return RankedTensorType(); });
}

static LogicalResult tooLarge(Operation *op, StringRef where,
                              RankedTensorType type) {
  return op->emitOpError()
         << where << " type " << type
         << " is too large: its element count or byte size does not fit in "
            "64 bits";
}

LogicalResult adjoint::adj::verifyTensorSizes(Operation *op) {
  if (auto fn = dyn_cast<FunctionOpInterface>(op))
    if (RankedTensorType t = findOversizedTensor(fn.getFunctionType()))
      return tooLarge(op, "signature", t);
  if (RankedTensorType t = findOversized(op->getResultTypes()))
    return tooLarge(op, "result", t);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (RankedTensorType t = findOversized(block.getArgumentTypes()))
        return tooLarge(op, "block argument", t);
  return success();
}
