//===- Emitter.cpp - The vocabulary of the derivative rules ---------------===//

#include "Emitter.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <complex>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;

RankedTensorType Val::type() const {
  return dyn_cast<RankedTensorType>(v_.getType());
}

Val adjoint::ad::rules::operator+(Val a, Val b) {
  return a.emitter().make<adj::AddOp>(a, b);
}
Val adjoint::ad::rules::operator-(Val a, Val b) {
  return a.emitter().make<adj::SubOp>(a, b);
}
Val adjoint::ad::rules::operator*(Val a, Val b) {
  return a.emitter().make<adj::MulOp>(a, b);
}
Val adjoint::ad::rules::operator/(Val a, Val b) {
  return a.emitter().make<adj::DivOp>(a, b);
}
Val adjoint::ad::rules::operator-(Val a) {
  return a.emitter().make<adj::NegOp>(a);
}
Val adjoint::ad::rules::operator+(Val a, double b) {
  return a + a.emitter().scalarLike(b, a);
}
Val adjoint::ad::rules::operator+(double a, Val b) {
  return b.emitter().scalarLike(a, b) + b;
}
Val adjoint::ad::rules::operator-(Val a, double b) {
  return a - a.emitter().scalarLike(b, a);
}
Val adjoint::ad::rules::operator-(double a, Val b) {
  return b.emitter().scalarLike(a, b) - b;
}
Val adjoint::ad::rules::operator*(Val a, double b) {
  return a * a.emitter().scalarLike(b, a);
}
Val adjoint::ad::rules::operator*(double a, Val b) {
  return b.emitter().scalarLike(a, b) * b;
}
Val adjoint::ad::rules::operator/(Val a, double b) {
  return a / a.emitter().scalarLike(b, a);
}
Val adjoint::ad::rules::operator/(double a, Val b) {
  return b.emitter().scalarLike(a, b) / b;
}

bool adjoint::ad::rules::isFloatTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Val Emitter::scalar(double x, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    // x + 0i: adj has complex<f32> and complex<f64> only.
    if (complex.getElementType().isF32())
      return make<adj::ConstantOp>(
          type, DenseElementsAttr::get(
                    type, std::complex<float>(static_cast<float>(x))));
    return make<adj::ConstantOp>(
        type, DenseElementsAttr::get(type, std::complex<double>(x)));
  }
  auto floatType = cast<FloatType>(elementType);
  // Round x into the element type, as a literal in the source would be.
  APFloat value(x);
  bool lost;
  value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
  return make<adj::ConstantOp>(type, DenseElementsAttr::get(type, value));
}

Val Emitter::fill(double x, RankedTensorType type) {
  return make<adj::FillOp>(type, b_.getF64FloatAttr(x));
}

Val Emitter::indices(ArrayRef<int64_t> shape, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, b_.getI64Type());
  return make<adj::ConstantOp>(type, DenseElementsAttr::get(type, values));
}

//===----------------------------------------------------------------------===//
// Shapes and data movement
//===----------------------------------------------------------------------===//

Val Emitter::broadcastTo(Val x, Type type) {
  if (x.value().getType() == type)
    return x;
  return make<adj::BroadcastToOp>(type, x);
}

Val Emitter::reshape(Val x, ArrayRef<int64_t> shape) {
  if (x.shape() == shape)
    return x;
  return make<adj::ReshapeOp>(x.type().clone(shape), x);
}

Val Emitter::transposeLast2(Val x) {
  int64_t rank = x.type().getRank();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 2], perm[rank - 1]);
  return transpose(x, perm);
}

Val Emitter::slice(Val x, ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                   ArrayRef<int64_t> stride) {
  return make<adj::SliceOp>(x, start, limit, stride);
}

Val Emitter::slice(Val x, ArrayRef<int64_t> start, ArrayRef<int64_t> limit) {
  if (llvm::all_of(start, [](int64_t s) { return s == 0; }) &&
      limit == x.shape())
    return x;
  return slice(x, start, limit, SmallVector<int64_t>(start.size(), 1));
}

Val Emitter::pad(Val x, ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                 double value) {
  auto zero = [](int64_t p) { return p == 0; };
  if (llvm::all_of(low, zero) && llvm::all_of(high, zero))
    return x;
  return make<adj::PadOp>(x, low, high, APFloat(value));
}

Val Emitter::padOrCrop(Val x, ArrayRef<int64_t> low, ArrayRef<int64_t> high) {
  SmallVector<int64_t> start, limit, padLow, padHigh;
  for (auto [d, size] : llvm::enumerate(x.shape())) {
    start.push_back(std::max<int64_t>(-low[d], 0));
    limit.push_back(size - std::max<int64_t>(-high[d], 0));
    padLow.push_back(std::max<int64_t>(low[d], 0));
    padHigh.push_back(std::max<int64_t>(high[d], 0));
  }
  return pad(slice(x, start, limit), padLow, padHigh);
}

Val Emitter::interleaveZeros(Val x, ArrayRef<int64_t> stride) {
  if (llvm::all_of(stride, [](int64_t s) { return s == 1; }))
    return x;
  // [.., n, ..] -> [.., n, 1, ..] -> pad the unit dim to s -> [.., n * s, ..]
  SmallVector<int64_t> split, high, merged;
  for (auto [d, size] : llvm::enumerate(x.shape())) {
    split.append({size, 1});
    high.append({0, stride[d] - 1});
    merged.push_back(size * stride[d]);
  }
  Val spread = pad(reshape(x, split), SmallVector<int64_t>(high.size(), 0),
                   high);
  return reshape(spread, merged);
}

//===----------------------------------------------------------------------===//
// Sensitivity algebra
//===----------------------------------------------------------------------===//

Val Emitter::unbroadcast(Val d, Type target) {
  auto to = dyn_cast<RankedTensorType>(target);
  auto from = d.type();
  if (!to || !from || from == to)
    return d;
  int64_t lead = from.getRank() - to.getRank();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, lead));
  for (int64_t i = 0; i < to.getRank(); ++i)
    if (to.getDimSize(i) == 1 && from.getDimSize(lead + i) != 1)
      axes.push_back(lead + i);
  Val reduced = axes.empty() ? d : reduceSum(d, axes);
  return reshape(reduced, to.getShape());
}

Val Emitter::sum(ArrayRef<Val> terms, Type type) {
  Val total;
  for (Val t : terms)
    if (t)
      total = total ? total + t : t;
  return total ? broadcastTo(total, type) : total;
}
