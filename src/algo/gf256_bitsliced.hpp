// Bitsliced arithmetic in GF(2^8). A value is 8 bit-planes: plane i holds bit i of up to (8*sizeof(W)) bytes,
// one byte per bit position. Every operation is a fixed sequence of AND/XOR on whole words, so it has no
// secret-dependent branch or memory index: this is how the AES and SM4 S-boxes are evaluated in constant time.
#pragma once
#include <cstdint>

#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// Multiplication modulo x^8 + P(x), where `Poly` holds P's coefficients (AES: 0x1B, SM4: 0xF5).
template <class W, unsigned Poly>
CA_HD void gf256_mul(const W a[8], const W b[8], W out[8]) {
  W p[15] = {};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) p[i + j] ^= a[i] & b[j];
  // x^k = x^(k-8) * x^8 = x^(k-8) * P(x); fold the high terms down, highest first. `Poly` is public.
  for (int k = 14; k >= 8; --k)
    for (int t = 0; t < 8; ++t)
      if ((Poly >> t) & 1u) p[k - 8 + t] ^= p[k];
  for (int i = 0; i < 8; ++i) out[i] = p[i];
}

/// Squaring (a linear map in characteristic 2: coefficient i moves to 2i, then reduce).
template <class W, unsigned Poly>
CA_HD void gf256_square(const W a[8], W out[8]) {
  W p[15] = {};
  for (int i = 0; i < 8; ++i) p[2 * i] = a[i];
  for (int k = 14; k >= 8; --k)
    for (int t = 0; t < 8; ++t)
      if ((Poly >> t) & 1u) p[k - 8 + t] ^= p[k];
  for (int i = 0; i < 8; ++i) out[i] = p[i];
}

/// Multiplicative inverse as a^254 (0 maps to 0, as both S-boxes require).
/// Addition chain: a^2, a^3, a^6, a^12, a^15, a^240, a^252, a^254 — 4 multiplications, 7 squarings.
template <class W, unsigned Poly>
CA_HD void gf256_inverse(const W a[8], W out[8]) {
  W a2[8], a3[8], a12[8], a15[8], t[8];
  gf256_square<W, Poly>(a, a2);
  gf256_mul<W, Poly>(a2, a, a3);
  gf256_square<W, Poly>(a3, t);
  gf256_square<W, Poly>(t, a12);
  gf256_mul<W, Poly>(a12, a3, a15);
  gf256_square<W, Poly>(a15, t);  // a^30
  gf256_square<W, Poly>(t, t);    // a^60
  gf256_square<W, Poly>(t, t);    // a^120
  gf256_square<W, Poly>(t, t);    // a^240
  gf256_mul<W, Poly>(t, a12, t);  // a^252
  gf256_mul<W, Poly>(t, a2, out); // a^254
}

/// Packs `n` (<= 8*sizeof(W)) bytes into 8 planes: bit j of plane i = bit i of bytes[j].
template <class W>
CA_HD void bytes_to_planes(const std::uint8_t* bytes, int n, W planes[8]) {
  for (int i = 0; i < 8; ++i) planes[i] = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < 8; ++i) planes[i] |= static_cast<W>((bytes[j] >> i) & 1u) << j;
}

/// Inverse of bytes_to_planes.
template <class W>
CA_HD void planes_to_bytes(const W planes[8], int n, std::uint8_t* bytes) {
  for (int j = 0; j < n; ++j) {
    unsigned v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<unsigned>((planes[i] >> j) & 1u) << i;
    bytes[j] = static_cast<std::uint8_t>(v);
  }
}

}  // namespace cryptaccel::algo
