//===- Random.cpp - Counter-based random numbers from keys ----------------===//
//
// Keys, splits and samples as compositions of adj.threefry2x32 with the
// Bits, Elementwise and Movement primitives, following jax.random with its
// default threefry implementation (jax_threefry_partitionable): element i
// (row-major) of a sample of any shape hashes the counter (hi(i), lo(i))
// under the key, so `bits`, `split` and `uniform` give JAX's numbers bit for
// bit. Every op involved is integer arithmetic or exact float arithmetic, so
// every target computes the same bits; only `normal` and `categorical`,
// which go through log and sqrt, may differ in the last ulp between targets.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include <cmath>
#include <limits>

using llvm::StringRef;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

namespace {

Value constantIn(ModuleState &s, double value, DType dtype) {
  return makeConstant(s, {value}, {}, dtype);
}

Value iotaOf(ModuleState &s, int64_t n, DType dtype) {
  OpSpec spec{"adj.iota"};
  spec.attributes.push_back(i64Attr(s, "axis", 0));
  spec.resultTypes =
      std::vector<mlir::Type>{s.mlirType(Type::tensor(dtype, {n}))};
  return createValue(s, spec);
}

/// Checks that `key` is one key, a tensor<2xi32>.
ModuleState &checkKey(StringRef op, const Value &key) {
  ModuleState &s = stateOf(op, key);
  Type type = key.type();
  if (!type.isTensor() || type.dtype() != DType::I32 ||
      type.shape() != std::vector<int64_t>{2})
    throw Error(op.str() + ": expected a key (tensor<2xi32>), got " +
                type.str() + "; index the result of split() for one key");
  return s;
}

/// Word `i` of a key, as a tensor<1xi32> that broadcasts. Not reshaped to
/// rank 0: on the OpenCL target a rank-0 view of a slice of an argument
/// reads the argument's first element (the slice's offset is lost), and a
/// size-1 slice broadcasts just as well.
Value keyWord(const Value &key, int64_t i) {
  return slice(key, {i}, {i + 1});
}

/// threefry2x32 of the key's words over counter words (x0, x1), of the
/// shape `shape` (the key's size-1 words would make a rank-0 result [1]).
Value hashUnderKey(const Value &key, Value x0, Value x1,
                   const std::vector<int64_t> &shape) {
  Value hashed = threefry2x32(keyWord(key, 0), keyWord(key, 1), x0, x1);
  return shape.empty() ? reshape(hashed, {}) : hashed;
}

/// The high and the low 32 bits of i64 words, as i32 words.
Value highWord(ModuleState &s, Value w) {
  return cast(shift_right_logical(w, constantIn(s, 32, DType::I64)),
              DType::I32);
}
Value lowWord(Value w) { return cast(w, DType::I32); }

/// A key (or keys, along a trailing axis of 2) from packed hash results.
Value keyOf(ModuleState &s, Value hashed) {
  std::vector<int64_t> shape = hashed.shape();
  shape.push_back(1);
  return concat({reshape(highWord(s, hashed), shape),
                 reshape(lowWord(hashed), shape)},
                -1);
}

/// threefry2x32 of the key over the counters 0, 1, ... laid out row-major
/// in `shape`, each a 64-bit index split into a high and a low word.
Value hashCounts(ModuleState &s, const Value &key,
                 const std::vector<int64_t> &shape) {
  int64_t n = Type::tensor(DType::I32, shape).numel();
  Value hi, lo;
  if (n <= std::numeric_limits<int32_t>::max()) {
    hi = constantIn(s, 0, DType::I32);
    lo = reshape(iotaOf(s, n, DType::I32), shape);
  } else {
    Value counts = reshape(iotaOf(s, n, DType::I64), shape);
    hi = highWord(s, counts);
    lo = lowWord(counts);
  }
  return hashUnderKey(key, hi, lo, shape);
}

/// Mantissa bits of each float type and the random bits a uniform sample
/// takes them from (JAX uses 8 for bfloat16, whose 7 would be too few).
struct FloatBits {
  int mantissa, taken;
};

FloatBits floatBits(StringRef op, DType dtype) {
  switch (dtype) {
  case DType::F64:
    return {52, 64};
  case DType::F32:
    return {23, 32};
  case DType::F16:
    return {10, 16};
  case DType::BF16:
    return {7, 8};
  default:
    throw Error(op.str() + ": expected a floating-point dtype, got " +
                Type::scalar(dtype).str());
  }
}

/// Uniform floats in [0, 1) with the resolution of `dtype`: the top
/// `mantissa` of `taken` random bits, scaled by 2^-mantissa. JAX ORs them
/// into the mantissa of 1.0 and subtracts 1, which gives the same float
/// exactly; this way also serves 16-bit floats, which have no integer type
/// of their width here.
Value unitFloats(ModuleState &s, const Value &key,
                 const std::vector<int64_t> &shape, DType dtype) {
  FloatBits fb = floatBits("adjoint.random.uniform", dtype);
  double scale = std::ldexp(1.0, -fb.mantissa);
  if (fb.taken == 64) {
    Value m = shift_right_logical(random::bits(key, shape, DType::I64),
                                  constantIn(s, 12, DType::I64));
    return cast(m, DType::F64) * scale;
  }
  Value words = random::bits(key, shape, DType::I32);
  if (fb.taken < 32)
    words = bitwise_and(
        words, constantIn(s, std::ldexp(1.0, fb.taken) - 1, DType::I32));
  Value m = shift_right_logical(
      words, constantIn(s, fb.taken - fb.mantissa, DType::I32));
  // Below 2^24, so exact in f32; the scaled value is exact in `dtype`.
  return cast(cast(m, DType::F32) * scale, dtype);
}

/// erfinv on f32 (Giles, "Approximating the erfinv function", GPU Computing
/// Gems, 2010: the single-precision polynomials, as XLA evaluates them).
/// w = -log(1 - x^2) picks the central (w < 5) or the tail polynomial;
/// erfinv(+-1) is +-inf.
Value erfinvF32(ModuleState &s, Value x) {
  static constexpr double kCentral[] = {
      2.81022636e-08,  3.43273939e-07, -3.5233877e-06,
      -4.39150654e-06, 0.00021858087,  -0.00125372503,
      -0.00417768164,  0.246640727,    1.50140941};
  static constexpr double kTail[] = {
      -0.000200214257, 0.000100950558, 0.00134934322,
      -0.00367342844,  0.00573950773,  -0.0076224613,
      0.00943887047,   1.00167406,     2.83297682};
  DType dt = x.dtype();
  // w as XLA computes it, -log1p(-x*x) with x*x rounded, so that the tails
  // are JAX's numbers: where x*x >= 1/2, 1 - x*x is exact and log1p(-x*x)
  // is log(1 - x*x); below, (1 - x)(1 + x) is as accurate as log1p's
  // argument. (Rounding x*x first costs JAX about 1e-5 relative accuracy
  // at |z| = 4; followed here for equality.)
  Value square = x * x;
  Value w = -select(square < 0.5, log((1.0 - x) * (1.0 + x)), log(1.0 - square));
  Value central = w < 5.0;
  Value wc = w - 2.5, wt = sqrt(w) - 3.0;
  Value pc = constantIn(s, kCentral[0], dt), pt = constantIn(s, kTail[0], dt);
  for (size_t i = 1; i < std::size(kCentral); ++i) {
    pc = kCentral[i] + pc * wc;
    pt = kTail[i] + pt * wt;
  }
  Value result = select(central, pc, pt) * x;
  Value infinite = x * std::numeric_limits<double>::infinity();
  return select(abs(x) == 1.0, infinite, result);
}

/// erfinv on f64: the f32 polynomials evaluated in f64, then two Newton
/// steps on erf(y) = x, which square the relative error (1e-7 -> 1e-14 ->
/// below an ulp). Past |y| = 5 the step would divide by exp(-y^2) < 1e-11
/// a residual erf(y) - x that is only known to an ulp of 1, so the tails
/// keep the polynomial's value.
Value erfinvF64(ModuleState &s, Value x) {
  Value y = erfinvF32(s, x);
  const double twoOverSqrtPi = 2.0 / std::sqrt(M_PI);
  Value refine = abs(y) < 5.0;
  for (int step = 0; step < 2; ++step) {
    Value slope = exp(-(y * y)) * twoOverSqrtPi;
    Value next = y - (erf(y) - x) / slope;
    y = select(refine, next, y);
  }
  return y;
}

/// The index of the first maximum along `axis` (i32), as jnp.argmax.
Value argmaxAlong(ModuleState &s, Value x, int64_t axis) {
  int64_t n = x.shape()[axis];
  Value top = max(x, axis, /*keepdims=*/true);
  OpSpec spec{"adj.iota"};
  spec.attributes.push_back(i64Attr(s, "axis", axis));
  spec.resultTypes = std::vector<mlir::Type>{
      s.mlirType(Type::tensor(DType::I32, x.shape()))};
  Value index = createValue(s, spec);
  // The maximum of the reversed index among the maxima is the first one.
  Value reversed = select(x == top, double(n - 1) - index, -1.0);
  return double(n - 1) - max(reversed, axis);
}

} // namespace

Value random::key(Value seed) {
  ModuleState &s = stateOf("adjoint.random.key", seed);
  Type type = seed.type();
  if (!type.isTensor() || type.rank() != 0 ||
      (type.dtype() != DType::I32 && type.dtype() != DType::I64))
    throw Error("adjoint.random.key: expected a rank-0 i32 or i64 seed, got " +
                type.str());
  if (type.dtype() == DType::I32)
    return concat({makeConstant(s, {0.0}, {1}, DType::I32),
                   reshape(seed, {1})});
  return keyOf(s, seed);
}

Value random::key(Module &m, int64_t seed) {
  // JAX's words: [0, s] for a seed that fits in 32 bits, else the high and
  // low words of the 64-bit seed. As i32 words, exact in the doubles that
  // constants take.
  bool narrow = seed >= std::numeric_limits<int32_t>::min() &&
                seed <= std::numeric_limits<int32_t>::max();
  auto word = [](uint64_t w) { return double(int32_t(uint32_t(w))); };
  double high = narrow ? 0.0 : word(uint64_t(seed) >> 32);
  return constant(m, {high, word(uint64_t(seed))}, {2}, DType::I32);
}

Value random::split(Value key, int64_t num) {
  ModuleState &s = checkKey("adjoint.random.split", key);
  if (num < 0)
    throw Error("adjoint.random.split: expected num >= 0, got " +
                std::to_string(num));
  return keyOf(s, hashCounts(s, key, {num}));
}

Value random::fold_in(Value key, Value data) {
  ModuleState &s = checkKey("adjoint.random.fold_in", key);
  Type type = data.type();
  if (!type.isTensor() || type.rank() != 0 ||
      (type.dtype() != DType::I32 && type.dtype() != DType::I64))
    throw Error("adjoint.random.fold_in: expected rank-0 i32 or i64 data, "
                "got " + type.str());
  Value word = type.dtype() == DType::I32 ? data : lowWord(data);
  Value hashed = hashUnderKey(key, constantIn(s, 0, DType::I32), word, {});
  return keyOf(s, hashed);
}

Value random::fold_in(Value key, int64_t data) {
  ModuleState &s = checkKey("adjoint.random.fold_in", key);
  return fold_in(key, constantIn(s, double(int32_t(uint32_t(data))),
                                 DType::I32));
}

Value random::bits(Value key, std::vector<int64_t> shape, DType dtype) {
  ModuleState &s = checkKey("adjoint.random.bits", key);
  if (dtype != DType::I32 && dtype != DType::I64)
    throw Error("adjoint.random.bits: expected dtype i32 or i64, got " +
                Type::scalar(dtype).str());
  Value hashed = hashCounts(s, key, shape);
  if (dtype == DType::I64)
    return hashed;
  // JAX's 32-bit words: the xor of the two words of each hash.
  return lowWord(bitwise_xor(
      shift_right_logical(hashed, constantIn(s, 32, DType::I64)), hashed));
}

Value random::uniform(Value key, std::vector<int64_t> shape, DType dtype,
                      double minval, double maxval) {
  ModuleState &s = checkKey("adjoint.random.uniform", key);
  if (!(minval <= maxval))
    throw Error("adjoint.random.uniform: expected minval <= maxval, got " +
                std::to_string(minval) + " and " + std::to_string(maxval));
  Value unit = unitFloats(s, key, shape, dtype);
  Value lo = constantIn(s, minval, dtype), hi = constantIn(s, maxval, dtype);
  // As JAX: scaled, shifted, and kept from rounding below minval. On f32,
  // XLA contracts the multiply-add into an fma, rounded once: in f64 the
  // product is exact and the sum almost always too, so rounding it back
  // gives the fma's float on every target (it can differ only when an
  // inexact f64 sum lands exactly halfway between two floats). XLA rounds
  // 16-bit floats after each op, as here; on f64 (jax_enable_x64) it uses
  // an fma that has no wider type to emulate it with, so f64 samples with
  // other bounds than [0, 1) may differ from JAX's in the last ulp.
  Value range = hi - lo;
  Value scaled =
      dtype == DType::F32
          ? cast(cast(unit, DType::F64) * cast(range, DType::F64) +
                     cast(lo, DType::F64),
                 DType::F32)
          : unit * range + lo;
  return maximum(lo, scaled);
}

Value random::normal(Value key, std::vector<int64_t> shape, DType dtype) {
  ModuleState &s = checkKey("adjoint.random.normal", key);
  FloatBits fb = floatBits("adjoint.random.normal", dtype);
  // The float after -1 towards 0: erfinv(-1) would be -inf.
  double lo = -1.0 + std::ldexp(1.0, -(fb.mantissa + 1));
  Value u = uniform(key, shape, dtype, lo, 1.0);
  Value e = dtype == DType::F64 ? erfinvF64(s, u)
                                : cast(erfinvF32(s, cast(u, DType::F32)), dtype);
  return e * constantIn(s, std::sqrt(2.0), dtype);
}

Value random::bernoulli(Value key, Value p, std::vector<int64_t> shape) {
  checkKey("adjoint.random.bernoulli", key);
  Type type = p.type();
  if (!type.isTensor() || !isFloat(type.dtype()))
    throw Error("adjoint.random.bernoulli: expected a floating-point "
                "probability, got " + type.str());
  return uniform(key, std::move(shape), type.dtype()) < p;
}

Value random::bernoulli(Value key, Value p) {
  return bernoulli(key, p, tensorTypeOf("adjoint.random.bernoulli", p).shape());
}

Value random::bernoulli(Value key, double p, std::vector<int64_t> shape,
                        DType dtype) {
  ModuleState &s = checkKey("adjoint.random.bernoulli", key);
  floatBits("adjoint.random.bernoulli", dtype); // Floats only.
  return bernoulli(key, constantIn(s, p, dtype), std::move(shape));
}

Value random::categorical(Value key, Value logits, int64_t axis,
                          std::optional<std::vector<int64_t>> shape) {
  ModuleState &s = checkKey("adjoint.random.categorical", key);
  Type type = tensorTypeOf("adjoint.random.categorical", logits);
  floatBits("adjoint.random.categorical", type.dtype()); // Floats only.
  std::vector<int64_t> dims = type.shape();
  int64_t rank = int64_t(dims.size());
  int64_t ax = normalizeAxis(axis, rank);
  if (ax < 0 || ax >= rank)
    throw Error("adjoint.random.categorical: axis " + std::to_string(axis) +
                " is out of range for " + type.str());
  std::vector<int64_t> batch = dims;
  batch.erase(batch.begin() + ax);
  std::vector<int64_t> prefix;
  if (shape) {
    bool endsWithBatch =
        shape->size() >= batch.size() &&
        std::equal(batch.begin(), batch.end(),
                   shape->end() - int64_t(batch.size()));
    if (!endsWithBatch)
      throw Error("adjoint.random.categorical: shape must end with the "
                  "logits' shape without the axis, " +
                  Type::tensor(type.dtype(), batch).str());
    prefix.assign(shape->begin(), shape->end() - int64_t(batch.size()));
  }
  std::vector<int64_t> sampleShape = prefix;
  sampleShape.insert(sampleShape.end(), dims.begin(), dims.end());
  // Gumbel noise -log(-log(u)), u in [tiny, 1), as jax.random.gumbel.
  double tiny = type.dtype() == DType::F64
                    ? std::numeric_limits<double>::min()
                    : std::numeric_limits<float>::min();
  Value u = uniform(key, sampleShape, type.dtype(), tiny, 1.0);
  Value gumbel = -log(-log(u));
  return argmaxAlong(s, gumbel + logits, int64_t(prefix.size()) + ax);
}

Value random::dropout(Value key, Value x, double rate) {
  checkKey("adjoint.random.dropout", key);
  Type type = tensorTypeOf("adjoint.random.dropout", x);
  if (!(rate >= 0.0 && rate < 1.0))
    throw Error("adjoint.random.dropout: expected 0 <= rate < 1, got " +
                std::to_string(rate));
  if (rate == 0.0)
    return x;
  double keep = 1.0 - rate;
  Value kept = bernoulli(key, keep, type.shape(), type.dtype());
  return select(kept, x / keep, 0.0);
}
