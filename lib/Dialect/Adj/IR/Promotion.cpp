//===- Promotion.cpp - The element type lattice and type joins ------------===//
//
// JAX's lattice restricted to the element types adj has (complex types sit
// above the floats of their part's width). Integers join
// floats to the float type (not to a float wide enough for every integer, as
// NumPy does) so that an index or a count never widens float arithmetic.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/Promotion.h"

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace adjoint::adj;

namespace {
/// Where an element type sits in the lattice: its kind, then its width.
struct Rank {
  enum Kind { Bool, Int, Float } kind;
  unsigned width;
};
} // namespace

static std::optional<Rank> rankOf(Type t) {
  if (auto i = dyn_cast<IntegerType>(t))
    return Rank{i.getWidth() == 1 ? Rank::Bool : Rank::Int, i.getWidth()};
  if (auto f = dyn_cast<FloatType>(t))
    return Rank{Rank::Float, f.getWidth()};
  return std::nullopt;
}

/// A complex type joins through its parts: complex<f32> v f64 is
/// complex<f64>, as in JAX; parts narrower than f32 widen to it (adj has
/// complex<f32> and complex<f64> only).
static Type promoteComplex(Type a, Type b) {
  auto part = [](Type t) {
    auto c = dyn_cast<ComplexType>(t);
    return c ? c.getElementType() : t;
  };
  Type joined = promoteElementTypes(part(a), part(b));
  if (!joined)
    return {};
  auto f = dyn_cast<FloatType>(joined);
  if (!f || f.getWidth() < 32)
    joined = Float32Type::get(a.getContext());
  return ComplexType::get(joined);
}

Type adjoint::adj::promoteElementTypes(Type a, Type b) {
  if (isa<ComplexType>(a) || isa<ComplexType>(b))
    return a == b ? a : promoteComplex(a, b);
  std::optional<Rank> ra = rankOf(a), rb = rankOf(b);
  if (!ra || !rb)
    return {};
  if (a == b)
    return a;
  if (ra->kind != rb->kind)
    return ra->kind > rb->kind ? a : b;
  if (ra->width != rb->width)
    return ra->width > rb->width ? a : b;
  // Two floats of one width (bf16 and f16): neither holds the other.
  return Float32Type::get(a.getContext());
}

Type adjoint::adj::joinTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (ta && tb) {
    Type element = promoteElementTypes(ta.getElementType(),
                                       tb.getElementType());
    std::optional<Shape> shape = broadcastShapes(ta.getShape(), tb.getShape());
    if (!element || !shape)
      return {};
    return RankedTensorType::get(*shape, element);
  }
  auto ua = dyn_cast<TupleType>(a);
  auto ub = dyn_cast<TupleType>(b);
  if (!ua || !ub || ua.size() != ub.size())
    return {};
  SmallVector<Type> elements;
  for (auto [x, y] : llvm::zip(ua.getTypes(), ub.getTypes())) {
    Type joined = joinTypes(x, y);
    if (!joined)
      return {};
    elements.push_back(joined);
  }
  return TupleType::get(a.getContext(), elements);
}
