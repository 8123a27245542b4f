//===- Type.cpp - Types of the C++ builder API ----------------------------===//
//
// Context-free type descriptions and their conversion to and from MLIR.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Type.h"
#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/ElementTypes.h"
#include "adjoint/Dialect/Adj/IR/Promotion.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"
#include "adjoint/Support/CheckedSize.h"
#include "adjoint/Support/Error.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace adjoint;
using namespace adjoint::api;

std::string api::formatShape(const std::vector<int64_t> &shape) {
  return adj::formatShape(shape);
}

Type::Type() = default;

Type Type::tensor(DType dtype, std::vector<int64_t> shape) {
  for (int64_t d : shape)
    if (d < 0)
      throw Error("tensor type: dimensions must be static and non-negative, "
                  "got " + formatShape(shape));
  // numel() and everything built on it must not wrap (the dialect's size
  // check would only see the type once an op is built with it).
  if (!checkedNumElements(shape))
    throw Error("tensor type: " + formatShape(shape) +
                " has more elements than fit in 64 bits");
  Type t;
  t.kind_ = Kind::Tensor;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  return t;
}

Type Type::fn(std::vector<Type> inputs, std::vector<Type> results) {
  Type t;
  t.kind_ = Kind::Fn;
  t.children_ = std::move(inputs);
  t.results_ = std::move(results);
  return t;
}

Type Type::tuple(std::vector<Type> elements) {
  Type t;
  t.kind_ = Kind::Tuple;
  t.children_ = std::move(elements);
  return t;
}

DType Type::dtype() const {
  if (!isTensor())
    throw Error("expected a tensor type, got " + str());
  return dtype_;
}

const std::vector<int64_t> &Type::shape() const {
  if (!isTensor())
    throw Error("expected a tensor type, got " + str());
  return shape_;
}

int64_t Type::numel() const {
  // Type::tensor checked that the count fits.
  return *checkedNumElements(shape());
}

const std::vector<Type> &Type::inputs() const {
  if (!isFn())
    throw Error("expected a function type, got " + str());
  return children_;
}

const std::vector<Type> &Type::results() const {
  if (!isFn())
    throw Error("expected a function type, got " + str());
  return results_;
}

const std::vector<Type> &Type::elements() const {
  if (!isTuple())
    throw Error("expected a tuple type, got " + str());
  return children_;
}

Type Type::withDType(DType dtype) const { return tensor(dtype, shape()); }

Type Type::withShape(std::vector<int64_t> shape) const {
  return tensor(dtype(), std::move(shape));
}

static mlir::Type elementType(DType dtype, mlir::MLIRContext *ctx) {
  return adj::elementTypeOf(dtype, ctx);
}

/// A context of its own for the type computations that need MLIR types but
/// not a module (Type is context-free). Multithreaded, so that its type
/// uniquing is safe from any thread; never destroyed, so that it outlives
/// every static that may join types.
static mlir::MLIRContext &typeContext() {
  static mlir::MLIRContext *ctx = [] {
    auto *c = new mlir::MLIRContext();
    c->loadDialect<adj::AdjDialect>();
    return c;
  }();
  return *ctx;
}

DType api::promoteTypes(DType a, DType b) {
  mlir::MLIRContext &ctx = typeContext();
  mlir::Type joined = adj::promoteElementTypes(elementType(a, &ctx),
                                               elementType(b, &ctx));
  return Type::fromMLIR(mlir::RankedTensorType::get({}, joined)).dtype();
}

std::optional<Type> api::joinTypes(const Type &a, const Type &b) {
  mlir::MLIRContext &ctx = typeContext();
  mlir::Type joined = adj::joinTypes(a.toMLIR(&ctx), b.toMLIR(&ctx));
  if (!joined)
    return std::nullopt;
  return Type::fromMLIR(joined);
}

static std::vector<mlir::Type> toMLIR(const std::vector<Type> &types,
                                      mlir::MLIRContext *ctx) {
  std::vector<mlir::Type> out;
  for (const Type &t : types)
    out.push_back(t.toMLIR(ctx));
  return out;
}

mlir::Type Type::toMLIR(mlir::MLIRContext *ctx) const {
  switch (kind_) {
  case Kind::Tensor:
    return mlir::RankedTensorType::get(shape_, elementType(dtype_, ctx));
  case Kind::Fn:
    return adj::FnType::get(ctx, ::toMLIR(children_, ctx),
                            ::toMLIR(results_, ctx));
  case Kind::Tuple:
    return adj::TupleType::get(ctx, ::toMLIR(children_, ctx));
  }
  return {};
}

static std::string print(mlir::Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << type;
  return out;
}

static std::vector<Type> fromMLIR(llvm::ArrayRef<mlir::Type> types) {
  std::vector<Type> out;
  for (mlir::Type t : types)
    out.push_back(Type::fromMLIR(t));
  return out;
}

Type Type::fromMLIR(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
    if (!tensor.hasStaticShape())
      throw Error("the builder API has no dynamic shapes: " + print(type));
    mlir::Type e = tensor.getElementType();
    std::optional<DType> dtype = adj::dtypeOf(e);
    if (!dtype)
      throw Error("unsupported element type in " + print(type));
    return Type::tensor(*dtype, std::vector<int64_t>(tensor.getShape()));
  }
  if (auto fnType = llvm::dyn_cast<adj::FnType>(type))
    return fn(::fromMLIR(fnType.getInputs()), ::fromMLIR(fnType.getResults()));
  if (auto tupleType = llvm::dyn_cast<adj::TupleType>(type))
    return tuple(::fromMLIR(tupleType.getTypes()));
  throw Error("the builder API does not describe the type " + print(type));
}

std::string Type::str() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  switch (kind_) {
  case Kind::Tensor:
    os << "tensor<";
    for (int64_t d : shape_)
      os << d << 'x';
    os << dtypeName(dtype_) << '>';
    break;
  case Kind::Fn:
  case Kind::Tuple: {
    auto list = [&](const std::vector<Type> &types) {
      for (size_t i = 0; i < types.size(); ++i)
        os << (i ? ", " : "") << types[i].str();
    };
    if (isTuple()) {
      os << "!adj.tuple<";
      list(children_);
      os << '>';
    } else {
      os << "!adj.fn<(";
      list(children_);
      os << ") -> ";
      // A single result prints bare (only a builtin function type would be
      // parenthesized, and Type::fn is !adj.fn).
      bool bare = results_.size() == 1;
      os << (bare ? "" : "(");
      list(results_);
      os << (bare ? "" : ")") << '>';
    }
    break;
  }
  }
  return out;
}

bool Type::operator==(const Type &other) const {
  if (kind_ != other.kind_)
    return false;
  if (isTensor())
    return dtype_ == other.dtype_ && shape_ == other.shape_;
  return children_ == other.children_ && results_ == other.results_;
}
