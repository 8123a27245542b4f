//===- FourierTest.cpp - adj.fft in the interpreter -----------------------===//
//
// The reference transform (Fourier.cpp, on Eigen's FFT) against the DFT's
// definition summed directly: every type, several axes, a prime and a
// composite length, irfft's reading of a Hermitian half spectrum (the
// imaginary parts of the zero and Nyquist terms ignored), and f32 results
// rounded from the double computation.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cmath>
#include <complex>
#include <numbers>

using namespace adjoint;
using namespace adjoint::test;
using C = std::complex<double>;

namespace {

Tensor c128(std::vector<int64_t> shape, const std::vector<C> &values) {
  Tensor t(DType::C128, std::move(shape));
  REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
  std::copy(values.begin(), values.end(), static_cast<C *>(t.mutableData()));
  return t;
}

std::vector<C> complexValues(const Tensor &t) {
  REQUIRE(t.dtype() == DType::C128);
  const C *p = static_cast<const C *>(t.data());
  return {p, p + t.numel()};
}

std::vector<double> realValues(const Tensor &t) {
  REQUIRE(t.dtype() == DType::F64);
  const double *p = static_cast<const double *>(t.data());
  return {p, p + t.numel()};
}

/// sum_j x[j] e^{sign 2 pi i j k / n} over each row of `x` ([rows, n]).
std::vector<C> dftRows(const std::vector<C> &x, int64_t n, int sign) {
  std::vector<C> out(x.size());
  for (size_t r = 0; r < x.size() / n; ++r)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        out[r * n + k] += x[r * n + j] *
                          std::polar(1.0, sign * 2 * std::numbers::pi *
                                              double(j * k % n) / double(n));
  return out;
}

std::vector<C> sample(int64_t count, double phase) {
  std::vector<C> v;
  for (int64_t i = 0; i < count; ++i)
    v.emplace_back(std::sin(0.7 * i + phase), std::cos(1.3 * i - phase));
  return v;
}

void requireNear(const std::vector<C> &got, const std::vector<C> &want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    CHECK(std::abs(got[i] - want[i]) <= 1e-12 * (1 + std::abs(want[i])));
  }
}

} // namespace

TEST_CASE("fft and ifft over the last axis match the DFT's definition") {
  Program p(R"(
    adj.func @f(%z: tensor<2x7xcomplex<f64>>, %w: tensor<3x12xcomplex<f64>>)
        -> (tensor<2x7xcomplex<f64>>, tensor<3x12xcomplex<f64>>) {
      %a = adj.fft fft %z lengths = [7] : tensor<2x7xcomplex<f64>>
      %b = adj.fft ifft %w lengths = [12] : tensor<3x12xcomplex<f64>>
      adj.return %a, %b : tensor<2x7xcomplex<f64>>, tensor<3x12xcomplex<f64>>
    })");
  std::vector<C> z = sample(14, 0.1), w = sample(36, 0.4);
  auto r = p.call("f", {c128({2, 7}, z), c128({3, 12}, w)});
  requireNear(complexValues(r[0].tensor()), dftRows(z, 7, -1));
  std::vector<C> inverse = dftRows(w, 12, +1);
  for (C &v : inverse)
    v /= 12.0;
  requireNear(complexValues(r[1].tensor()), inverse);
}

TEST_CASE("fft over two axes is the DFT of the rows of the columns' DFT") {
  Program p(R"(
    adj.func @f(%z: tensor<3x4xcomplex<f64>>) -> tensor<3x4xcomplex<f64>> {
      %a = adj.fft fft %z lengths = [3, 4] : tensor<3x4xcomplex<f64>>
      adj.return %a : tensor<3x4xcomplex<f64>>
    })");
  std::vector<C> z = sample(12, 0.9);
  std::vector<C> rows = dftRows(z, 4, -1), transposed(12), want(12);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      transposed[j * 3 + i] = rows[i * 4 + j];
  std::vector<C> columns = dftRows(transposed, 3, -1);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j)
      want[i * 4 + j] = columns[j * 3 + i];
  requireNear(complexValues(p.call("f", {c128({3, 4}, z)})[0].tensor()), want);
}

TEST_CASE("rfft keeps the non-negative frequencies, irfft reads a "
          "Hermitian half spectrum") {
  for (int64_t n : {8, 9}) {
    INFO("n = " << n);
    int64_t half = n / 2 + 1;
    auto type = [](int64_t size, const std::string &element) {
      return "tensor<" + std::to_string(size) + "x" + element + ">";
    };
    std::string real = type(n, "f64"), spectrum = type(half, "complex<f64>"),
                lengths = "lengths = [" + std::to_string(n) + "]";
    std::string source =
        "adj.func @f(%x: " + real + ", %h: " + spectrum + ") -> (" +
        spectrum + ", " + real + ") {\n  %a = adj.fft rfft %x " + lengths +
        " : " + real + "\n  %b = adj.fft irfft %h " + lengths + " : " +
        spectrum + "\n  adj.return %a, %b : " + spectrum + ", " + real +
        "\n}\n";
    Program p(source);
    std::vector<double> x;
    for (int64_t i = 0; i < n; ++i)
      x.push_back(std::cos(0.3 * i * i) + 0.25 * i);
    std::vector<C> h = sample(half, 0.2);
    Tensor xt(DType::F64, {n});
    std::copy(x.begin(), x.end(), static_cast<double *>(xt.mutableData()));
    auto r = p.call("f", {xt, c128({half}, h)});

    std::vector<C> full = dftRows(std::vector<C>(x.begin(), x.end()), n, -1);
    requireNear(complexValues(r[0].tensor()),
                std::vector<C>(full.begin(), full.begin() + half));

    // The full spectrum of a real signal, the zero (and Nyquist) terms
    // real: their imaginary parts are not read.
    std::vector<C> hermitian(n);
    for (int64_t k = 0; k < half; ++k)
      hermitian[k] = h[k];
    hermitian[0] = h[0].real();
    if (n % 2 == 0)
      hermitian[n / 2] = h[n / 2].real();
    for (int64_t k = half; k < n; ++k)
      hermitian[k] = std::conj(hermitian[n - k]);
    std::vector<C> signal = dftRows(hermitian, n, +1);
    std::vector<double> got = realValues(r[1].tensor());
    REQUIRE(static_cast<int64_t>(got.size()) == n);
    for (int64_t j = 0; j < n; ++j) {
      INFO("sample " << j);
      CHECK(std::abs(got[j] - signal[j].real() / n) <= 1e-12);
    }
  }
}

TEST_CASE("f32 transforms are the f64 ones rounded once") {
  Program p(R"(
    adj.func @f(%x: tensor<5xf32>) -> tensor<3xcomplex<f32>> {
      %a = adj.fft rfft %x lengths = [5] : tensor<5xf32>
      adj.return %a : tensor<3xcomplex<f32>>
    })");
  Tensor x(DType::F32, {5});
  float values[] = {0.1f, -2.5f, 3.25f, 7.0f, 1e-3f};
  std::copy(std::begin(values), std::end(values),
            static_cast<float *>(x.mutableData()));
  Tensor y = p.call("f", {x})[0].tensor();
  REQUIRE(y.dtype() == DType::C64);
  const auto *got = static_cast<const std::complex<float> *>(y.data());
  std::vector<C> want =
      dftRows(std::vector<C>(std::begin(values), std::end(values)), 5, -1);
  for (int k = 0; k < 3; ++k) {
    INFO("frequency " << k);
    CHECK(got[k].real() == static_cast<float>(want[k].real()));
    CHECK(got[k].imag() == static_cast<float>(want[k].imag()));
  }
}
