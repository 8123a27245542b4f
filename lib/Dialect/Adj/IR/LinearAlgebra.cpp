//===- LinearAlgebra.cpp - Shape rules of the decompositions --------------===//
//
// Result-type inference (and so verification) of cholesky,
// triangular_solve, lu, qr, eigh, eig and svd. They act on the last two
// dimensions of f32, f64, complex<f32> or complex<f64> tensors and keep the
// leading ones; eigh's eigenvalues and svd's singular values are real (the
// complex type's parts), eig's results complex. An untyped operand makes
// every result !adj.any.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace adjoint::adj;

using Loc = std::optional<Location>;
using Results = SmallVectorImpl<Type>;


namespace {

constexpr int64_t kDyn = ShapedType::kDynamic;

/// Pushes `count` !adj.any results when an operand is untyped (success),
/// fails when an operand is not a ranked tensor, and returns std::nullopt
/// when every operand is one.
std::optional<LogicalResult> untypedOrBad(MLIRContext *ctx, Loc loc,
                                          StringRef op, TypeRange types,
                                          unsigned count, Results &results) {
  bool untyped = false;
  for (Type t : types) {
    if (isa<AnyType>(t))
      untyped = true;
    else if (!isa<RankedTensorType>(t))
      return emitOptionalError(loc, "adj.", op,
                               ": expected a ranked tensor or !adj.any, got ",
                               t);
  }
  if (!untyped)
    return std::nullopt;
  results.append(count, AnyType::get(ctx));
  return success();
}

/// The real type of `element`'s values: a complex type's parts, else itself.
Type realOf(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return complex.getElementType();
  return element;
}

/// The operand as a batch of matrices: rank >= 2 and f32 or f64, real or
/// complex.
FailureOr<RankedTensorType> matrices(Loc loc, StringRef op, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  if (tensor.getRank() < 2)
    return emitOptionalError(loc, "adj.", op,
                             ": expected a matrix or a batch of matrices "
                             "(rank >= 2), got ",
                             formatShape(tensor.getShape()));
  Type element = tensor.getElementType();
  Type real = realOf(element);
  if (!real.isF32() && !real.isF64())
    return emitOptionalError(loc, "adj.", op,
                             ": expected f32, f64, complex<f32> or "
                             "complex<f64> elements, got ",
                             element);
  return tensor;
}

bool sameSize(int64_t a, int64_t b) { return a == b || a == kDyn || b == kDyn; }

/// The operand as a batch of square matrices.
FailureOr<RankedTensorType> squareMatrices(Loc loc, StringRef op, Type type) {
  FailureOr<RankedTensorType> tensor = matrices(loc, op, type);
  if (failed(tensor))
    return failure();
  ArrayRef<int64_t> shape = tensor->getShape();
  if (!sameSize(shape[shape.size() - 1], shape[shape.size() - 2]))
    return emitOptionalError(loc, "adj.", op,
                             ": expected square matrices, got ",
                             formatShape(shape));
  return tensor;
}

/// `batch` followed by `dims`.
RankedTensorType withBatch(ArrayRef<int64_t> batch, ArrayRef<int64_t> dims,
                           Type element) {
  SmallVector<int64_t> shape(batch);
  shape.append(dims.begin(), dims.end());
  return RankedTensorType::get(shape, element);
}

int64_t minSize(int64_t a, int64_t b) {
  if (a == kDyn || b == kDyn)
    return kDyn;
  return std::min(a, b);
}

} // namespace

LogicalResult CholeskyOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                           Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = untypedOrBad(ctx, loc, "cholesky", type, 1, results))
    return *done;
  if (failed(squareMatrices(loc, "cholesky", type)))
    return failure();
  results.push_back(type);
  return success();
}

LogicalResult TriangularSolveOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                                  Adaptor adaptor,
                                                  Results &results) {
  TypeRange types = adaptor.getOperands().getTypes();
  if (auto done = untypedOrBad(ctx, loc, "triangular_solve", types, 1, results))
    return *done;
  FailureOr<RankedTensorType> a = squareMatrices(loc, "triangular_solve",
                                                 types[0]);
  FailureOr<RankedTensorType> b = failed(a)
                                      ? FailureOr<RankedTensorType>(failure())
                                      : matrices(loc, "triangular_solve",
                                                 types[1]);
  if (failed(b))
    return failure();
  if (a->getElementType() != b->getElementType())
    return emitOptionalError(loc,
                             "adj.triangular_solve: operands must have one "
                             "element type, got ",
                             *a, " and ", *b);
  ArrayRef<int64_t> as = a->getShape(), bs = b->getShape();
  bool batchMatches = as.size() == bs.size();
  for (size_t i = 0; batchMatches && i + 2 < as.size(); ++i)
    batchMatches = sameSize(as[i], bs[i]);
  int64_t m = as.back();
  int64_t shared = adaptor.getLeftSide() ? bs[bs.size() - 2] : bs.back();
  if (!batchMatches || !sameSize(m, shared))
    return emitOptionalError(
        loc, "adj.triangular_solve: ", formatShape(as), " does not solve ",
        formatShape(bs), adaptor.getLeftSide() ? " from the left"
                              : " from the right",
        " (the batch dimensions must be equal)");
  results.push_back(*b);
  return success();
}

LogicalResult LuOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                     Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = untypedOrBad(ctx, loc, "lu", type, 3, results))
    return *done;
  FailureOr<RankedTensorType> a = matrices(loc, "lu", type);
  if (failed(a))
    return failure();
  ArrayRef<int64_t> shape = a->getShape();
  int64_t m = shape[shape.size() - 2], n = shape.back();
  Type i32 = IntegerType::get(ctx, 32);
  results.push_back(*a);
  results.push_back(withBatch(shape.drop_back(2), {minSize(m, n)}, i32));
  results.push_back(withBatch(shape.drop_back(2), {m}, i32));
  return success();
}

LogicalResult QrOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                     Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = untypedOrBad(ctx, loc, "qr", type, 2, results))
    return *done;
  FailureOr<RankedTensorType> a = matrices(loc, "qr", type);
  if (failed(a))
    return failure();
  ArrayRef<int64_t> shape = a->getShape();
  int64_t m = shape[shape.size() - 2], n = shape.back();
  int64_t k = adaptor.getFullMatrices() ? m : minSize(m, n);
  Type element = a->getElementType();
  results.push_back(withBatch(shape.drop_back(2), {m, k}, element));
  results.push_back(withBatch(shape.drop_back(2), {k, n}, element));
  return success();
}

LogicalResult EighOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                       Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = untypedOrBad(ctx, loc, "eigh", type, 2, results))
    return *done;
  FailureOr<RankedTensorType> a = squareMatrices(loc, "eigh", type);
  if (failed(a))
    return failure();
  ArrayRef<int64_t> shape = a->getShape();
  int64_t n = shape.back() == kDyn ? shape[shape.size() - 2] : shape.back();
  results.push_back(
      withBatch(shape.drop_back(2), {n}, realOf(a->getElementType())));
  results.push_back(*a);
  return success();
}

LogicalResult EigOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                      Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = untypedOrBad(ctx, loc, "eig", type, 2, results))
    return *done;
  FailureOr<RankedTensorType> a = squareMatrices(loc, "eig", type);
  if (failed(a))
    return failure();
  ArrayRef<int64_t> shape = a->getShape();
  int64_t n = shape.back() == kDyn ? shape[shape.size() - 2] : shape.back();
  Type complex = ComplexType::get(realOf(a->getElementType()));
  results.push_back(withBatch(shape.drop_back(2), {n}, complex));
  results.push_back(withBatch(shape.drop_back(2), {n, n}, complex));
  return success();
}

LogicalResult SvdOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                      Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = untypedOrBad(ctx, loc, "svd", type, 3, results))
    return *done;
  FailureOr<RankedTensorType> a = matrices(loc, "svd", type);
  if (failed(a))
    return failure();
  ArrayRef<int64_t> shape = a->getShape();
  int64_t m = shape[shape.size() - 2], n = shape.back(), k = minSize(m, n);
  bool full = adaptor.getFullMatrices();
  Type element = a->getElementType();
  ArrayRef<int64_t> batch = shape.drop_back(2);
  results.push_back(withBatch(batch, {m, full ? m : k}, element));
  results.push_back(withBatch(batch, {k}, realOf(element)));
  results.push_back(withBatch(batch, {full ? n : k, n}, element));
  return success();
}
