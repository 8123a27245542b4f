//===- AdjDialect.cpp - The adj dialect and its types ---------------------===//
//
// Registers ops and types, and defines the type relations (compatibility
// with !adj.any, sensitivity types) that verifiers and transforms share.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace adjoint::adj;

#include "adjoint/Dialect/Adj/IR/AdjDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "adjoint/Dialect/Adj/IR/AdjTypes.cpp.inc"

void AdjDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "adjoint/Dialect/Adj/IR/AdjOps.cpp.inc"
      >();
  registerTypes();
}

void AdjDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "adjoint/Dialect/Adj/IR/AdjTypes.cpp.inc"
      >();
}

Operation *AdjDialect::materializeConstant(OpBuilder &builder,
                                           Attribute value, Type type,
                                           Location loc) {
  if (auto fnType = dyn_cast<FnType>(type))
    if (auto sym = dyn_cast<FlatSymbolRefAttr>(value))
      return FuncRefOp::create(builder, loc, fnType, sym);
  if (isa<EnvType>(type) && isa<UnitAttr>(value))
    return EnvNewOp::create(builder, loc);
  if (auto elements = dyn_cast<ElementsAttr>(value))
    if (elements.getType() == type)
      return ConstantOp::create(builder, loc, type, elements);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Type relations
//===----------------------------------------------------------------------===//

bool adjoint::adj::areCompatible(Type lhs, Type rhs) {
  if (lhs == rhs || isa<AnyType>(lhs) || isa<AnyType>(rhs))
    return true;
  if (auto lt = dyn_cast<RankedTensorType>(lhs)) {
    auto rt = dyn_cast<RankedTensorType>(rhs);
    if (!rt || lt.getElementType() != rt.getElementType() ||
        lt.getRank() != rt.getRank())
      return false;
    for (auto [a, b] : llvm::zip(lt.getShape(), rt.getShape()))
      if (a != b && !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b))
        return false;
    return true;
  }
  if (auto lt = dyn_cast<TupleType>(lhs)) {
    auto rt = dyn_cast<TupleType>(rhs);
    return rt && areCompatible(lt.getTypes(), rt.getTypes());
  }
  if (auto lt = dyn_cast<FnType>(lhs)) {
    auto rt = dyn_cast<FnType>(rhs);
    return rt && areCompatible(lt.getInputs(), rt.getInputs()) &&
           areCompatible(lt.getResults(), rt.getResults());
  }
  return false;
}

bool adjoint::adj::areCompatible(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [a, b] : llvm::zip(lhs, rhs))
    if (!areCompatible(a, b))
      return false;
  return true;
}

Type adjoint::adj::getSensitivityType(Type type) {
  MLIRContext *ctx = type.getContext();
  return TypeSwitch<Type, Type>(type)
      .Case<TupleType>([&](TupleType t) -> Type {
        SmallVector<Type> elements;
        for (Type e : t.getTypes())
          elements.push_back(getSensitivityType(e));
        return TupleType::get(ctx, elements);
      })
      .Case<FnType, EnvType>([&](Type) { return EnvType::get(ctx); })
      .Default([](Type t) { return t; });
}

bool adjoint::adj::containsAny(Type type) {
  return TypeSwitch<Type, bool>(type)
      .Case<AnyType>([](Type) { return true; })
      .Case<TupleType>([](TupleType t) {
        return llvm::any_of(t.getTypes(), containsAny);
      })
      .Case<FnType>([](FnType t) {
        return llvm::any_of(t.getInputs(), containsAny) ||
               llvm::any_of(t.getResults(), containsAny);
      })
      .Default([](Type) { return false; });
}
