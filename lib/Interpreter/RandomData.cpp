//===- RandomData.cpp - seeded input data for tools and tests -------------===//
//
// Reproducible argument tensors for ir-run's `rand:` arguments and the test
// suites. This is data made outside a program, not an adj op: random numbers
// inside programs come from keys (adj.threefry2x32, lib/API/Random.cpp). A
// splitmix64 stream is enough here because only reproducibility matters.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include <numbers>

using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;

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
