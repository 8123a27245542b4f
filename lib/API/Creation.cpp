//===- Creation.cpp - Tensor creation in the builder API ------------------===//
//
// Constants, fills, iota and seeded random tensors.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <complex>

using llvm::StringRef;
using llvm::SmallVector;
using llvm::cast;
using llvm::dyn_cast;
using mlir::RankedTensorType;
using mlir::FloatType;
using mlir::DenseElementsAttr;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

/// Formats a double the way a user wrote it ("2", "0.5").
static std::string formatNumber(double value) {
  std::string s = std::to_string(value);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.')
    s.pop_back();
  return s;
}

/// The tensor type of a constant of `count` values, after checking that it
/// can be created here and that the count matches the shape.
static RankedTensorType constantType(ModuleState &state, size_t count,
                                     const std::vector<int64_t> &shape,
                                     DType dtype, StringRef op) {
  checkInsideFunction(state, op);
  Type type = Type::tensor(dtype, shape);
  if (static_cast<int64_t>(count) != type.numel())
    throw Error(op.str() + ": " + std::to_string(count) +
                " values for shape " + formatShape(shape) + " (" +
                std::to_string(type.numel()) + " elements)");
  return cast<RankedTensorType>(state.mlirType(type));
}

/// A float constant of `type`, each value rounded to its element type.
static Value floatConstant(ModuleState &state, RankedTensorType type,
                           llvm::ArrayRef<double> data) {
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<llvm::APFloat> values;
  for (double d : data) {
    llvm::APFloat f(d);
    bool lost;
    f.convert(floatType.getFloatSemantics(),
              llvm::APFloat::rmNearestTiesToEven, &lost);
    values.push_back(f);
  }
  return constantOp(state, DenseElementsAttr::get(type, values));
}

/// A complex constant of `type` (complex<f32> or complex<f64>).
static Value complexConstant(ModuleState &state, RankedTensorType type,
                             llvm::ArrayRef<std::complex<double>> data) {
  auto part = cast<mlir::ComplexType>(type.getElementType()).getElementType();
  if (part.isF64())
    return constantOp(state, DenseElementsAttr::get(type, data));
  SmallVector<std::complex<float>> narrow;
  for (std::complex<double> z : data)
    narrow.emplace_back(static_cast<float>(z.real()),
                        static_cast<float>(z.imag()));
  return constantOp(state, DenseElementsAttr::get(type, llvm::ArrayRef(narrow)));
}

/// An integer (or i1) constant of `type`, each value checked against it.
static Value integerConstant(ModuleState &state, RankedTensorType type,
                             llvm::ArrayRef<int64_t> data, DType dtype,
                             StringRef op) {
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  SmallVector<llvm::APInt> values;
  for (int64_t v : data) {
    bool valid = (width != 1 || v == 0 || v == 1) &&
                 (width != 32 || (v >= INT32_MIN && v <= INT32_MAX));
    if (!valid)
      throw Error(op.str() + ": " + std::to_string(v) + " is not a valid " +
                  dtypeName(dtype) + " value");
    values.push_back(width == 1 ? llvm::APInt(1, v != 0)
                                : llvm::APInt(width, v, /*isSigned=*/true));
  }
  return constantOp(state, DenseElementsAttr::get(type, values));
}

Value detail::makeConstant(ModuleState &state, llvm::ArrayRef<double> data,
                           const std::vector<int64_t> &shape, DType dtype,
                           StringRef op) {
  RankedTensorType type = constantType(state, data.size(), shape, dtype, op);
  if (isa<FloatType>(type.getElementType()))
    return floatConstant(state, type, data);
  if (isComplex(dtype))
    return complexConstant(
        state, type,
        SmallVector<std::complex<double>>(data.begin(), data.end()));
  SmallVector<int64_t> whole;
  for (double d : data) {
    // 2^63 rounds to itself as a double but is not an int64.
    bool valid = std::isfinite(d) && d == std::trunc(d) && d >= -0x1p63 &&
                 d < 0x1p63;
    if (!valid)
      throw Error(op.str() + ": " + formatNumber(d) + " is not a valid " +
                  dtypeName(dtype) + " value");
    whole.push_back(static_cast<int64_t>(d));
  }
  return integerConstant(state, type, whole, dtype, op);
}

Value detail::makeIntegerConstant(ModuleState &state,
                                  llvm::ArrayRef<int64_t> data,
                                  const std::vector<int64_t> &shape,
                                  DType dtype, StringRef op) {
  RankedTensorType type = constantType(state, data.size(), shape, dtype, op);
  if (isa<FloatType>(type.getElementType()))
    return floatConstant(state, type,
                         SmallVector<double>(data.begin(), data.end()));
  if (isComplex(dtype))
    return complexConstant(
        state, type,
        SmallVector<std::complex<double>>(data.begin(), data.end()));
  return integerConstant(state, type, data, dtype, op);
}

Value detail::constantOp(ModuleState &state, DenseElementsAttr attr) {
  OpSpec spec{"adj.constant"};
  spec.attributes.push_back(state.builder.getNamedAttr("value", attr));
  spec.resultTypes = std::vector<mlir::Type>{attr.getType()};
  return createValue(state, spec);
}

Value detail::scalarLike(const Value &like, double value, StringRef op) {
  ModuleState &state = stateOf(op, like);
  Type type = like.type();
  if (!type.isTensor())
    throw Error(op.str() + ": a number combines only with a tensor, got " +
                type.str());
  return makeConstant(state, {value}, {}, type.dtype(), op);
}

Value api::constant(Module &m, llvm::ArrayRef<double> data,
                    std::vector<int64_t> shape, DType dtype) {
  return makeConstant(*m.state(), data, shape, dtype);
}

Value api::scalar(Module &m, double value, DType dtype) {
  return makeConstant(*m.state(), {value}, {}, dtype);
}

Value api::complex_constant(Module &m,
                            llvm::ArrayRef<std::complex<double>> data,
                            std::vector<int64_t> shape, DType dtype) {
  const char *op = "adj.constant";
  if (!isComplex(dtype))
    throw Error(std::string(op) + ": complex values need a complex dtype, "
                                  "got " +
                dtypeName(dtype));
  RankedTensorType type =
      constantType(*m.state(), data.size(), shape, dtype, op);
  return complexConstant(*m.state(), type, data);
}

Value api::integer_constant(Module &m, llvm::ArrayRef<int64_t> data,
                            std::vector<int64_t> shape, DType dtype) {
  return makeIntegerConstant(*m.state(), data, shape, dtype);
}

Value api::integer_scalar(Module &m, int64_t value, DType dtype) {
  return makeIntegerConstant(*m.state(), {value}, {}, dtype);
}

Value api::fill(Module &m, double value, std::vector<int64_t> shape,
                DType dtype) {
  ModuleState &s = *m.state();
  OpSpec spec{"adj.fill"};
  spec.attributes.push_back(
      s.builder.getNamedAttr("value", s.builder.getF64FloatAttr(value)));
  spec.resultTypes =
      std::vector<mlir::Type>{s.mlirType(Type::tensor(dtype, shape))};
  return createValue(s, spec);
}

Value api::zeros(Module &m, std::vector<int64_t> shape, DType dtype) {
  return fill(m, 0.0, std::move(shape), dtype);
}

Value api::ones(Module &m, std::vector<int64_t> shape, DType dtype) {
  return fill(m, 1.0, std::move(shape), dtype);
}

Value api::iota(Module &m, std::vector<int64_t> shape, int64_t axis,
                DType dtype) {
  ModuleState &s = *m.state();
  if (axis < 0)
    axis += static_cast<int64_t>(shape.size());
  OpSpec spec{"adj.iota"};
  spec.attributes.push_back(
      s.builder.getNamedAttr("axis", s.builder.getI64IntegerAttr(axis)));
  spec.resultTypes =
      std::vector<mlir::Type>{s.mlirType(Type::tensor(dtype, shape))};
  return createValue(s, spec);
}

// The seeded functions are conveniences over keys: the seed (a rank-0 i64)
// makes the key, as jax.random.key(seed) does.

Value api::random_normal(Value seed, std::vector<int64_t> shape, DType dtype,
                         double mean, double std) {
  Value z = random::normal(random::key(seed), std::move(shape), dtype);
  // Skipped when they are the identity, so that the standard case gives
  // exactly the key's numbers.
  if (std != 1.0)
    z = z * std;
  if (mean != 0.0)
    z = z + mean;
  return z;
}

Value api::random_uniform(Value seed, std::vector<int64_t> shape, DType dtype,
                          double low, double high) {
  return random::uniform(random::key(seed), std::move(shape), dtype, low,
                         high);
}
