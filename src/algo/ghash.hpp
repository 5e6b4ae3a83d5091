// GF(2^128) multiplication for GHASH (SP 800-38D §6.3), constant time: the bit-serial algorithm with every
// conditional replaced by an all-ones/all-zeros mask. Values are held as two big-endian 64-bit halves, so bit 0 of
// the spec ("leftmost") is the top bit of `hi`.
#pragma once
#include <cstdint>

#include "algo/hd.hpp"

namespace cryptaccel::algo {

struct Gf128 {
  std::uint64_t hi = 0;  // bytes 0..7 of the block, big-endian
  std::uint64_t lo = 0;  // bytes 8..15
};

CA_HD Gf128 gf128_load(const std::uint8_t* p) {
  Gf128 v;
  for (int i = 0; i < 8; ++i) v.hi = (v.hi << 8) | p[i];
  for (int i = 8; i < 16; ++i) v.lo = (v.lo << 8) | p[i];
  return v;
}

CA_HD void gf128_store(Gf128 v, std::uint8_t* p) {
  for (int i = 7; i >= 0; --i, v.hi >>= 8) p[i] = static_cast<std::uint8_t>(v.hi);
  for (int i = 15; i >= 8; --i, v.lo >>= 8) p[i] = static_cast<std::uint8_t>(v.lo);
}

/// x · y in GCM's bit-reflected GF(2^128) (reduction polynomial x^128 + x^7 + x^2 + x + 1, R = 0xE1 || 0^120).
CA_HD Gf128 gf128_mul(Gf128 x, Gf128 y) {
  Gf128 z, v = y;
  for (int i = 0; i < 128; ++i) {
    const std::uint64_t word = i < 64 ? x.hi : x.lo;
    const std::uint64_t bit_mask = 0 - ((word >> (63 - (i & 63))) & 1u);
    z.hi ^= v.hi & bit_mask;
    z.lo ^= v.lo & bit_mask;
    const std::uint64_t carry_mask = 0 - (v.lo & 1u);
    v.lo = (v.lo >> 1) | (v.hi << 63);
    v.hi = (v.hi >> 1) ^ (0xE100000000000000ull & carry_mask);
  }
  return z;
}

/// Running GHASH state: y <- (y ^ block) · H for each 16-byte block.
struct Ghash {
  Gf128 h, y;

  CA_HD void init(const std::uint8_t h_bytes[16]) {
    h = gf128_load(h_bytes);
    y = Gf128{};
  }
  /// Absorbs `len` bytes; a final partial block is zero-padded (as GCM pads A and C).
  CA_HD void update_padded(const std::uint8_t* data, unsigned long long len) {
    while (len >= 16) {
      absorb(gf128_load(data));
      data += 16, len -= 16;
    }
    if (len) {
      std::uint8_t block[16] = {};
      for (unsigned long long i = 0; i < len; ++i) block[i] = data[i];
      absorb(gf128_load(block));
    }
  }
  /// Absorbs the length block [len(A)]_64 || [len(C)]_64, lengths in bits.
  CA_HD void update_lengths(unsigned long long aad_bytes, unsigned long long text_bytes) {
    absorb(Gf128{aad_bytes * 8, text_bytes * 8});
  }
  CA_HD void absorb(Gf128 block) {
    y.hi ^= block.hi, y.lo ^= block.lo;
    y = gf128_mul(y, h);
  }
};

}  // namespace cryptaccel::algo
