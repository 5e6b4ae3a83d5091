// AES key expansion (FIPS-197 §5.2) for 128/192/256-bit keys, constant time (S-box on bit-planes).
#pragma once
#include <cstdint>

#include "algo/aes_sbox.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// Expanded AES key: (rounds + 1) round keys of 16 bytes, in FIPS-197 byte order.
struct AesRoundKeys {
  std::uint8_t bytes[15][16];
  int rounds;  // 10, 12 or 14
};

/// Expands a 16-, 24- or 32-byte key. `key_len` must be one of those (callers validate).
CA_HD void aes_expand_key(const std::uint8_t* key, int key_len, AesRoundKeys& rk) {
  const int nk = key_len / 4;
  rk.rounds = nk + 6;
  const int total_words = 4 * (rk.rounds + 1);
  std::uint8_t* w = &rk.bytes[0][0];  // words are contiguous: word i at w + 4i
  for (int i = 0; i < key_len; ++i) w[i] = key[i];
  std::uint8_t rcon = 1;
  for (int i = nk; i < total_words; ++i) {
    std::uint8_t t[4] = {w[4 * i - 4], w[4 * i - 3], w[4 * i - 2], w[4 * i - 1]};
    if (i % nk == 0) {
      const std::uint8_t first = t[0];  // RotWord
      t[0] = t[1], t[1] = t[2], t[2] = t[3], t[3] = first;
      aes_sbox_bytes(t, 4);
      t[0] ^= rcon;
      rcon = static_cast<std::uint8_t>((rcon << 1) ^ ((rcon >> 7) * 0x1B));  // public constant: fine to branch-free it anyway
    } else if (nk > 6 && i % nk == 4) {
      aes_sbox_bytes(t, 4);
    }
    for (int j = 0; j < 4; ++j) w[4 * i + j] = static_cast<std::uint8_t>(w[4 * (i - nk) + j] ^ t[j]);
  }
}

/// Multiplication by x in GF(2^8) (mod x^8 + x^4 + x^3 + x + 1) without a branch.
CA_HD std::uint32_t aes_xtime(std::uint32_t b) { return ((b << 1) ^ (0x1Bu & (0u - (b >> 7)))) & 0xFFu; }

/// InvMixColumns of one column, its four bytes a_0..a_3 in the word's bytes 0..3 (little-endian):
/// a_i' = 14a_i ^ 11a_(i+1) ^ 13a_(i+2) ^ 9a_(i+3). No branch or index on the bytes (round keys are secrets).
CA_HD std::uint32_t aes_inv_mix_column(std::uint32_t w) {
  std::uint32_t a[4], out = 0;
  for (int i = 0; i < 4; ++i) a[i] = (w >> (8 * i)) & 0xFFu;
  for (int i = 0; i < 4; ++i) {
    std::uint32_t v = 0;
    const std::uint32_t coef[4] = {14, 11, 13, 9};
    for (int k = 0; k < 4; ++k) {
      const std::uint32_t x = a[(i + k) & 3], x2 = aes_xtime(x), x4 = aes_xtime(x2), x8 = aes_xtime(x4);
      const std::uint32_t c = coef[k];
      v ^= ((c & 1u) ? x : 0u) ^ ((c & 2u) ? x2 : 0u) ^ ((c & 4u) ? x4 : 0u) ^ x8;  // branches on public constants
    }
    out |= (v & 0xFFu) << (8 * i);
  }
  return out;
}

}  // namespace cryptaccel::algo
