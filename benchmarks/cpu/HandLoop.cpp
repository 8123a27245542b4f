//===- HandLoop.cpp - Hand-written loops for bench-cpu-elementwise --------===//

#include "HandLoop.h"

#include <algorithm>
#include <cmath>

void adjoint::bench::handChain(const float *__restrict x,
                               const float *__restrict y,
                               float *__restrict out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    float t = (x[i] + y[i]) * x[i] - y[i];
    t = std::max(t, 0.0f) * 0.5f + x[i];
    out[i] = -(std::sqrt(std::fabs(t)) * y[i]);
  }
}

void adjoint::bench::handRowSums(const float *x, float *out, int64_t rows,
                                 int64_t cols) {
  constexpr int64_t kLanes = 16;
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = x + r * cols;
    float partial[kLanes] = {};
    int64_t c = 0;
    for (; c + kLanes <= cols; c += kLanes)
      for (int64_t l = 0; l < kLanes; ++l)
        partial[l] += row[c + l];
    float s = 0;
    for (int64_t l = 0; l < kLanes; ++l)
      s += partial[l];
    for (; c < cols; ++c)
      s += row[c];
    out[r] = s;
  }
}
