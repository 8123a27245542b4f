//===- Creation.cpp - constant, fill, iota and the random ops -------------===//
//
// Tensors made from attributes and the result type. The random ops follow
// the formula of their op description bit for bit, so that compiled code can
// reproduce the interpreter's numbers.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include <cstring>
#include <numbers>

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
  dispatch(out.dtype(), [&](auto tag) {
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

static constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;

/// splitmix64(seed * golden + k) with the standard finalizer.
static uint64_t randomBits(uint64_t seed, uint64_t k) {
  uint64_t z = seed * kGolden + k;
  z += kGolden;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A uniform double in [0, 1) from the top 53 bits.
static double uniform(uint64_t seed, uint64_t k) {
  return static_cast<double>(randomBits(seed, k) >> 11) * 0x1p-53;
}

/// Fills a tensor with `sample(i)` for each row-major element i.
template <typename F>
static Tensor sampled(DType dtype, std::vector<int64_t> shape, F sample) {
  Tensor out(dtype, std::move(shape));
  dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *o = ptr<T>(out);
    for (int64_t i = 0, n = out.numel(); i < n; ++i)
      o[i] = fromDouble<T>(sample(static_cast<uint64_t>(i)));
  });
  return out;
}

Tensor interp::randomUniform(DType dtype, std::vector<int64_t> shape,
                             int64_t seed, double low, double high) {
  auto s = static_cast<uint64_t>(seed);
  return sampled(dtype, std::move(shape), [&](uint64_t i) {
    return low + (high - low) * uniform(s, i);
  });
}

Tensor interp::randomNormal(DType dtype, std::vector<int64_t> shape,
                            int64_t seed, double mean, double std) {
  auto s = static_cast<uint64_t>(seed);
  return sampled(dtype, std::move(shape), [&](uint64_t i) {
    double radius = std::sqrt(-2 * std::log(1 - uniform(s, 2 * i)));
    double angle = 2 * std::numbers::pi * uniform(s, 2 * i + 1);
    return mean + std * radius * std::cos(angle);
  });
}

static Tensor evalRandom(Operation *op, const Tensor &seed, bool normal,
                         double p0, double p1) {
  if (seed.dtype() != DType::I64 || seed.rank() != 0)
    fail(op, "the seed must be a tensor<i64>, got " + seed.typeString());
  DType dtype = resultDType(op);
  if (!isFloat(dtype))
    fail(op, "the result must have a float element type");
  int64_t s = *ptr<int64_t>(seed);
  return normal ? randomNormal(dtype, staticResultShape(op), s, p0, p1)
                : randomUniform(dtype, staticResultShape(op), s, p0, p1);
}

std::optional<Tensor> adjoint::interp::detail::evalCreation(Operation *op,
                                           ArrayRef<Tensor> operands) {
  if (auto c = dyn_cast<adj::ConstantOp>(op))
    return evalConstant(c);
  if (auto f = dyn_cast<adj::FillOp>(op))
    return evalFill(f);
  if (auto i = dyn_cast<adj::IotaOp>(op))
    return evalIota(i);
  if (auto r = dyn_cast<adj::RandomNormalOp>(op))
    return evalRandom(op, operands[0], /*normal=*/true,
                      r.getMean().convertToDouble(),
                      r.getStd().convertToDouble());
  if (auto r = dyn_cast<adj::RandomUniformOp>(op))
    return evalRandom(op, operands[0], /*normal=*/false,
                      r.getLow().convertToDouble(),
                      r.getHigh().convertToDouble());
  return std::nullopt;
}
