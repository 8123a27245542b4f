//===- Creation.cpp - constant, fill and iota -----------------------------===//
//
// Tensors made from attributes and the result type.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include <cstring>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

static Tensor evalConstant(adj::ConstantOp op) {
  ElementsAttr attr = op.getValue();
  auto type = cast<RankedTensorType>(attr.getType());
  DType dtype = dtypeOf(type.getElementType());
  Tensor out(dtype, std::vector<int64_t>(type.getShape().begin(),
                                         type.getShape().end()));
  if (isComplex(dtype)) {
    auto it = attr.try_value_begin<std::complex<APFloat>>();
    if (!it)
      fail(op, "unsupported constant attribute");
    dispatchComplex(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      using Part = typename T::value_type;
      for (int64_t i = 0, n = out.numel(); i < n; ++i, ++*it) {
        std::complex<APFloat> v = **it;
        ptr<T>(out)[i] = T(static_cast<Part>(v.real().convertToDouble()),
                           static_cast<Part>(v.imag().convertToDouble()));
      }
    });
    return out;
  }
  if (isFloat(dtype)) {
    auto it = attr.try_value_begin<APFloat>();
    if (!it)
      fail(op, "unsupported constant attribute");
    for (int64_t i = 0, n = out.numel(); i < n; ++i, ++*it) {
      APFloat v = **it;
      switch (dtype) {
      case DType::F64:
        ptr<double>(out)[i] = v.convertToDouble();
        break;
      case DType::F32:
        ptr<float>(out)[i] = v.convertToFloat();
        break;
      default: { // f16, bf16: keep the attribute's exact bits.
        auto bits =
            static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
        auto *data = static_cast<uint8_t *>(out.mutableData());
        std::memcpy(data + 2 * i, &bits, 2);
      }
      }
    }
    return out;
  }
  auto it = attr.try_value_begin<APInt>();
  if (!it)
    fail(op, "unsupported constant attribute");
  for (int64_t i = 0, n = out.numel(); i < n; ++i, ++*it) {
    APInt v = **it;
    int64_t x = dtype == DType::I1 ? v.getBoolValue() : v.getSExtValue();
    dispatch(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      ptr<T>(out)[i] = fromInt<T>(x);
    });
  }
  return out;
}

static Tensor evalFill(adj::FillOp op) {
  Tensor out(resultDType(op), staticResultShape(op));
  double value = op.getValue().convertToDouble();
  dispatchAny(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::fill_n(ptr<T>(out), out.numel(), fromDouble<T>(value));
  });
  return out;
}

static Tensor evalIota(adj::IotaOp op) {
  Tensor out(resultDType(op), staticResultShape(op));
  int64_t axis = op.getAxis();
  if (axis < 0 || axis >= out.rank())
    fail(op, "axis " + Twine(axis) + " is out of range for rank " +
                 Twine(out.rank()));
  int64_t size = out.shape()[axis];
  int64_t inner = numElements(ArrayRef(out.shape()).drop_front(axis + 1));
  dispatch(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *o = ptr<T>(out);
    for (int64_t i = 0, n = out.numel(); i < n; ++i)
      o[i] = fromInt<T>((i / inner) % size);
  });
  return out;
}

std::optional<Tensor> adjoint::interp::detail::evalCreation(Operation *op,
                                           ArrayRef<Tensor> operands) {
  if (auto c = dyn_cast<adj::ConstantOp>(op))
    return evalConstant(c);
  if (auto f = dyn_cast<adj::FillOp>(op))
    return evalFill(f);
  if (auto i = dyn_cast<adj::IotaOp>(op))
    return evalIota(i);
  return std::nullopt;
}
