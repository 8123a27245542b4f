//===- Fourier.cpp - Rules of adj.fft -------------------------------------===//
//
// The transform is linear, so its tangent is the transform of the tangent,
// and its sensitivity is the transpose under JAX's convention for complex
// numbers (the transpose of z -> a z is c -> a c, no conjugation; of
// x -> x + 0i, c -> real(c)):
//
//   fft, ifft: the DFT matrix is symmetric, so each is its own transpose;
//   rfft:      rfft(x) = the first n/2 + 1 entries of fft(x + 0i), whose
//              transpose is real(fft(c zero-padded to n));
//   irfft:     y_j = sum_k Re(w_k e^{2 pi i jk/n} X_k) / N, w_k = 1 for
//              the zero and Nyquist terms and 2 for the others, whose
//              transpose is conj(w rfft(c)) / N.
//
// These are JAX's rules (jax/_src/lax/fft.py); each is made of adj.fft and
// elementwise ops, so derivatives of every order follow.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

namespace {

Val transform(Emitter &e, FftType kind, Val x, ArrayRef<int64_t> lengths) {
  return e.make<FftOp>(kind, x, lengths);
}

/// The weights w_k of irfft's half spectrum of a length-n signal, as a
/// [n/2 + 1] tensor of `element` (a real type) divided by `count`.
Val halfSpectrumWeights(Emitter &e, int64_t n, double count, Type element) {
  int64_t half = n / 2 + 1;
  auto type = RankedTensorType::get({half}, element);
  SmallVector<double> w(half, 2.0 / count);
  w.front() = 1.0 / count;
  if (n % 2 == 0)
    w.back() = 1.0 / count;
  DenseElementsAttr attr =
      element.isF64()
          ? DenseElementsAttr::get(type, ArrayRef<double>(w))
          : DenseElementsAttr::get(
                type, ArrayRef<float>(SmallVector<float>(w.begin(), w.end())));
  return e.make<ConstantOp>(type, attr);
}

Val transpose(Emitter &e, FftOp op, Val c) {
  ArrayRef<int64_t> lengths = op.getLengths();
  int64_t n = lengths.back();
  switch (op.getFftType()) {
  case FftType::fft:
  case FftType::ifft:
    return transform(e, op.getFftType(), c, lengths);
  case FftType::rfft: {
    SmallVector<int64_t> low(c.shape().size(), 0), high(low);
    high.back() = n - c.shape().back();
    return e.real(transform(e, FftType::fft, e.pad(c, low, high), lengths));
  }
  case FftType::irfft: {
    Val x = transform(e, FftType::rfft, c, lengths);
    double count = 1;
    for (int64_t l : lengths)
      count *= static_cast<double>(l);
    Type real = c.type().getElementType();
    Val w = halfSpectrumWeights(e, n, count, real);
    return e.conj(x * e.cast(w, x.type().getElementType()));
  }
  }
  llvm_unreachable("unknown FftType");
}

} // namespace

void adjoint::ad::rules::addFourierRules(RuleMap &m) {
  define<FftOp>(
      m,
      [](Emitter &e, FftOp op, Val dy) -> Sens { return {transpose(e, op, dy)}; },
      [](Emitter &e, FftOp op, ArrayRef<Val> t) -> Val {
        return transform(e, op.getFftType(), t[0], op.getLengths());
      });
}
