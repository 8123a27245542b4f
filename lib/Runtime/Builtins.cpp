//===- Builtins.cpp - Compiler helper routines compiled code may need -----===//
//
// LLVM lowers a float -> bfloat16 truncation on CPUs without AVX512-BF16 to
// a call of __truncsfbf2 (and __truncdfbf2 from double), which GCC 12's
// libgcc, the one on Debian 12, does not have. The runtime provides them
// (round to nearest even, quiet NaN), for the JIT through its symbol table
// and for ahead-of-time programs through the static library. Likewise
// memrefCopy, which lowered memref.copy calls for strided memrefs.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Tensor.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__clang__) && defined(__x86_64__)
extern "C" {
__bf16 __truncsfbf2(float value) {
  return std::bit_cast<__bf16>(adjoint::rt::floatToBFloat16(value));
}

__bf16 __truncdfbf2(double value) {
  // Going through float would round twice. Truncate to float and set the
  // lowest bit when inexact (round to odd): then rounding to bfloat16 gives
  // the correctly rounded result.
  float f = static_cast<float>(value);
  if (std::isfinite(f) && static_cast<double>(f) != value) {
    uint32_t bits = std::bit_cast<uint32_t>(f);
    if (std::fabs(static_cast<double>(f)) > std::fabs(value))
      --bits;
    f = std::bit_cast<float>(bits | 1u);
  }
  return std::bit_cast<__bf16>(adjoint::rt::floatToBFloat16(f));
}
}
#endif

namespace {
/// MLIR's unranked memref descriptor: the rank and a pointer to a ranked
/// descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};
} // namespace

/// memref.copy between non-contiguous memrefs lowers to a call of
/// memrefCopy (MLIR's C runner utilities have one; programs running on our
/// runtime do not load those).
extern "C" void memrefCopy(int64_t elementSize, UnrankedMemRef *src,
                           UnrankedMemRef *dst) {
  int64_t rank = src->rank;
  auto *s = static_cast<int64_t *>(src->descriptor);
  auto *d = static_cast<int64_t *>(dst->descriptor);
  char *srcBase = reinterpret_cast<char *>(s[1]) + s[2] * elementSize;
  char *dstBase = reinterpret_cast<char *>(d[1]) + d[2] * elementSize;
  const int64_t *sizes = s + 3;
  const int64_t *srcStrides = s + 3 + rank;
  const int64_t *dstStrides = d + 3 + rank;
  int64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= sizes[i];
  if (count == 0)
    return;
  // The trailing dimensions [inner, rank) that are contiguous in both
  // memrefs move with one memcpy (a padded convolution input copies whole
  // rows this way instead of element by element).
  int64_t inner = rank, run = 1;
  while (inner > 0 && srcStrides[inner - 1] == run &&
         dstStrides[inner - 1] == run) {
    --inner;
    run *= sizes[inner];
  }
  std::vector<int64_t> index(static_cast<size_t>(rank), 0);
  for (int64_t n = 0; n < count; n += run) {
    int64_t srcOffset = 0, dstOffset = 0;
    for (int64_t i = 0; i < inner; ++i) {
      srcOffset += index[i] * srcStrides[i];
      dstOffset += index[i] * dstStrides[i];
    }
    std::memcpy(dstBase + dstOffset * elementSize,
                srcBase + srcOffset * elementSize, run * elementSize);
    for (int64_t i = inner; i-- > 0;) {
      if (++index[i] < sizes[i])
        break;
      index[i] = 0;
    }
  }
}
