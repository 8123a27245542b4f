//===- TensorOps.cpp - Shape rules of the adj tensor primitives -----------===//
//
// Result-type inference of the tensor primitives and AD ops: the shape
// rules that op families share (ShapeRules.h; the families' ODS classes
// call them) and the ops' own. Inference is also their verifier: a failure
// is a diagnostic that names the op and the shapes involved. An !adj.any
// operand makes the result !adj.any; the type inference pass refines it
// later.
//
//===----------------------------------------------------------------------===//

#include "ShapeRules.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace adjoint::adj;
using namespace adjoint::adj::shape_rules;

static constexpr int64_t kDyn = ShapedType::kDynamic;

/// Checks the kind of the operands before inference looks into them: the
/// custom parser infers result types before the ODS type constraints have
/// run, so an operand written as, say, `!adj.tuple<>` reaches inference.
/// Returns success after pushing !adj.any when an operand is untyped, failure
/// with a diagnostic when an operand is not a `KindT` (nor !adj.any), and
/// std::nullopt when every operand is a `KindT`.
template <typename KindT>
static std::optional<LogicalResult>
inferAnyOrCheck(MLIRContext *ctx, Loc loc, StringRef op, TypeRange types,
                Results &results) {
  for (Type t : types)
    if (!isa<KindT, AnyType>(t))
      return emitOptionalError(loc, "adj.", op, ": expected ",
                               std::is_same_v<KindT, RankedTensorType>
                                   ? "a ranked tensor"
                                   : "a function value",
                               " or !adj.any, got ", t);
  if (!llvm::any_of(types, [](Type t) { return isa<AnyType>(t); }))
    return std::nullopt;
  results.push_back(AnyType::get(ctx));
  return success();
}

/// inferAnyOrCheck for tensor operands.
static std::optional<LogicalResult> inferAnyIfUntyped(MLIRContext *ctx,
                                                      Loc loc, StringRef op,
                                                      TypeRange types,
                                                      Results &results) {
  return inferAnyOrCheck<RankedTensorType>(ctx, loc, op, types, results);
}

static std::string describe(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << type;
  return out;
}

/// The element type shared by all `types`, or a diagnostic.
static FailureOr<Type> commonElementType(Loc loc, StringRef op,
                                         TypeRange types) {
  Type element = cast<RankedTensorType>(types.front()).getElementType();
  for (Type t : types.drop_front())
    if (cast<RankedTensorType>(t).getElementType() != element)
      return emitOptionalError(loc, "adj.", op,
                               ": operands must have one element type, got ",
                               types.front(), " and ", t);
  return element;
}

static bool isInteger(Type element) { return isa<IntegerType>(element); }
static bool isBool(Type element) { return element.isInteger(1); }

static LogicalResult requireFloat(Loc loc, StringRef op, Type tensor) {
  if (isa<FloatType>(cast<RankedTensorType>(tensor).getElementType()))
    return success();
  return emitOptionalError(loc, "adj.", op,
                           ": expected a floating-point tensor, got ", tensor);
}

static bool isComplex(Type tensor) {
  return isa<ComplexType>(cast<RankedTensorType>(tensor).getElementType());
}

/// Float or complex elements (the ops of analysis: exp, log, pow, ...).
static LogicalResult requireInexact(Loc loc, StringRef op, Type tensor) {
  if (isComplex(tensor))
    return success();
  return requireFloat(loc, op, tensor);
}

/// Refuses complex elements, for ops that order or truncate values.
static LogicalResult requireReal(Loc loc, StringRef op, Type tensor) {
  if (!isComplex(tensor))
    return success();
  return emitOptionalError(loc, "adj.", op,
                           ": complex tensors are not supported, got ",
                           tensor);
}

static LogicalResult requireNotBool(Loc loc, StringRef op, Type tensor) {
  if (!isBool(cast<RankedTensorType>(tensor).getElementType()))
    return success();
  return emitOptionalError(loc, "adj.", op, ": i1 tensors are not supported");
}

/// Checks that `tensor` holds i32 or i64 words (i1 is a truth value, not a
/// word, and floats have no bitwise operators).
static LogicalResult requireWords(Loc loc, StringRef op, Type tensor) {
  Type element = cast<RankedTensorType>(tensor).getElementType();
  if (element.isInteger(32) || element.isInteger(64))
    return success();
  return emitOptionalError(loc, "adj.", op,
                           ": expected an i32 or i64 tensor, got ", tensor);
}

/// NumPy broadcasting of several tensor shapes.
static FailureOr<Shape> broadcastAll(Loc loc, StringRef op, TypeRange types) {
  Shape shape(cast<RankedTensorType>(types.front()).getShape());
  for (Type t : types.drop_front()) {
    auto next = broadcastShapes(shape, cast<RankedTensorType>(t).getShape());
    if (!next)
      return emitOptionalError(
          loc, "adj.", op, ": shapes ", formatShape(shape), " and ",
          formatShape(cast<RankedTensorType>(t).getShape()),
          " do not broadcast");
    shape = *next;
  }
  return shape;
}

/// Pushes the tensor of `element`s over the NumPy broadcast of the shapes
/// of `types`, or fails with a diagnostic.
static LogicalResult pushBroadcast(Loc loc, StringRef op, TypeRange types,
                                   Type element, Results &results) {
  FailureOr<Shape> shape = broadcastAll(loc, op, types);
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, element));
  return success();
}

/// Checks that `axis` indexes a dimension of a rank-`rank` tensor.
static LogicalResult checkAxis(Loc loc, StringRef op, int64_t axis,
                               int64_t rank) {
  if (axis >= 0 && axis < rank)
    return success();
  return emitOptionalError(loc, "adj.", op, ": axis ", axis,
                           " is out of range for rank ", rank);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// Checks that `tensor`'s elements are in `domain`.
static LogicalResult checkDomain(Loc loc, StringRef op, Domain domain,
                                 Type tensor) {
  switch (domain) {
  case Domain::Numeric:
    return requireNotBool(loc, op, tensor);
  case Domain::Inexact:
    return requireInexact(loc, op, tensor);
  case Domain::Float:
    return requireFloat(loc, op, tensor);
  case Domain::Ordered:
    return requireReal(loc, op, tensor);
  case Domain::Words:
    return requireWords(loc, op, tensor);
  }
  llvm_unreachable("unknown element domain");
}

LogicalResult shape_rules::inferBinary(MLIRContext *ctx, Loc loc,
                                       StringRef opName, TypeRange types,
                                       Domain domain, Results &results) {
  StringRef name = opName.drop_front(4);
  if (auto done = inferAnyIfUntyped(ctx, loc, name, types, results))
    return *done;
  FailureOr<Type> element = commonElementType(loc, name, types);
  if (failed(element) ||
      failed(checkDomain(loc, name, domain, types.front())))
    return failure();
  return pushBroadcast(loc, name, types, *element, results);
}

LogicalResult shape_rules::inferUnary(MLIRContext *ctx, Loc loc,
                                      StringRef opName, Type type,
                                      UnaryRule rule, Results &results) {
  StringRef name = opName.drop_front(4);
  if (auto done = inferAnyIfUntyped(ctx, loc, name, type, results))
    return *done;
  if (!rule.complex && failed(requireReal(loc, name, type)))
    return failure();
  if (rule.floatOnly && failed(requireInexact(loc, name, type)))
    return failure();
  if (failed(requireNotBool(loc, name, type)))
    return failure();
  auto tensor = cast<RankedTensorType>(type);
  auto complex = dyn_cast<ComplexType>(tensor.getElementType());
  if (rule.modulus && complex)
    type = tensor.clone(complex.getElementType());
  results.push_back(type);
  return success();
}

LogicalResult ComplexOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                          Adaptor adaptor, Results &results) {
  SmallVector<Type> types{adaptor.getRe().getType(),
                          adaptor.getIm().getType()};
  if (auto done = inferAnyIfUntyped(ctx, loc, "complex", types, results))
    return *done;
  FailureOr<Type> element = commonElementType(loc, "complex", types);
  if (failed(element))
    return failure();
  if (!element->isF32() && !element->isF64())
    return emitOptionalError(loc, "adj.complex: expected f32 or f64 parts, "
                                  "got ",
                             types[0]);
  return pushBroadcast(loc, "complex", types, ComplexType::get(*element), results);
}

LogicalResult shape_rules::inferPart(MLIRContext *ctx, Loc loc,
                                     StringRef opName, Type type,
                                     Results &results) {
  StringRef name = opName.drop_front(4);
  if (auto done = inferAnyIfUntyped(ctx, loc, name, type, results))
    return *done;
  auto tensor = cast<RankedTensorType>(type);
  auto complex = dyn_cast<ComplexType>(tensor.getElementType());
  if (!complex)
    return emitOptionalError(loc, "adj.", name,
                             ": expected a complex tensor, got ", type);
  results.push_back(tensor.clone(complex.getElementType()));
  return success();
}

LogicalResult CmpOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                      Adaptor adaptor, Results &results) {
  SmallVector<Type> types{adaptor.getLhs().getType(),
                          adaptor.getRhs().getType()};
  if (auto done = inferAnyIfUntyped(ctx, loc, "cmp", types, results))
    return *done;
  if (failed(commonElementType(loc, "cmp", types)))
    return failure();
  // Complex numbers have no order: only eq and ne compare them.
  CmpPredicate pred = adaptor.getPredicate();
  if (pred != CmpPredicate::eq && pred != CmpPredicate::ne &&
      failed(requireReal(loc, "cmp", types[0])))
    return failure();
  return pushBroadcast(loc, "cmp", types, IntegerType::get(ctx, 1), results);
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                         Adaptor adaptor, Results &results) {
  TypeRange types = adaptor.getOperands().getTypes();
  if (auto done = inferAnyIfUntyped(ctx, loc, "select", types, results))
    return *done;
  if (!isBool(cast<RankedTensorType>(types[0]).getElementType()))
    return emitOptionalError(loc, "adj.select: condition must be i1, got ",
                             types[0]);
  FailureOr<Type> element = commonElementType(loc, "select", types.drop_front());
  if (failed(element))
    return failure();
  return pushBroadcast(loc, "select", types, *element, results);
}

/// Fails `op`, which converts its elements, when its result `out` does not
/// keep the shape of its operand `in`.
static LogicalResult verifyShapeKept(Operation *op, RankedTensorType in,
                                     RankedTensorType out) {
  if (areCompatible(in.clone(out.getElementType()), out))
    return success();
  return op->emitOpError("changes the shape: ")
         << formatShape(in.getShape()) << " to "
         << formatShape(out.getShape());
}

/// Fails `op`, which reshapes its operand, when its result `out` does not
/// keep the element type of its operand `in`.
static LogicalResult verifyElementKept(Operation *op, RankedTensorType in,
                                       RankedTensorType out) {
  if (in.getElementType() == out.getElementType())
    return success();
  return op->emitOpError("changes the element type from ")
         << in.getElementType() << " to " << out.getElementType();
}

LogicalResult CastOp::verify() {
  auto in = dyn_cast<RankedTensorType>(getInput().getType());
  auto out = dyn_cast<RankedTensorType>(getType());
  if (!in || !out)
    return success();
  return verifyShapeKept(*this, in, out);
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Bits
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  auto in = dyn_cast<RankedTensorType>(getInput().getType());
  auto out = dyn_cast<RankedTensorType>(getType());
  if (!in || !out)
    return success();
  if (failed(verifyShapeKept(*this, in, out)))
    return failure();
  Type from = in.getElementType(), to = out.getElementType();
  if (!from.isIntOrFloat() || !to.isIntOrFloat())
    return emitOpError("needs integer or float element types, got ")
           << from << " and " << to;
  if (from.isInteger(1) || to.isInteger(1) ||
      from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    return emitOpError("needs element types of one width (not i1), got ")
           << from << " and " << to;
  return success();
}

LogicalResult Threefry2x32Op::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                               Adaptor adaptor,
                                               Results &results) {
  TypeRange types = adaptor.getOperands().getTypes();
  if (auto done = inferAnyIfUntyped(ctx, loc, "threefry2x32", types, results))
    return *done;
  for (Type t : types)
    if (!cast<RankedTensorType>(t).getElementType().isInteger(32))
      return emitOptionalError(loc, "adj.threefry2x32: expected i32 words, got ",
                               t);
  return pushBroadcast(loc, "threefry2x32", types, IntegerType::get(ctx, 64), results);
}

//===----------------------------------------------------------------------===//
// Contractions and reductions
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                         Adaptor adaptor, Results &results) {
  TypeRange types = adaptor.getOperands().getTypes();
  if (auto done = inferAnyIfUntyped(ctx, loc, "matmul", types, results))
    return *done;
  FailureOr<Type> element = commonElementType(loc, "matmul", types);
  if (failed(element) || failed(requireNotBool(loc, "matmul", types[0])))
    return failure();
  ArrayRef<int64_t> a = cast<RankedTensorType>(types[0]).getShape();
  ArrayRef<int64_t> b = cast<RankedTensorType>(types[1]).getShape();
  if (a.size() < 2 || b.size() < 2)
    return emitOptionalError(loc, "adj.matmul: operands need rank >= 2, got ",
                             formatShape(a), " and ", formatShape(b));
  int64_t k1 = a[a.size() - 1], k2 = b[b.size() - 2];
  if (k1 != k2 && k1 != kDyn && k2 != kDyn)
    return emitOptionalError(loc, "adj.matmul: contracted dimensions differ: ",
                             formatShape(a), " x ", formatShape(b));
  auto batch = broadcastShapes(a.drop_back(2), b.drop_back(2));
  if (!batch)
    return emitOptionalError(loc, "adj.matmul: batch dimensions of ",
                             formatShape(a), " and ", formatShape(b),
                             " do not broadcast");
  Shape shape = *batch;
  shape.push_back(a[a.size() - 2]);
  shape.push_back(b[b.size() - 1]);
  results.push_back(RankedTensorType::get(shape, *element));
  return success();
}

LogicalResult shape_rules::inferReduce(MLIRContext *ctx, Loc loc,
                                       StringRef opName, Type type,
                                       ArrayRef<int64_t> axes, bool keepdims,
                                       Domain domain, Results &results) {
  StringRef name = opName.drop_front(4);
  if (auto done = inferAnyIfUntyped(ctx, loc, name, type, results))
    return *done;
  auto tensor = cast<RankedTensorType>(type);
  if (failed(checkDomain(loc, name, domain, type)))
    return failure();
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t axis : axes) {
    if (failed(checkAxis(loc, name, axis, tensor.getRank())))
      return failure();
    if (!seen.insert(axis).second)
      return emitOptionalError(loc, "adj.", name, ": axis ", axis,
                               " is repeated");
  }
  Shape shape;
  for (int64_t d = 0; d < tensor.getRank(); ++d) {
    if (!seen.contains(d))
      shape.push_back(tensor.getDimSize(d));
    else if (keepdims)
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, tensor.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::verify() {
  auto in = dyn_cast<RankedTensorType>(getInput().getType());
  auto out = dyn_cast<RankedTensorType>(getType());
  if (!in || !out)
    return success();
  if (failed(verifyElementKept(*this, in, out)))
    return failure();
  if (!broadcastsTo(in.getShape(), out.getShape()))
    return emitOpError("cannot broadcast ")
           << formatShape(in.getShape()) << " to "
           << formatShape(out.getShape());
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() &&
      cast<RankedTensorType>(getType()).hasStaticShape())
    return getInput();
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto in = dyn_cast<RankedTensorType>(getInput().getType());
  auto out = dyn_cast<RankedTensorType>(getType());
  if (!in || !out)
    return success();
  if (failed(verifyElementKept(*this, in, out)))
    return failure();
  if (!in.hasStaticShape() || !out.hasStaticShape())
    return success();
  // A type whose count overflows is reported by RepresentableTensors.
  std::optional<int64_t> inCount = adjoint::checkedNumElements(in.getShape());
  std::optional<int64_t> outCount = adjoint::checkedNumElements(out.getShape());
  if (inCount && outCount && *inCount != *outCount)
    return emitOpError("cannot reshape ")
           << formatShape(in.getShape()) << " (" << *inCount
           << " elements) to " << formatShape(out.getShape()) << " ("
           << *outCount << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() &&
      cast<RankedTensorType>(getType()).hasStaticShape())
    return getInput();
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                            Adaptor adaptor,
                                            Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = inferAnyIfUntyped(ctx, loc, "transpose", type, results))
    return *done;
  auto tensor = cast<RankedTensorType>(type);
  ArrayRef<int64_t> perm = adaptor.getPerm();
  SmallVector<bool> used(tensor.getRank(), false);
  bool valid = static_cast<int64_t>(perm.size()) == tensor.getRank();
  for (int64_t p : perm) {
    if (!valid || p < 0 || p >= tensor.getRank() || used[p]) {
      valid = false;
      break;
    }
    used[p] = true;
  }
  if (!valid)
    return emitOptionalError(loc, "adj.transpose: ", formatShape(perm),
                             " is not a permutation of the dimensions of ",
                             formatShape(tensor.getShape()));
  Shape shape;
  for (int64_t p : perm)
    shape.push_back(tensor.getDimSize(p));
  results.push_back(RankedTensorType::get(shape, tensor.getElementType()));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                        Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = inferAnyIfUntyped(ctx, loc, "slice", type, results))
    return *done;
  auto tensor = cast<RankedTensorType>(type);
  ArrayRef<int64_t> start = adaptor.getStart(), limit = adaptor.getLimit(),
                    stride = adaptor.getStride();
  int64_t rank = tensor.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(stride.size()) != rank)
    return emitOptionalError(loc, "adj.slice: start, limit and stride need ",
                             rank, " entries for ",
                             formatShape(tensor.getShape()));
  Shape shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = tensor.getDimSize(d);
    if (start[d] < 0 || limit[d] < start[d] ||
        (size != kDyn && limit[d] > size) || stride[d] < 1)
      return emitOptionalError(
          loc, "adj.slice: dimension ", d, " of ",
          formatShape(tensor.getShape()), ": [", start[d], ":", limit[d], ":",
          stride[d], "] is not a valid slice");
    // ceil((limit - start) / stride), written so that a huge stride cannot
    // overflow.
    shape.push_back(limit[d] == start[d]
                        ? 0
                        : (limit[d] - start[d] - 1) / stride[d] + 1);
  }
  results.push_back(RankedTensorType::get(shape, tensor.getElementType()));
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                         Adaptor adaptor, Results &results) {
  TypeRange types = adaptor.getInputs().getTypes();
  if (types.empty())
    return emitOptionalError(loc, "adj.concat: needs at least one input");
  if (auto done = inferAnyIfUntyped(ctx, loc, "concat", types, results))
    return *done;
  FailureOr<Type> element = commonElementType(loc, "concat", types);
  if (failed(element))
    return failure();
  auto first = cast<RankedTensorType>(types.front());
  int64_t axis = adaptor.getAxis();
  if (failed(checkAxis(loc, "concat", axis, first.getRank())))
    return failure();
  Shape shape(first.getShape());
  for (Type t : types.drop_front()) {
    auto tensor = cast<RankedTensorType>(t);
    bool same = tensor.getRank() == first.getRank();
    for (int64_t d = 0; same && d < first.getRank(); ++d) {
      int64_t a = shape[d], b = tensor.getDimSize(d);
      if (d == axis) {
        int64_t sum;
        if (a == kDyn || b == kDyn)
          shape[d] = kDyn;
        else if (llvm::AddOverflow(a, b, sum))
          same = false;
        else
          shape[d] = sum;
      } else if (a != b && a != kDyn && b != kDyn)
        same = false;
    }
    if (!same)
      return emitOptionalError(loc, "adj.concat: cannot join ",
                               formatShape(first.getShape()), " and ",
                               formatShape(tensor.getShape()), " along axis ",
                               axis);
  }
  results.push_back(RankedTensorType::get(shape, *element));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                      Adaptor adaptor, Results &results) {
  Type type = adaptor.getInput().getType();
  if (auto done = inferAnyIfUntyped(ctx, loc, "pad", type, results))
    return *done;
  auto tensor = cast<RankedTensorType>(type);
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh();
  if (static_cast<int64_t>(low.size()) != tensor.getRank() ||
      static_cast<int64_t>(high.size()) != tensor.getRank())
    return emitOptionalError(loc, "adj.pad: low and high need ",
                             tensor.getRank(), " entries for ",
                             formatShape(tensor.getShape()));
  Shape shape;
  for (int64_t d = 0; d < tensor.getRank(); ++d) {
    if (low[d] < 0 || high[d] < 0)
      return emitOptionalError(loc, "adj.pad: padding must not be negative");
    int64_t size = tensor.getDimSize(d), padded = kDyn;
    if (size != kDyn && (llvm::AddOverflow(size, low[d], padded) ||
                         llvm::AddOverflow(padded, high[d], padded)))
      return emitOptionalError(loc, "adj.pad: dimension ", d,
                               " overflows int64");
    shape.push_back(padded);
  }
  results.push_back(RankedTensorType::get(shape, tensor.getElementType()));
  return success();
}

/// The shape of gather's result (and of scatter_add's updates).
static FailureOr<Shape> gatherShape(Loc loc, StringRef op,
                                    RankedTensorType table,
                                    RankedTensorType indices, int64_t axis) {
  if (failed(checkAxis(loc, op, axis, table.getRank())))
    return failure();
  Type ie = indices.getElementType();
  if (!isInteger(ie) || isBool(ie))
    return emitOptionalError(loc, "adj.", op,
                             ": indices must be i32 or i64, got ", indices);
  Shape shape(table.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, table.getShape().drop_front(axis + 1));
  return shape;
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                         Adaptor adaptor, Results &results) {
  TypeRange types = adaptor.getOperands().getTypes();
  if (auto done = inferAnyIfUntyped(ctx, loc, "gather", types, results))
    return *done;
  auto table = cast<RankedTensorType>(types[0]);
  FailureOr<Shape> shape =
      gatherShape(loc, "gather", table, cast<RankedTensorType>(types[1]),
                  adaptor.getAxis());
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, table.getElementType()));
  return success();
}

/// The result type of scatter_add and scatter: the target's, once the
/// updates are checked to have gather's result shape. Only `set` may move
/// booleans; the other modes do arithmetic or compare.
static LogicalResult inferScatter(MLIRContext *ctx, Loc loc, StringRef name,
                                  TypeRange types, int64_t axis,
                                  bool allowBool,
                                  SmallVectorImpl<Type> &results) {
  if (auto done = inferAnyIfUntyped(ctx, loc, name, types, results))
    return *done;
  auto target = cast<RankedTensorType>(types[0]);
  auto updates = cast<RankedTensorType>(types[2]);
  if (!allowBool && failed(requireNotBool(loc, name, target)))
    return failure();
  FailureOr<Shape> shape = gatherShape(
      loc, name, target, cast<RankedTensorType>(types[1]), axis);
  if (failed(shape))
    return failure();
  if (!areCompatible(RankedTensorType::get(*shape, target.getElementType()),
                     updates))
    return emitOptionalError(loc, "adj.", name, ": updates must be ",
                             formatShape(*shape), " of ",
                             target.getElementType(), ", got ", updates);
  results.push_back(target);
  return success();
}

LogicalResult ScatterAddOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                             Adaptor adaptor,
                                             Results &results) {
  return inferScatter(ctx, loc, "scatter_add",
                      adaptor.getOperands().getTypes(), adaptor.getAxis(),
                      /*allowBool=*/false, results);
}

LogicalResult ScatterOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                          Adaptor adaptor, Results &results) {
  ScatterMode mode = adaptor.getMode();
  TypeRange types = adaptor.getOperands().getTypes();
  if ((mode == ScatterMode::min || mode == ScatterMode::max) &&
      isa<RankedTensorType>(types[0]) &&
      failed(requireReal(loc, "scatter", types[0])))
    return failure();
  return inferScatter(ctx, loc, "scatter", types, adaptor.getAxis(),
                      mode == ScatterMode::set, results);
}

/// Nothing to combine: the target is the result.
OpFoldResult ScatterOp::fold(FoldAdaptor) {
  auto updates = dyn_cast<RankedTensorType>(getUpdates().getType());
  if (updates && updates.hasStaticShape() && updates.getNumElements() == 0 &&
      getTarget().getType() == getType())
    return getTarget();
  return {};
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// Checks the window attributes shared by conv2d and pooling.
static LogicalResult checkWindow(Loc loc, StringRef op,
                                 ArrayRef<int64_t> stride,
                                 ArrayRef<int64_t> padding,
                                 ArrayRef<int64_t> dilation) {
  if (stride.size() != 2 || dilation.size() != 2 || padding.size() != 4)
    return emitOptionalError(loc, "adj.", op,
                             ": stride and dilation need 2 entries and "
                             "padding 4 ([top, bottom, left, right])");
  for (int64_t s : llvm::concat<const int64_t>(stride, dilation))
    if (s < 1)
      return emitOptionalError(loc, "adj.", op,
                               ": stride and dilation must be positive");
  for (int64_t p : padding)
    if (p < 0)
      return emitOptionalError(loc, "adj.", op,
                               ": padding must not be negative");
  return success();
}

/// The spatial output sizes of a 2-D window op.
static FailureOr<std::pair<int64_t, int64_t>>
windowOutput(Loc loc, StringRef op, RankedTensorType input, int64_t kh,
             int64_t kw, ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
             ArrayRef<int64_t> dilation) {
  auto oh = windowOutputSize(input.getDimSize(2), kh, stride[0], dilation[0],
                             padding[0], padding[1]);
  auto ow = windowOutputSize(input.getDimSize(3), kw, stride[1], dilation[1],
                             padding[2], padding[3]);
  if (!oh || !ow)
    return emitOptionalError(loc, "adj.", op, ": a ", kh, "x", kw,
                             " window does not fit in ",
                             formatShape(input.getShape()), " with padding ",
                             formatShape(padding));
  return std::make_pair(*oh, *ow);
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                         Adaptor adaptor, Results &results) {
  TypeRange types = adaptor.getOperands().getTypes();
  if (auto done = inferAnyIfUntyped(ctx, loc, "conv2d", types, results))
    return *done;
  auto input = cast<RankedTensorType>(types[0]);
  auto filter = cast<RankedTensorType>(types[1]);
  FailureOr<Type> element = commonElementType(loc, "conv2d", types);
  if (failed(element) || failed(requireFloat(loc, "conv2d", input)))
    return failure();
  if (input.getRank() != 4 || filter.getRank() != 4)
    return emitOptionalError(loc,
                             "adj.conv2d: input [N, C, H, W] and filter "
                             "[O, C/groups, KH, KW] must have rank 4, got ",
                             formatShape(input.getShape()), " and ",
                             formatShape(filter.getShape()));
  if (failed(checkWindow(loc, "conv2d", adaptor.getStride(),
                         adaptor.getPadding(), adaptor.getDilation())))
    return failure();
  int64_t groups = adaptor.getGroups();
  int64_t c = input.getDimSize(1), o = filter.getDimSize(0);
  if (groups < 1 || (c != kDyn && c % groups) || (o != kDyn && o % groups) ||
      (c != kDyn && filter.getDimSize(1) != kDyn &&
       filter.getDimSize(1) != c / groups))
    return emitOptionalError(
        loc, "adj.conv2d: input ", formatShape(input.getShape()),
        " and filter ", formatShape(filter.getShape()),
        " do not match with groups = ", groups);
  if (filter.isDynamicDim(2) || filter.isDynamicDim(3))
    return emitOptionalError(loc, "adj.conv2d: the filter size must be static");
  auto out = windowOutput(loc, "conv2d", input, filter.getDimSize(2),
                          filter.getDimSize(3), adaptor.getStride(),
                          adaptor.getPadding(), adaptor.getDilation());
  if (failed(out))
    return failure();
  results.push_back(RankedTensorType::get(
      {input.getDimSize(0), o, out->first, out->second}, *element));
  return success();
}

LogicalResult shape_rules::inferPool(MLIRContext *ctx, Loc loc,
                                     StringRef opName, Type type,
                                     ArrayRef<int64_t> kernel,
                                     ArrayRef<int64_t> stride,
                                     ArrayRef<int64_t> padding,
                                     Results &results) {
  StringRef name = opName.drop_front(4);
  if (auto done = inferAnyIfUntyped(ctx, loc, name, type, results))
    return *done;
  auto input = cast<RankedTensorType>(type);
  if (failed(requireFloat(loc, name, type)))
    return failure();
  if (input.getRank() != 4)
    return emitOptionalError(loc, "adj.", name,
                             ": input must be [N, C, H, W], got ",
                             formatShape(input.getShape()));
  int64_t ones[] = {1, 1};
  if (kernel.size() != 2 || kernel[0] < 1 || kernel[1] < 1)
    return emitOptionalError(loc, "adj.", name,
                             ": kernel needs 2 positive entries");
  if (failed(checkWindow(loc, name, stride, padding, ones)))
    return failure();
  auto out = windowOutput(loc, name, input, kernel[0], kernel[1], stride,
                          padding, ones);
  if (failed(out))
    return failure();
  results.push_back(RankedTensorType::get(
      {input.getDimSize(0), input.getDimSize(1), out->first, out->second},
      input.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Automatic differentiation
//===----------------------------------------------------------------------===//

/// Validates `wrt` against `fn` and returns the chosen argument indices.
static FailureOr<SmallVector<int64_t>>
selectWrt(Loc loc, StringRef op, FnType fn,
          std::optional<ArrayRef<int64_t>> wrt) {
  int64_t n = fn.getInputs().size();
  SmallVector<int64_t> chosen;
  if (!wrt) {
    for (int64_t i = 0; i < n; ++i)
      chosen.push_back(i);
    return chosen;
  }
  llvm::SmallSet<int64_t, 4> seen;
  for (int64_t i : *wrt) {
    if (i < 0 || i >= n)
      return emitOptionalError(loc, "adj.", op, ": wrt index ", i,
                               " is out of range for a function of ", n,
                               " arguments");
    if (!seen.insert(i).second)
      return emitOptionalError(loc, "adj.", op, ": wrt index ", i,
                               " is repeated");
    chosen.push_back(i);
  }
  return chosen;
}

static SmallVector<Type> sensitivities(TypeRange types) {
  SmallVector<Type> result;
  for (Type t : types)
    result.push_back(getSensitivityType(t));
  return result;
}

LogicalResult shape_rules::inferADRequest(MLIRContext *ctx, Loc loc,
                                          StringRef opName, ADRequest kind,
                                          Type type,
                                          std::optional<ArrayRef<int64_t>> wrt,
                                          bool customSens, Results &results) {
  StringRef name = opName.drop_front(4);
  if (auto done = inferAnyOrCheck<FnType>(ctx, loc, name, type, results))
    return *done;
  auto fn = cast<FnType>(type);
  auto chosen = selectWrt(loc, name, fn, wrt);
  if (failed(chosen))
    return failure();
  SmallVector<Type> chosenInputs, inputs(fn.getInputs()), outputs;
  for (int64_t i : *chosen)
    chosenInputs.push_back(fn.getInputs()[i]);
  SmallVector<Type> argSens = sensitivities(chosenInputs);
  SmallVector<Type> resultSens = sensitivities(fn.getResults());
  switch (kind) {
  case ADRequest::Grad:
  case ADRequest::ValueAndGrad:
    // A scalar loss.
    if (fn.getResults().size() != 1)
      return emitOptionalError(loc, "adj.", name,
                               ": the function must have one result, it has ",
                               fn.getResults().size());
    if (customSens)
      inputs.push_back(resultSens.front());
    if (kind == ADRequest::ValueAndGrad)
      outputs.push_back(fn.getResults().front());
    llvm::append_range(outputs, argSens);
    break;
  case ADRequest::Vjp:
    llvm::append_range(outputs, fn.getResults());
    outputs.push_back(FnType::get(ctx, resultSens, argSens));
    break;
  case ADRequest::Jvp:
    llvm::append_range(inputs, argSens);
    llvm::append_range(outputs, fn.getResults());
    llvm::append_range(outputs, resultSens);
    break;
  }
  results.push_back(FnType::get(ctx, inputs, outputs));
  return success();
}

LogicalResult ZerosLikeOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                            Adaptor adaptor,
                                            Results &results) {
  results.push_back(getSensitivityType(adaptor.getInput().getType()));
  return success();
}

/// Whether values of `type` can be added as sensitivities.
static bool isSensitivity(Type type) {
  if (auto tuple = dyn_cast<adjoint::adj::TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isSensitivity);
  return !isa<FnType>(type);
}

LogicalResult GradAddOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                          Adaptor adaptor, Results &results) {
  Type lhs = adaptor.getLhs().getType(), rhs = adaptor.getRhs().getType();
  if (!areCompatible(lhs, rhs))
    return emitOptionalError(loc, "adj.grad_add: ", lhs, " and ", rhs,
                             " are different types");
  if (!isSensitivity(lhs) || !isSensitivity(rhs))
    return emitOptionalError(loc, "adj.grad_add: ",
                             describe(isSensitivity(lhs) ? rhs : lhs),
                             " is not a sensitivity type (functions have "
                             "!adj.env sensitivities)");
  results.push_back(isa<AnyType>(lhs) ? rhs : lhs);
  return success();
}
