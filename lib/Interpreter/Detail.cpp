//===- Detail.cpp - Helpers shared by the interpreter's kernels -----------===//
//
// Error formatting, rounding, strides and the broadcasting index walker.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/Shapes.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;

std::string adjoint::interp::detail::formatLocation(Location loc) {
  // Walk nested locations (names, call sites, fusions) with a work list: the
  // first file location is the one a user can find in the source.
  SmallVector<Location> work{loc};
  while (!work.empty()) {
    Location l = work.pop_back_val();
    if (auto file = dyn_cast<FileLineColLoc>(l))
      return (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
          .str();
    if (auto name = dyn_cast<NameLoc>(l)) {
      work.push_back(name.getChildLoc());
    } else if (auto call = dyn_cast<CallSiteLoc>(l)) {
      work.push_back(call.getCaller());
      work.push_back(call.getCallee());
    } else if (auto fused = dyn_cast<FusedLoc>(l)) {
      for (Location inner : llvm::reverse(fused.getLocations()))
        work.push_back(inner);
    } else if (auto opaque = dyn_cast<OpaqueLoc>(l)) {
      work.push_back(opaque.getFallbackLocation());
    }
  }
  return "<unknown>";
}

void adjoint::interp::detail::fail(Operation *op, const Twine &message) {
  if (!op)
    throw Error(message.str());
  throw Error(formatLocation(op->getLoc()) + ": " +
              op->getName().getStringRef().str() + ": " + message.str());
}

void adjoint::interp::detail::failComplex(DType dtype) {
  throw Error(std::string("complex elements (") + dtypeName(dtype) +
              ") are not supported by this operation");
}

std::string adjoint::interp::detail::shapeString(ArrayRef<int64_t> shape) {
  return adj::formatShape(shape);
}

float adjoint::interp::detail::roundToOddFloat(double value) {
  float nearest = static_cast<float>(value);
  if (static_cast<double>(nearest) == value || std::isnan(value) ||
      std::isinf(nearest))
    return nearest;
  uint32_t bits;
  std::memcpy(&bits, &nearest, sizeof bits);
  if (bits & 1)
    return nearest;
  // `value` lies strictly between `nearest` and its neighbour towards
  // `value`; of those two floats, round-to-odd picks the odd one.
  return std::nextafter(nearest, value > nearest
                                     ? std::numeric_limits<float>::infinity()
                                     : -std::numeric_limits<float>::infinity());
}

int64_t adjoint::interp::detail::numElements(ArrayRef<int64_t> shape) {
  if (std::optional<int64_t> n = checkedNumElements(shape))
    return *n;
  throw AllocationError("the shape " + shapeString(shape) +
              " has more elements than fit in 64 bits (or a negative "
              "dimension)");
}

std::vector<int64_t>
adjoint::interp::detail::stridesOf(ArrayRef<int64_t> shape) {
  // Every stride is at most the element count: checking it bounds them all.
  (void)numElements(shape);
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

std::vector<int64_t>
adjoint::interp::detail::broadcastStrides(ArrayRef<int64_t> from,
                                              ArrayRef<int64_t> to) {
  std::vector<int64_t> own = stridesOf(from);
  std::vector<int64_t> strides(to.size(), 0);
  size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    strides[lead + i] = (from[i] == 1 && to[lead + i] != 1) ? 0 : own[i];
  return strides;
}

adjoint::interp::detail::IndexWalker::IndexWalker(ArrayRef<int64_t> shape,
                                 std::vector<std::vector<int64_t>> strides)
    : shape_(shape.begin(), shape.end()), index_(shape.size(), 0),
      offsets_(strides.size(), 0), strides_(std::move(strides)) {}

void adjoint::interp::detail::IndexWalker::next() {
  for (size_t d = shape_.size(); d-- > 0;) {
    ++index_[d];
    for (size_t k = 0; k < strides_.size(); ++k)
      offsets_[k] += strides_[k][d];
    if (index_[d] < shape_[d])
      return;
    for (size_t k = 0; k < strides_.size(); ++k)
      offsets_[k] -= strides_[k][d] * shape_[d];
    index_[d] = 0;
  }
}

std::vector<int64_t>
adjoint::interp::detail::broadcastOrFail(Operation *op,
                                         ArrayRef<const Tensor *> tensors) {
  adj::Shape shape(tensors.front()->shape().begin(),
                   tensors.front()->shape().end());
  for (const Tensor *t : tensors.drop_front()) {
    auto next = adj::broadcastShapes(shape, t->shape());
    if (!next)
      fail(op, "shapes " + shapeString(shape) + " and " +
                   shapeString(t->shape()) + " do not broadcast");
    shape = *next;
  }
  return std::vector<int64_t>(shape.begin(), shape.end());
}

std::vector<int64_t> adjoint::interp::detail::staticResultShape(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << op->getResult(0).getType();
    fail(op, "the result type " + s + " must be a tensor with a static shape");
  }
  return std::vector<int64_t>(type.getShape().begin(), type.getShape().end());
}

DType adjoint::interp::detail::resultDType(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << op->getResult(0).getType();
    fail(op, "the result type " + s + " must be a ranked tensor");
  }
  return dtypeOf(type.getElementType());
}

void adjoint::interp::detail::requireFloat(Operation *op,
                                           const Tensor &tensor) {
  if (!isFloat(tensor.dtype()))
    fail(op, "expected a floating-point tensor, got " + tensor.typeString());
}

void adjoint::interp::detail::requireNotBool(Operation *op,
                                             const Tensor &tensor) {
  if (tensor.dtype() == DType::I1)
    fail(op, "i1 tensors are not supported, got " + tensor.typeString());
}

void adjoint::interp::detail::requireSameDType(Operation *op,
                                               ArrayRef<Tensor> tensors) {
  for (const Tensor &t : tensors.drop_front())
    if (t.dtype() != tensors.front().dtype())
      fail(op, "operands must have one element type, got " +
                   tensors.front().typeString() + " and " + t.typeString());
}
