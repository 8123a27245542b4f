//===- ExpandFft.cpp - adj.fft as matmuls and elementwise adj ops ---------===//
//
// The generated FFT (Passes.td, ExpandFft, has the algorithm and its
// costs). Every step is an adj op with an inferred type, so the result is
// ordinary adj IR that -adj-to-linalg lowers like any other: DFT products
// become matmul kernels and the twiddle and index arithmetic fuses into
// elementwise ones.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

#include <cctype>

#include <cmath>
#include <complex>
#include <numbers>

namespace adjoint {
#define GEN_PASS_DEF_EXPANDFFT
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint;
namespace adj = adjoint::adj;

namespace {

/// Lengths up to this are one product with the DFT matrix.
constexpr int64_t kDirectMax = 64;
/// Prime lengths up to this are one product with the DFT matrix too
/// (n^2 work per transform); longer ones take Bluestein's algorithm (about
/// three transforms of a power of two near 2n).
constexpr int64_t kBluesteinMin = 256;
/// Tables of roots of unity up to this many entries are constants.
constexpr int64_t kConstantMax = 1 << 14;

/// Builds the adj ops of one expansion at a fixed location.
class FftBuilder {
public:
  FftBuilder(OpBuilder &b, Location loc, ComplexType complex)
      : b(b), loc(loc), complex(complex),
        real(cast<FloatType>(complex.getElementType())) {}

  /// The transform of `kind` over the trailing `lengths` of `x`.
  Value expand(adj::FftType kind, Value x, ArrayRef<int64_t> lengths) {
    int64_t rank = shapeOf(x).size(), first = rank - lengths.size();
    bool inverse = kind == adj::FftType::ifft || kind == adj::FftType::irfft;
    int sign = inverse ? +1 : -1;
    if (kind == adj::FftType::rfft)
      x = adj::ComplexOp::create(b, loc, x, zerosLike(x));
    // irfft: the other axes first, the last one from its half spectrum.
    int64_t complexAxes = kind == adj::FftType::irfft ? rank - 1 : rank;
    for (int64_t axis = first; axis < complexAxes; ++axis)
      x = alongAxis(x, axis, sign);
    if (kind == adj::FftType::irfft)
      x = halfSpectrumInverse(x, lengths.back());
    if (kind == adj::FftType::rfft) {
      SmallVector<int64_t> limit(shapeOf(x));
      limit.back() = lengths.back() / 2 + 1;
      x = slice(x, limit);
    }
    if (inverse) {
      double count = 1;
      for (int64_t n : lengths)
        count *= static_cast<double>(n);
      x = adj::MulOp::create(b, loc, x, scalar(1.0 / count, elementOf(x)));
    }
    return x;
  }

private:
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  static Type elementOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getElementType();
  }

  Value scalar(double value, Type element) {
    return adj::FillOp::create(b, loc, RankedTensorType::get({}, element),
                               b.getF64FloatAttr(value));
  }
  Value zerosLike(Value x) {
    return adj::FillOp::create(b, loc, x.getType(), b.getF64FloatAttr(0));
  }
  Value reshape(Value x, ArrayRef<int64_t> shape) {
    if (shapeOf(x) == shape)
      return x;
    return adj::ReshapeOp::create(
        b, loc, RankedTensorType::get(shape, elementOf(x)), x);
  }
  Value transpose(Value x, ArrayRef<int64_t> perm) {
    return adj::TransposeOp::create(b, loc, x, perm);
  }
  /// x[0:limit] (stride 1).
  Value slice(Value x, ArrayRef<int64_t> limit) {
    SmallVector<int64_t> start(limit.size(), 0), stride(limit.size(), 1);
    return adj::SliceOp::create(b, loc, x, start, limit, stride);
  }
  /// x with `axis` and the last dimension swapped (its own inverse).
  Value swapLast(Value x, int64_t axis) {
    int64_t rank = shapeOf(x).size();
    if (axis == rank - 1)
      return x;
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    std::swap(perm[axis], perm.back());
    return transpose(x, perm);
  }

  /// exp(sign 2 pi i ((j k) mod n) / n) for j along dimension 0 of a
  /// [rows, cols] tensor and k along dimension 1: the DFT matrix (rows =
  /// cols = n) or the four-step twiddles. A small table is a constant
  /// (computed here in double and rounded once; a kernel fewer to compile
  /// and launch), a large one (the DFT matrix of a long prime length)
  /// is computed in a kernel from iota, the exponent exact in i64.
  Value rootsOfUnity(int64_t rows, int64_t cols, int64_t n, int sign) {
    if (rows * cols <= kConstantMax)
      return rootsConstant(rows, cols, n, sign);
    auto indexType = RankedTensorType::get({rows, cols}, b.getI64Type());
    Value j = adj::IotaOp::create(b, loc, indexType, uint64_t{0});
    Value k = adj::IotaOp::create(b, loc, indexType, uint64_t{1});
    Value jk = adj::MulOp::create(b, loc, j, k);
    Value modulus = scalar(static_cast<double>(n), b.getI64Type());
    Value quotient = adj::DivOp::create(b, loc, jk, modulus);
    Value rem = adj::SubOp::create(
        b, loc, jk, adj::MulOp::create(b, loc, quotient, modulus));
    Value exponent = adj::CastOp::create(
        b, loc, RankedTensorType::get({rows, cols}, real), rem);
    Value angle = adj::MulOp::create(
        b, loc, exponent,
        scalar(sign * 2 * std::numbers::pi / static_cast<double>(n), real));
    return adj::ComplexOp::create(b, loc, adj::CosOp::create(b, loc, angle),
                                  adj::SinOp::create(b, loc, angle));
  }

  Value rootsConstant(int64_t rows, int64_t cols, int64_t n, int sign) {
    SmallVector<std::complex<double>> values;
    values.reserve(rows * cols);
    for (int64_t j = 0; j < rows; ++j)
      for (int64_t k = 0; k < cols; ++k) {
        double angle = 2 * std::numbers::pi * static_cast<double>(j * k % n) /
                       static_cast<double>(n);
        // + 0.0: no negative zeros for angle 0.
        values.emplace_back(std::cos(angle), sign * std::sin(angle) + 0.0);
      }
    return complexConstant({rows, cols}, values);
  }

  /// A constant tensor of the complex type, shaped `shape`, of `values`
  /// (computed in double and rounded once).
  Value complexConstant(ArrayRef<int64_t> shape,
                        ArrayRef<std::complex<double>> values) {
    auto type = RankedTensorType::get(shape, complex);
    DenseElementsAttr table;
    if (real.isF64()) {
      table = DenseElementsAttr::get(type, values);
    } else {
      SmallVector<std::complex<float>> rounded;
      for (std::complex<double> v : values)
        rounded.emplace_back(v);
      table = DenseElementsAttr::get(type, ArrayRef(rounded));
    }
    return adj::ConstantOp::create(b, loc, type, table);
  }

  /// The transform of `sign` over dimension `axis` of x.
  Value alongAxis(Value x, int64_t axis, int sign) {
    return swapLast(lastAxis(swapLast(x, axis), sign), axis);
  }

  /// The transform of `sign` over the last dimension of x.
  Value lastAxis(Value x, int sign) {
    ArrayRef<int64_t> shape = shapeOf(x);
    int64_t n = shape.back(), lines = 1;
    for (int64_t d : shape.drop_back())
      lines *= d;
    if (n == 1)
      return x;
    SmallVector<int64_t> original(shape);
    int64_t n1 = 1;
    for (int64_t d = 2; d * d <= n; ++d)
      if (n % d == 0)
        n1 = d;
    Value flat = reshape(x, {lines, n});
    Value y;
    if (n <= kDirectMax || (n1 == 1 && n <= kBluesteinMin)) {
      y = adj::MatmulOp::create(b, loc, flat, rootsOfUnity(n, n, n, sign));
    } else if (n1 == 1) {
      y = bluestein(flat, n, sign);
    } else {
      // x[n2 j1 + j2] as [lines, j1, j2]; transform over j1 (moved last),
      // twiddle by w^(j2 k1), transform over j2, and read the result
      // [lines, k1, k2] at k1 + n1 k2, which is [lines, k2, k1] flat.
      int64_t n2 = n / n1;
      Value t = transpose(reshape(flat, {lines, n1, n2}), {0, 2, 1});
      t = lastAxis(t, sign); // [lines, j2, k1]
      t = adj::MulOp::create(b, loc, t, rootsOfUnity(n2, n1, n, sign));
      t = lastAxis(transpose(t, {0, 2, 1}), sign); // [lines, k1, k2]
      y = transpose(t, {0, 2, 1});
    }
    return reshape(y, original);
  }

  /// Bluestein's algorithm over the last dimension of the [lines, n] x, for
  /// a long prime n: with w_m = exp(sign i pi m^2 / n), j k = (j^2 + k^2 -
  /// (k - j)^2) / 2 makes X_k = w_k sum_j (x_j w_j) conj(w_(k - j)), a
  /// convolution, done cyclically at the power of two m >= 2n - 1: the
  /// product of the transform of the zero-padded x w with the transform of
  /// the chirp filter (conj(w) at distances 0 to n - 1 either way round the
  /// cycle; a constant with the inverse's 1/m folded in), transformed back.
  Value bluestein(Value x, int64_t n, int sign) {
    int64_t m = 1;
    while (m < 2 * n - 1)
      m *= 2;
    Value w = chirp(n, sign);
    Value a = adj::MulOp::create(b, loc, x, w);
    SmallVector<int64_t> low = {0, 0}, high = {0, m - n};
    a = adj::PadOp::create(b, loc, a, low, high, APFloat(0.0));
    Value product =
        adj::MulOp::create(b, loc, lastAxis(a, -1), chirpFilter(n, m, sign));
    Value conv = lastAxis(product, +1);
    SmallVector<int64_t> limit(shapeOf(conv));
    limit.back() = n;
    return adj::MulOp::create(b, loc, slice(conv, limit), w);
  }

  /// exp(sign i pi (d^2 mod 2n) / n) of the i64 tensor d (d^2 exact in i64
  /// for d < 2^31).
  Value chirpOf(Value d, int64_t n, int sign) {
    auto shape = shapeOf(d);
    Value square = adj::MulOp::create(b, loc, d, d);
    Value modulus = scalar(static_cast<double>(2 * n), b.getI64Type());
    Value rem = adj::SubOp::create(
        b, loc, square,
        adj::MulOp::create(
            b, loc, adj::DivOp::create(b, loc, square, modulus), modulus));
    Value angle = adj::MulOp::create(
        b, loc,
        adj::CastOp::create(b, loc, RankedTensorType::get(shape, real), rem),
        scalar(sign * std::numbers::pi / static_cast<double>(n), real));
    return adj::ComplexOp::create(b, loc, adj::CosOp::create(b, loc, angle),
                                  adj::SinOp::create(b, loc, angle));
  }

  Value iota(int64_t count) {
    return adj::IotaOp::create(
        b, loc, RankedTensorType::get({count}, b.getI64Type()), uint64_t{0});
  }

  /// w_j = exp(sign i pi j^2 / n), j < n: a constant when small, else from
  /// iota.
  Value chirp(int64_t n, int sign) {
    if (n > kConstantMax)
      return chirpOf(iota(n), n, sign);
    SmallVector<std::complex<double>> values;
    for (int64_t j = 0; j < n; ++j)
      values.push_back(chirpValue(j, n, sign));
    return complexConstant({n}, values);
  }

  static std::complex<double> chirpValue(int64_t d, int64_t n, int sign) {
    double angle = std::numbers::pi * static_cast<double>(d * d % (2 * n)) /
                   static_cast<double>(n);
    return {std::cos(angle), sign * std::sin(angle) + 0.0};
  }

  /// The transform (length m) of the chirp filter conj(w) at distances 0
  /// to n - 1 either way round the cycle, times 1 / m.
  Value chirpFilter(int64_t n, int64_t m, int sign) {
    if (m <= kConstantMax) {
      SmallVector<std::complex<double>> filter(m, 0.0);
      for (int64_t d = 0; d < n; ++d)
        filter[d] = filter[(m - d) % m] = chirpValue(d, n, -sign);
      fftInPlace(filter);
      for (std::complex<double> &v : filter)
        v /= static_cast<double>(m);
      return complexConstant({m}, filter);
    }
    // Distances 0..n-1, zeros, then n-1..1.
    Value ahead = chirpOf(iota(n), n, -sign);
    Value behind = chirpOf(
        adj::SubOp::create(b, loc,
                           scalar(static_cast<double>(n - 1), b.getI64Type()),
                           iota(n - 1)),
        n, -sign);
    Value gap = adj::FillOp::create(
        b, loc, RankedTensorType::get({m - 2 * n + 1}, complex),
        b.getF64FloatAttr(0));
    Value filter = adj::ConcatOp::create(
        b, loc, ValueRange{ahead, gap, behind}, int64_t{0});
    Value transformed = lastAxis(reshape(filter, {1, m}), -1);
    return adj::MulOp::create(b, loc, reshape(transformed, {m}),
                              scalar(1.0 / static_cast<double>(m), complex));
  }

  /// The forward DFT of `a` (a power of two long) in place, radix 2, in
  /// double: the chirp filter's constant transform.
  static void fftInPlace(SmallVectorImpl<std::complex<double>> &a) {
    size_t n = a.size();
    for (size_t i = 1, j = 0; i < n; ++i) {
      size_t bit = n >> 1;
      for (; j & bit; bit >>= 1)
        j ^= bit;
      j ^= bit;
      if (i < j)
        std::swap(a[i], a[j]);
    }
    for (size_t len = 2; len <= n; len <<= 1) {
      double angle = -2 * std::numbers::pi / static_cast<double>(len);
      for (size_t i = 0; i < n; i += len)
        for (size_t k = 0; k < len / 2; ++k) {
          std::complex<double> t =
              std::polar(1.0, angle * static_cast<double>(k)) *
              a[i + k + len / 2];
          a[i + k + len / 2] = a[i + k] - t;
          a[i + k] += t;
        }
    }
  }

  /// irfft over the last dimension of the half spectrum x, unscaled: the
  /// real part of the inverse of (x weighted, zero-padded to n).
  Value halfSpectrumInverse(Value x, int64_t n) {
    ArrayRef<int64_t> shape = shapeOf(x);
    int64_t half = shape.back();
    // Weights 1 (zero and, for even n, Nyquist terms) or 2.
    SmallVector<std::complex<double>> weights(half, 2.0);
    weights.front() = 1.0;
    if (n % 2 == 0)
      weights.back() = 1.0;
    Value w = complexConstant({half}, weights);
    x = adj::MulOp::create(b, loc, x, w);
    SmallVector<int64_t> low(shape.size(), 0), high(low);
    high.back() = n - half;
    x = adj::PadOp::create(b, loc, x, low, high, APFloat(0.0));
    return adj::RealOp::create(b, loc, lastAxis(x, +1));
  }

  OpBuilder &b;
  Location loc;
  ComplexType complex;
  FloatType real;
};

/// The name of the function that computes `op` generated: one per
/// transform and type, e.g. __adj_fft_generated_rfft_n6x10_2x6x10xf32.
std::string outlinedName(adj::FftOp op) {
  std::string name =
      ("__adj_fft_generated_" + adj::stringifyFftType(op.getFftType())).str();
  for (auto [i, n] : llvm::enumerate(op.getLengths()))
    name += (i ? "x" : "_n") + std::to_string(n);
  auto type = cast<RankedTensorType>(op.getInput().getType());
  name += "_";
  for (int64_t d : type.getShape())
    name += std::to_string(d) + "x";
  std::string element;
  llvm::raw_string_ostream os(element);
  os << type.getElementType();
  for (char c : element)
    if (std::isalnum(static_cast<unsigned char>(c)))
      name += c;
  return name;
}

struct ExpandFft : adjoint::impl::ExpandFftBase<ExpandFft> {
  using ExpandFftBase::ExpandFftBase;

  void runOnOperation() override {
    SmallVector<adj::FftOp> ops;
    getOperation().walk([&](adj::FftOp op) { ops.push_back(op); });
    for (adj::FftOp op : ops) {
      auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
      if (!type || !type.hasStaticShape()) {
        op.emitOpError("needs a static shape to be expanded");
        return signalPassFailure();
      }
      if (outline)
        outlineExpansion(op);
      else
        expandInPlace(op);
    }
  }

  /// The expansion of `op` at `b`'s insertion point.
  static Value expansion(OpBuilder &b, adj::FftOp op, Value input) {
    Type element =
        cast<RankedTensorType>(input.getType()).getElementType();
    auto complex = dyn_cast<ComplexType>(element);
    if (!complex)
      complex = ComplexType::get(element);
    FftBuilder fft(b, op.getLoc(), complex);
    return fft.expand(op.getFftType(), input, op.getLengths());
  }

  static void expandInPlace(adj::FftOp op) {
    OpBuilder b(op);
    op.getResult().replaceAllUsesWith(expansion(b, op, op.getInput()));
    op.erase();
  }

  /// Keeps `op` for a library and puts its expansion in a private function
  /// that the op names (kGeneratedFftAttrName), one per configuration.
  void outlineExpansion(adj::FftOp op) {
    ModuleOp module = getOperation();
    std::string name = outlinedName(op);
    if (!module.lookupSymbol(name)) {
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      auto func = adj::FuncOp::create(
          b, op.getLoc(), name,
          b.getFunctionType(op.getInput().getType(), op.getType()));
      func.setPrivate();
      Block *entry = func.addEntryBlock();
      b.setInsertionPointToStart(entry);
      Value result = expansion(b, op, entry->getArgument(0));
      adj::ReturnOp::create(b, op.getLoc(), ValueRange{result});
    }
    op->setAttr(kGeneratedFftAttrName,
                FlatSymbolRefAttr::get(op.getContext(), name));
  }
};

} // namespace
