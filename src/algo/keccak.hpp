// Keccak-f[1600] (FIPS 202 §3) and the sponge's absorb/squeeze of whole rate-sized blocks, shared by host and device.
// State layout: 25 little-endian 64-bit lanes, lane (x, y) at index x + 5y, as FIPS 202 §3.1.2 and every
// implementation (and seed 004's vector registers) use.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bits.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

// ι round constants RC[i] (FIPS 202 §3.2.5), i = 0..23.
CA_DEFINE_TABLE(std::uint64_t, kKeccakRc, 24,
  0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
  0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
  0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
  0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
  0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
  0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull)

// ρ rotation offsets of lane x + 5y (FIPS 202 §3.2.2, Table 2).
CA_DEFINE_TABLE(unsigned char, kKeccakRho, 25,
  0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14)

/// One round of Keccak-f[1600] with round constant `rc`: θ, ρ, π, χ, ι.
CA_HD void keccak_round(std::uint64_t a[25], std::uint64_t rc) {
  std::uint64_t c[5], b[25];
  for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
  for (int x = 0; x < 5; ++x) {
    const std::uint64_t d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
    for (int y = 0; y < 25; y += 5) a[x + y] ^= d;
  }
  // ρ and π: lane (x, y) moves to (y, 2x + 3y) after rotating by its offset.
  for (int x = 0; x < 5; ++x)
    for (int y = 0; y < 5; ++y) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl64(a[x + 5 * y], CA_TABLE(kKeccakRho)[x + 5 * y]);
  for (int y = 0; y < 25; y += 5)
    for (int x = 0; x < 5; ++x) a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
  a[0] ^= rc;
}

/// Keccak-f[1600]: 24 rounds on the state.
CA_HD void keccak_f1600(std::uint64_t a[25]) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < 24; ++i) keccak_round(a, CA_TABLE(kKeccakRc)[i]);
}

/// Absorbs `n` consecutive blocks of `rate` bytes (rate a multiple of 8, at most 200): XOR, then permute.
CA_HD void keccak_absorb_blocks(std::uint64_t a[25], std::size_t rate, const std::uint8_t* blocks, std::size_t n) {
  for (; n; --n, blocks += rate) {
    for (std::size_t i = 0; i < rate / 8; ++i) a[i] ^= load_le64(blocks + 8 * i);
    keccak_f1600(a);
  }
}

}  // namespace cryptaccel::algo
