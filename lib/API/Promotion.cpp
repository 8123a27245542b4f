//===- Promotion.cpp - Dtype promotion and type joins in the builder ------===//
//
// The ops are strict (one element type per op), so the builder promotes:
// a binary op on two dtypes casts the operand of the lower one (the lattice
// of Type.h), and control flow converts each branch result or loop-carried
// value to the join of its types (adj::joinTypes) with adj.cast and
// adj.broadcast_to. Every later layer then sees single-dtype ops only.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Promotion.h"

using llvm::StringRef;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

std::pair<Value, Value> detail::promoteOperands(Value a, Value b) {
  // Values of another module are left for the op to report.
  if (!a || !b || a.state() != b.state())
    return {a, b};
  mlir::Type ta = a.mlir().getType(), tb = b.mlir().getType();
  auto ra = llvm::dyn_cast<mlir::RankedTensorType>(ta);
  auto rb = llvm::dyn_cast<mlir::RankedTensorType>(tb);
  // Other kinds, and unknown element types, are left for the op to reject.
  if (!ra || !rb || ra.getElementType() == rb.getElementType())
    return {a, b};
  mlir::Type joined =
      adj::promoteElementTypes(ra.getElementType(), rb.getElementType());
  if (!joined)
    return {a, b};
  DType dtype =
      Type::fromMLIR(mlir::RankedTensorType::get({}, joined)).dtype();
  if (ra.getElementType() != joined)
    a = api::cast(a, dtype);
  if (rb.getElementType() != joined)
    b = api::cast(b, dtype);
  return {a, b};
}

Value detail::convertTo(Value v, const Type &target) {
  Type type = v.type();
  if (type == target)
    return v;
  if (type.isTuple() && target.isTuple()) {
    std::vector<Value> elements;
    for (size_t i = 0; i < target.elements().size(); ++i)
      elements.push_back(
          convertTo(api::get(v, static_cast<int64_t>(i)), target.elements()[i]));
    // Tuples that differ have elements (empty ones are equal).
    return api::make_tuple(elements);
  }
  if (type.dtype() != target.dtype())
    v = api::cast(v, target.dtype());
  if (type.shape() != target.shape())
    v = api::broadcast_to(v, target.shape());
  return v;
}
