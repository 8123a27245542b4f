//===- Threefry.h - The Threefry-2x32 block hash ----------------*- C++ -*-===//
//
// Threefry-2x32 with 20 rounds (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3", SC 2011), the hash behind JAX's default PRNG. The
// constants live here once: the interpreter evaluates adj.threefry2x32 with
// threefry2x32() and the lowering emits the same schedule as arith ops from
// the same tables, so the two cannot drift apart.
//
// Header-only and free of LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SUPPORT_THREEFRY_H
#define ADJOINT_SUPPORT_THREEFRY_H

#include <cstdint>
#include <utility>

namespace adjoint::threefry {

/// The rotation amounts: rounds 4k..4k+3 use kRotations[k % 2].
inline constexpr unsigned kRotations[2][4] = {{13, 15, 26, 6},
                                              {17, 29, 16, 24}};
/// The key schedule's parity word (Threefish's C240 for 32-bit words).
inline constexpr uint32_t kParity = 0x1BD11BDA;
/// Groups of four rounds; a key injection follows each group.
inline constexpr unsigned kGroups = 5;

inline uint32_t rotateLeft(uint32_t v, unsigned r) {
  return (v << r) | (v >> (32 - r));
}

/// The two output words for counter (x0, x1) under key (k0, k1).
inline std::pair<uint32_t, uint32_t> threefry2x32(uint32_t k0, uint32_t k1,
                                                  uint32_t x0, uint32_t x1) {
  const uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ kParity};
  x0 += ks[0];
  x1 += ks[1];
  for (unsigned g = 0; g < kGroups; ++g) {
    for (unsigned r : kRotations[g % 2]) {
      x0 += x1;
      x1 = rotateLeft(x1, r) ^ x0;
    }
    // Injection g+1 adds key words (g+1) mod 3 and (g+2) mod 3, plus the
    // injection's number to the second word.
    x0 += ks[(g + 1) % 3];
    x1 += ks[(g + 2) % 3] + (g + 1);
  }
  return {x0, x1};
}

/// The words packed as adj.threefry2x32 returns them: the first word in
/// the high half.
inline int64_t packed(std::pair<uint32_t, uint32_t> words) {
  return static_cast<int64_t>((uint64_t(words.first) << 32) | words.second);
}

} // namespace adjoint::threefry

#endif // ADJOINT_SUPPORT_THREEFRY_H
