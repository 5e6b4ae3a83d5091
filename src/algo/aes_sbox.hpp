// AES S-box and inverse S-box in bitsliced form (FIPS-197 §5.1.1): inversion in GF(2^8)/(x^8+x^4+x^3+x+1)
// followed by the affine map, evaluated on bit-planes without tables.
#pragma once
#include "algo/gf256_bitsliced.hpp"

namespace cryptaccel::algo {

inline constexpr unsigned kAesPoly = 0x1B;  // x^8 = x^4 + x^3 + x + 1

/// SubBytes on planes: b_i' = b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i with c = 0x63.
template <class W>
CA_HD void aes_sbox_planes(W s[8]) {
  W inv[8];
  gf256_inverse<W, kAesPoly>(s, inv);
  for (int i = 0; i < 8; ++i) {
    s[i] = inv[i] ^ inv[(i + 4) & 7] ^ inv[(i + 5) & 7] ^ inv[(i + 6) & 7] ^ inv[(i + 7) & 7];
    if ((0x63u >> i) & 1u) s[i] = ~s[i];
  }
}

/// InvSubBytes on planes: inverse affine b_i' = b_(i+2) ^ b_(i+5) ^ b_(i+7) ^ d_i (d = 0x05), then inversion.
template <class W>
CA_HD void aes_inv_sbox_planes(W s[8]) {
  W t[8];
  for (int i = 0; i < 8; ++i) {
    t[i] = s[(i + 2) & 7] ^ s[(i + 5) & 7] ^ s[(i + 7) & 7];
    if ((0x05u >> i) & 1u) t[i] = ~t[i];
  }
  gf256_inverse<W, kAesPoly>(t, s);
}

/// Applies the S-box to `n` <= 64 bytes in place, in constant time (used by the key schedule).
CA_HD void aes_sbox_bytes(std::uint8_t* bytes, int n) {
  std::uint64_t p[8];
  bytes_to_planes(bytes, n, p);
  aes_sbox_planes(p);
  planes_to_bytes(p, n, bytes);
}

}  // namespace cryptaccel::algo
