//===- FourierTest.cpp - adj.fft on every target --------------------------===//
//
// The four transforms compiled for every target present (FFTW on the CPU,
// the generated FFT of -adj-expand-fft on GPUs) against the interpreter:
// lengths that take each path of the expansion (a DFT product for short
// and prime lengths, the four steps, nested, for composite ones), one to
// three axes, odd and even real lengths, length 1, and the gradients the
// AD rules build. Complex results are compared through their parts.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::conformance;

TEST_CASE("fft: every transform, length class and axis count",
          "[conformance][fft]") {
  // Every case in f64; f32 (the same expansion in another type) the
  // lengths of each class once, which keeps the suite's compile time down
  // (each transform is several kernels, compiled for every chip).
  for (DType dtype : {DType::F64, DType::F32}) {
    INFO("dtype " << static_cast<int>(dtype));
    bool everyCase = dtype == DType::F64;
    api::Module m;
    m.function(
        "transforms",
        {tensor(dtype, {3, 8}), tensor(dtype, {3, 8}),
         tensor(dtype, {2, 128}), tensor(dtype, {2, 67}),
         tensor(dtype, {2, 6, 10}), tensor(dtype, {2, 3, 4, 9}),
         tensor(dtype, {4, 1})},
        [&](api::Value re, api::Value im, api::Value long_, api::Value prime,
            api::Value grid, api::Value cube, api::Value single) {
          using api::Fft;
          api::Value z = api::complex(re, im);
          api::Values out;
          // 128 = 8 x 16: the four steps; the real transforms of even
          // and odd lengths; then (f64) 8, a product with the DFT matrix,
          // 67, prime (direct), 8192 = 64 x 128, the four steps nested,
          // two axes (real) and three (complex), and length 1.
          parts(out, api::fft(long_, Fft::Ifft, {128}));
          api::Value half = api::fft(grid, Fft::Rfft, {10});
          parts(out, half);
          out.push_back(api::fft(half, Fft::Irfft, {11}));
          if (!everyCase)
            return out;
          parts(out, api::fft(z, Fft::Fft, {8}));
          parts(out, api::fft(prime, Fft::Fft, {67}));
          api::Value wide = api::reshape(
              api::concat({long_, long_ * 0.5, long_ * -1.0, long_}, 1),
              {1, 1024});
          api::Value wider = api::concat(
              {wide, wide * 2.0, wide * -0.5, wide, wide, wide * 0.25, wide,
               wide * 3.0},
              1);
          parts(out, api::fft(wider, Fft::Fft, {8192}));
          api::Value half2 = api::fft(grid, Fft::Rfft, {6, 10});
          parts(out, half2);
          out.push_back(api::fft(half2, Fft::Irfft, {6, 10}));
          parts(out, api::fft(api::complex(cube, cube * 0.5), Fft::Fft,
                              {3, 4, 9}));
          // Length 1 is the identity (and irfft of one point its real
          // part).
          api::Value one = api::fft(single, Fft::Rfft, {1});
          parts(out, one);
          out.push_back(api::fft(one, Fft::Irfft, {1}));
          return out;
        });
    checkOnAllTargets(m, "transforms", 91);
  }
}

TEST_CASE("fft: gradients through every transform", "[conformance][fft][gradients]") {
  api::Module m;
  m.function("loss", {tensor(DType::F64, {3, 12}), tensor(DType::F64, {3, 7})},
             [](api::Value x, api::Value h) {
               using api::Fft;
               api::Value spectrum = api::fft(x, Fft::Rfft, {12});
               api::Value back =
                   api::fft(api::complex(h, h * h), Fft::Irfft, {12});
               api::Value z =
                   api::fft(api::complex(x, x * 0.5), Fft::Fft, {3, 12});
               api::Value w = api::fft(z * z, Fft::Ifft, {12});
               return api::sum(api::abs(spectrum)) + api::sum(back * back) +
                      api::sum(api::real(w) * api::imag(w));
             });
  defineGradOfLoss(m,
                   {tensor(DType::F64, {3, 12}), tensor(DType::F64, {3, 7})});
  checkOnAllTargets(m, "grad", 93);
}
