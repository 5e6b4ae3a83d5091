// XTS tweaks at any block index: T·α^e for a public e, so that a thread can start in the middle of a data unit
// (the cuda engine's threads, the cpu engine's split of one large data unit over cores).
// XTS elements (IEEE 1619: byte i bit j is the coefficient of x^(8i+j)) and GCM elements (SP 800-38D: byte i bit 7-j
// is that coefficient) live in the same field, GF(2^128) mod x^128 + x^7 + x^2 + x + 1, so reversing the bits of
// every byte maps one representation onto the other and algo::gf128_mul multiplies XTS tweaks too. α^e is the
// product of the table entries α^(2^i) for the set bits of e (the table is public).
#pragma once
#include <cstdint>

#include "algo/ghash.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// Entries of the α^(2^i) table: exponents up to 2^64 - 1.
inline constexpr int kXtsAlphaPowers = 64;

CA_HD std::uint8_t bit_reverse8(std::uint8_t b) {
  unsigned v = b;
  v = ((v & 0xF0u) >> 4) | ((v & 0x0Fu) << 4);
  v = ((v & 0xCCu) >> 2) | ((v & 0x33u) << 2);
  v = ((v & 0xAAu) >> 1) | ((v & 0x55u) << 1);
  return static_cast<std::uint8_t>(v);
}

/// XTS tweak bytes -> the same field element in GCM representation.
CA_HD Gf128 xts_to_gf(const std::uint8_t t[16]) {
  std::uint8_t r[16];
  for (int i = 0; i < 16; ++i) r[i] = bit_reverse8(t[i]);
  return gf128_load(r);
}

/// Inverse of xts_to_gf.
CA_HD void gf_to_xts(Gf128 g, std::uint8_t t[16]) {
  gf128_store(g, t);
  for (int i = 0; i < 16; ++i) t[i] = bit_reverse8(t[i]);
}

/// Fills `pow2[0..kXtsAlphaPowers)` with α^(2^i) in GCM representation.
inline void xts_alpha_pow_table(Gf128 pow2[kXtsAlphaPowers]) {
  std::uint8_t alpha[16] = {0x02};  // α = x: byte 0 bit 1
  pow2[0] = xts_to_gf(alpha);
  for (int i = 1; i < kXtsAlphaPowers; ++i) pow2[i] = gf128_mul(pow2[i - 1], pow2[i - 1]);
}

/// t <- t·α^e with the portable constant-time multiply (`e` is public; t may be secret).
inline void xts_mul_alpha_pow_portable(std::uint8_t t[16], std::uint64_t e, const Gf128* pow2) {
  if (e == 0) return;
  Gf128 g = xts_to_gf(t);
  for (int i = 0; i < kXtsAlphaPowers && (e >> i) != 0; ++i)
    if ((e >> i) & 1u) g = gf128_mul(g, pow2[i]);
  gf_to_xts(g, t);
}

}  // namespace cryptaccel::algo
