// SM4 block cipher (GB/T 32907-2016; draft-ribose-cfrg-sm4), constant time. The S-box is evaluated as
// S(x) = A·inv(A·x ^ C) ^ C in GF(2^8)/(x^8+x^7+x^6+x^5+x^4+x^2+1), with A the circulant matrix whose row i is
// 0xA7 rotated left by i and C = 0xD3 (checked against the standard's table in tests/cpp/test_sm4.cpp), on
// bit-planes: up to 16 blocks share one S-box evaluation per round.
#pragma once
#include <cstdint>

#include "algo/gf256_bitsliced.hpp"
#include "algo/bits.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

inline constexpr unsigned kSm4Poly = 0xF5;  // x^8 = x^7 + x^6 + x^5 + x^4 + x^2 + 1
/// Blocks processed per bitsliced call (4 S-box bytes per block, 64 bytes per uint64 plane set).
inline constexpr int kSm4Lanes = 16;

/// SM4 affine map on planes: out_i = x_i ^ x_(i+1) ^ x_(i+2) ^ x_(i+5) ^ x_(i+7) ^ c_i, c = 0xD3.
template <class W>
CA_HD void sm4_affine_planes(const W x[8], W out[8]) {
  for (int i = 0; i < 8; ++i) {
    out[i] = x[i] ^ x[(i + 1) & 7] ^ x[(i + 2) & 7] ^ x[(i + 5) & 7] ^ x[(i + 7) & 7];
    if ((0xD3u >> i) & 1u) out[i] = ~out[i];
  }
}

template <class W>
CA_HD void sm4_sbox_planes(W s[8]) {
  W t[8], inv[8];
  sm4_affine_planes(s, t);
  gf256_inverse<W, kSm4Poly>(t, inv);
  sm4_affine_planes(inv, s);
}

/// τ (the S-box on each byte) applied to `n` <= 16 words at once.
CA_HD void sm4_tau_words(std::uint32_t* words, int n) {
  std::uint8_t b[4 * kSm4Lanes];
  for (int j = 0; j < n; ++j) store_be32(b + 4 * j, words[j]);
  std::uint64_t p[8];
  bytes_to_planes(b, 4 * n, p);
  sm4_sbox_planes(p);
  planes_to_bytes(p, 4 * n, b);
  for (int j = 0; j < n; ++j) words[j] = load_be32(b + 4 * j);
}

/// The 32 round keys.
struct Sm4RoundKeys {
  std::uint32_t rk[32];
};

/// Key schedule: K_i = MK_i ^ FK_i; rk_i = K_(i+4) = K_i ^ L'(τ(K_(i+1) ^ K_(i+2) ^ K_(i+3) ^ CK_i)),
/// L'(B) = B ^ (B <<< 13) ^ (B <<< 23). CK_i's byte j is (4i + j) * 7 mod 256.
CA_HD void sm4_expand_key(const std::uint8_t key[16], Sm4RoundKeys& out) {
  constexpr std::uint32_t kFk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};
  std::uint32_t k[4];
  for (int i = 0; i < 4; ++i) k[i] = load_be32(key + 4 * i) ^ kFk[i];
  for (int i = 0; i < 32; ++i) {
    std::uint32_t ck = 0;
    for (int j = 0; j < 4; ++j) ck = (ck << 8) | ((4u * i + j) * 7u & 0xFFu);
    std::uint32_t b = k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ ck;
    sm4_tau_words(&b, 1);
    k[i & 3] ^= b ^ rotl32(b, 13) ^ rotl32(b, 23);
    out.rk[i] = k[i & 3];
  }
  for (auto& w : k) w = 0;
}

/// Encrypts (decrypt = true: decrypts) `n` (1..kSm4Lanes) contiguous 16-byte blocks.
/// Round: X_(i+4) = X_i ^ L(τ(X_(i+1) ^ X_(i+2) ^ X_(i+3) ^ rk_i)), L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24.
CA_HD void sm4_crypt_blocks(const Sm4RoundKeys& keys, bool decrypt, const std::uint8_t* in, std::uint8_t* out, int n) {
  std::uint32_t x[kSm4Lanes][4];
  std::uint32_t b[kSm4Lanes];
  for (int j = 0; j < n; ++j)
    for (int w = 0; w < 4; ++w) x[j][w] = load_be32(in + 16 * j + 4 * w);
  for (int i = 0; i < 32; ++i) {
    const std::uint32_t rk = keys.rk[decrypt ? 31 - i : i];
    for (int j = 0; j < n; ++j) b[j] = x[j][(i + 1) & 3] ^ x[j][(i + 2) & 3] ^ x[j][(i + 3) & 3] ^ rk;
    sm4_tau_words(b, n);
    for (int j = 0; j < n; ++j)
      x[j][i & 3] ^= b[j] ^ rotl32(b[j], 2) ^ rotl32(b[j], 10) ^ rotl32(b[j], 18) ^ rotl32(b[j], 24);
  }
  // After 32 rounds x[j][0..3] = X32..X35; output is R = (X35, X34, X33, X32).
  for (int j = 0; j < n; ++j)
    for (int w = 0; w < 4; ++w) store_be32(out + 16 * j + 4 * w, x[j][3 - w]);
}

}  // namespace cryptaccel::algo
