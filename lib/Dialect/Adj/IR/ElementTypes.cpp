//===- ElementTypes.cpp - DType <-> MLIR element types --------------------===//

#include "adjoint/Dialect/Adj/IR/ElementTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

std::optional<adjoint::DType> adjoint::adj::dtypeOf(Type element) {
  for (DType dtype : kAllDTypes)
    if (elementTypeOf(dtype, element.getContext()) == element)
      return dtype;
  return std::nullopt;
}

Type adjoint::adj::elementTypeOf(DType dtype, MLIRContext *ctx) {
  Builder b(ctx);
  switch (dtype) {
  case DType::F64:
    return b.getF64Type();
  case DType::F32:
    return b.getF32Type();
  case DType::F16:
    return b.getF16Type();
  case DType::BF16:
    return b.getBF16Type();
  case DType::I64:
    return b.getI64Type();
  case DType::I32:
    return b.getI32Type();
  case DType::I1:
    return b.getI1Type();
  case DType::C64:
    return ComplexType::get(b.getF32Type());
  case DType::C128:
    return ComplexType::get(b.getF64Type());
  }
  return {};
}
