//===- Fourier.cpp - adj.fft ----------------------------------------------===//
//
// The reference transform: Eigen's FFT (kissfft, mixed radix for any
// length) in complex<double>, one 1-D transform per axis and line, rounded
// once to the result type. rfft transforms the real input as complex and
// keeps the non-negative frequencies of the last axis; irfft rebuilds the
// full Hermitian spectrum of the last axis from its half (X[n - k] =
// conj(X[k])) and keeps the real part of the inverse, which is exactly a
// c2r transform's reading: the imaginary parts of the zero and Nyquist
// terms only ever reach the discarded imaginary part.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include <unsupported/Eigen/FFT>

#include <complex>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

namespace {

using Cd = std::complex<double>;

/// Transforms every line of `data` (row-major, `shape`) along `axis` in
/// place: forward (e^{-2 pi i jk/n}) or inverse (e^{+...}, divided by n).
void alongAxis(std::vector<Cd> &data, ArrayRef<int64_t> shape, size_t axis,
               bool inverse) {
  int64_t n = shape[axis], inner = 1, outer = 1;
  // A one-point transform is the identity (and kissfft has no plan for it).
  if (n == 1)
    return;
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  for (size_t d = 0; d < axis; ++d)
    outer *= shape[d];
  Eigen::FFT<double> fft;
  std::vector<Cd> line(n), out(n);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      Cd *base = data.data() + o * n * inner + i;
      for (int64_t k = 0; k < n; ++k)
        line[k] = base[k * inner];
      if (inverse)
        fft.inv(out, line); // divides by n
      else
        fft.fwd(out, line);
      for (int64_t k = 0; k < n; ++k)
        base[k * inner] = out[k];
    }
}

/// `data` (shape `shape`) with its last axis cut or zero-extended to `n`.
std::vector<Cd> resizeLast(const std::vector<Cd> &data,
                           ArrayRef<int64_t> shape, int64_t n) {
  // Lengths are positive (the op's verifier), so `have` is too.
  int64_t have = shape.back(), lines = data.size() / have;
  std::vector<Cd> out(lines * n);
  for (int64_t l = 0; l < lines; ++l)
    for (int64_t k = 0; k < std::min(have, n); ++k)
      out[l * n + k] = data[l * have + k];
  return out;
}

Tensor fft(adj::FftOp op, const Tensor &input) {
  ArrayRef<int64_t> lengths = op.getLengths();
  size_t rank = input.rank(), first = rank - lengths.size();
  adj::FftType kind = op.getFftType();
  std::vector<Cd> data;
  if (kind == adj::FftType::rfft) {
    std::vector<double> real = elementsAs<double>(input);
    data.assign(real.begin(), real.end());
  } else {
    data = elementsAs<Cd>(input);
  }
  std::vector<int64_t> shape(input.shape().begin(), input.shape().end());
  bool inverse = kind == adj::FftType::ifft || kind == adj::FftType::irfft;

  if (kind == adj::FftType::irfft) {
    // The inverse over the other axes first, then the full spectrum of the
    // last one from its half.
    for (size_t axis = first; axis + 1 < rank; ++axis)
      alongAxis(data, shape, axis, true);
    int64_t n = lengths.back(), half = shape.back();
    std::vector<Cd> full = resizeLast(data, shape, n);
    for (int64_t l = 0, lines = full.size() / n; l < lines; ++l)
      for (int64_t k = half; k < n; ++k)
        full[l * n + k] = std::conj(full[l * n + (n - k)]);
    shape.back() = n;
    alongAxis(full, shape, rank - 1, true);
    data = std::move(full);
  } else {
    for (size_t axis = first; axis < rank; ++axis)
      alongAxis(data, shape, axis, inverse);
    if (kind == adj::FftType::rfft) {
      int64_t half = lengths.back() / 2 + 1;
      data = resizeLast(data, shape, half);
      shape.back() = half;
    }
  }

  DType out = resultDType(op);
  Tensor result(out, shape);
  dispatchAny(out, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *po = ptr<T>(result);
    for (size_t i = 0; i < data.size(); ++i) {
      if constexpr (kIsComplex<T>)
        po[i] = T(data[i]);
      else
        po[i] = static_cast<T>(data[i].real());
    }
  });
  return result;
}

} // namespace

std::optional<Tensor>
adjoint::interp::detail::evalFourier(Operation *op, ArrayRef<Tensor> operands) {
  auto fftOp = dyn_cast<adj::FftOp>(op);
  if (!fftOp)
    return std::nullopt;
  return fft(fftOp, operands[0]);
}
