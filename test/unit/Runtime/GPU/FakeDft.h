//===- FakeDft.h - Transforms from the DFT's definition ---------*- C++ -*-===//
//
// What the fake cuFFT and rocFFT compute: contiguous batches of transforms
// over row-major dimensions `n`, evaluated from the definition in long
// double (the test sizes are small), unnormalized as the vendors' are; a
// real inverse reads a Hermitian half spectrum (the last dimension n/2 + 1
// long) and, as both libraries may, overwrites it afterwards, so that a
// runtime that passed its caller's buffer is caught.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEDFT_H
#define ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEDFT_H

#include <cmath>
#include <complex>
#include <cstddef>
#include <limits>
#include <vector>

namespace fake {

enum class Transform { Forward, Inverse, RealForward, RealInverse };

using Complex = std::complex<long double>;

/// The unnormalized DFT of one transform over the dimensions `n`, with
/// exp(sign 2 pi i j.k / n).
inline std::vector<Complex> dft(const std::vector<Complex> &x,
                                const std::vector<int> &n, int sign) {
  size_t points = x.size();
  std::vector<Complex> y(points);
  const long double pi = std::acos(-1.0L);
  for (size_t k = 0; k < points; ++k) {
    Complex sum = 0;
    for (size_t j = 0; j < points; ++j) {
      long double phase = 0;
      size_t kr = k, jr = j;
      for (size_t d = n.size(); d-- > 0;) {
        phase += (long double)(jr % n[d]) * (kr % n[d]) / n[d];
        jr /= n[d];
        kr /= n[d];
      }
      sum += x[j] * std::polar(1.0L, sign * 2 * pi * phase);
    }
    y[k] = sum;
  }
  return y;
}

template <typename R> Complex load(const void *base, size_t i, bool complex) {
  const R *p = static_cast<const R *>(base);
  return complex ? Complex(p[2 * i], p[2 * i + 1]) : Complex(p[i], 0);
}

template <typename R>
void store(void *base, size_t i, Complex value, bool complex) {
  R *p = static_cast<R *>(base);
  if (complex) {
    p[2 * i] = R(value.real());
    p[2 * i + 1] = R(value.imag());
  } else {
    p[i] = R(value.real());
  }
}

/// `batch` transforms of `kind` over dimensions `n` of real type R from
/// `in` to `out`.
template <typename R>
void transform(const std::vector<int> &n, int batch, Transform kind,
               void *in, void *out) {
  size_t points = 1;
  for (int d : n)
    points *= d;
  int last = n.back();
  size_t half = points / last * (last / 2 + 1);
  bool r2c = kind == Transform::RealForward;
  bool c2r = kind == Transform::RealInverse;
  int sign = kind == Transform::Forward || r2c ? -1 : +1;
  size_t inPoints = c2r ? half : points, outPoints = r2c ? half : points;
  for (int b = 0; b < batch; ++b) {
    std::vector<Complex> x(points);
    if (c2r) {
      // The full spectrum from its Hermitian half: X[k] = conj(X[-k]).
      for (size_t k = 0; k < points; ++k) {
        std::vector<size_t> index(n.size());
        size_t r = k;
        for (size_t d = n.size(); d-- > 0;) {
          index[d] = r % n[d];
          r /= n[d];
        }
        bool mirrored = index.back() > size_t(last / 2);
        if (mirrored)
          for (size_t d = 0; d < index.size(); ++d)
            index[d] = (n[d] - index[d]) % n[d];
        size_t stored = 0;
        for (size_t d = 0; d < index.size(); ++d)
          stored = stored * (d + 1 == index.size() ? last / 2 + 1 : n[d]) +
                   index[d];
        Complex value = load<R>(in, b * inPoints + stored, true);
        x[k] = mirrored ? std::conj(value) : value;
      }
    } else {
      for (size_t j = 0; j < points; ++j)
        x[j] = load<R>(in, b * inPoints + j, !r2c);
    }
    std::vector<Complex> y = dft(x, n, sign);
    for (size_t k = 0, o = 0; k < points; ++k) {
      if (r2c && k % last > size_t(last / 2))
        continue;
      store<R>(out, b * outPoints + o++, y[k], !c2r);
    }
  }
  if (c2r)
    for (size_t i = 0; i < 2 * size_t(batch) * inPoints; ++i)
      static_cast<R *>(in)[i] = std::numeric_limits<R>::quiet_NaN();
}

} // namespace fake

#endif // ADJOINT_TEST_UNIT_RUNTIME_GPU_FAKEDFT_H
