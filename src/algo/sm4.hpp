// SM4 block cipher (GB/T 32907-2016; draft-ribose-cfrg-sm4), constant time. The S-box is evaluated as
// S(x) = A·inv(A·x ^ C) ^ C in GF(2^8)/(x^8+x^7+x^6+x^5+x^4+x^2+1), with A the circulant matrix whose row i is
// 0xA7 rotated left by i and C = 0xD3 (checked against the standard's table in tests/cpp/test_sm4.cpp), on
// bit-planes: up to 16 blocks share one S-box evaluation per round.
#pragma once
#include <cstdint>
#include <type_traits>

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

/// τ (the S-box on each byte) on N <= 16 words at once: byte k of word j (from the top) is bit 4j + k of every
/// plane, planes of 32 bits for N <= 8 (the GPU's word) and 64 bits above. N is a constant, so with the loops
/// unrolled the words and planes stay in registers (a byte array indexed by a run-time count went to the GPU's local
/// memory).
template <int N>
CA_HD void sm4_tau_words(std::uint32_t* words) {
  using W = std::conditional_t<(N <= 8), std::uint32_t, std::uint64_t>;
  W p[8] = {};
  CA_UNROLL_ALL
  for (int j = 0; j < N; ++j) {
    CA_UNROLL_ALL
    for (int k = 0; k < 4; ++k) {
      const unsigned byte = (words[j] >> (24 - 8 * k)) & 0xFFu;
      CA_UNROLL_ALL
      for (int i = 0; i < 8; ++i) p[i] |= static_cast<W>((byte >> i) & 1u) << (4 * j + k);
    }
  }
  sm4_sbox_planes(p);
  CA_UNROLL_ALL
  for (int j = 0; j < N; ++j) {
    std::uint32_t w = 0;
    CA_UNROLL_ALL
    for (int k = 0; k < 4; ++k) {
      unsigned byte = 0;
      CA_UNROLL_ALL
      for (int i = 0; i < 8; ++i) byte |= static_cast<unsigned>((p[i] >> (4 * j + k)) & 1u) << i;
      w |= static_cast<std::uint32_t>(byte) << (24 - 8 * k);
    }
    words[j] = w;
  }
}

/// The 32 round keys.
struct Sm4RoundKeys {
  std::uint32_t rk[32];
};

/// Key schedule: K_i = MK_i ^ FK_i; rk_i = K_(i+4) = K_i ^ L'(τ(K_(i+1) ^ K_(i+2) ^ K_(i+3) ^ CK_i)),
/// L'(B) = B ^ (B <<< 13) ^ (B <<< 23). CK_i's byte j is (4i + j) * 7 mod 256.
CA_HD void sm4_expand_key(const std::uint8_t key[16], Sm4RoundKeys& out) {
  constexpr std::uint32_t kFk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};
  std::uint32_t k0 = load_be32(key) ^ kFk[0], k1 = load_be32(key + 4) ^ kFk[1], k2 = load_be32(key + 8) ^ kFk[2],
                k3 = load_be32(key + 12) ^ kFk[3];
  // Round i updates K_(i mod 4) from the other three; the four words rotate roles, so none is indexed by i.
  const auto step = [&](int i, std::uint32_t& ki, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    std::uint32_t ck = 0;  // CK_i: byte j is (4i + j) * 7 mod 256
    for (unsigned j = 0; j < 4; ++j) ck = (ck << 8) | ((4u * static_cast<unsigned>(i) + j) * 7u & 0xFFu);
    std::uint32_t t = a ^ b ^ c ^ ck;
    sm4_tau_words<1>(&t);
    ki ^= t ^ rotl32(t, 13) ^ rotl32(t, 23);
    out.rk[i] = ki;
  };
  for (int i = 0; i < 32; i += 4) {
    step(i, k0, k1, k2, k3);
    step(i + 1, k1, k2, k3, k0);
    step(i + 2, k2, k3, k0, k1);
    step(i + 3, k3, k0, k1, k2);
  }
  k0 = k1 = k2 = k3 = 0;
}

/// One SM4 round on N blocks: x0 ^= L(τ(x1 ^ x2 ^ x3 ^ rk)), L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24. The
/// caller rotates the roles of the four word arrays, so no array is indexed by the round number.
template <int N>
CA_HD void sm4_round(std::uint32_t* x0, const std::uint32_t* x1, const std::uint32_t* x2, const std::uint32_t* x3,
                     std::uint32_t rk) {
  std::uint32_t b[N];
  CA_UNROLL_ALL
  for (int j = 0; j < N; ++j) b[j] = x1[j] ^ x2[j] ^ x3[j] ^ rk;
  sm4_tau_words<N>(b);
  CA_UNROLL_ALL
  for (int j = 0; j < N; ++j) x0[j] ^= b[j] ^ rotl32(b[j], 2) ^ rotl32(b[j], 10) ^ rotl32(b[j], 18) ^ rotl32(b[j], 24);
}

/// Encrypts (decrypt = true: decrypts) `n` (1..N) contiguous 16-byte blocks, N at a time (the lanes past n carry
/// zeros and are not stored). Round i: X_(i+4) = X_i ^ L(τ(X_(i+1) ^ X_(i+2) ^ X_(i+3) ^ rk_i)); four rounds per
/// step, each updating the next word array in turn.
template <int N>
CA_HD void sm4_crypt_lanes(const Sm4RoundKeys& keys, bool decrypt, const std::uint8_t* in, std::uint8_t* out, int n) {
  std::uint32_t x0[N], x1[N], x2[N], x3[N];
  CA_UNROLL_ALL
  for (int j = 0; j < N; ++j) {
    const bool used = j < n;
    x0[j] = used ? load_be32(in + 16 * j) : 0;
    x1[j] = used ? load_be32(in + 16 * j + 4) : 0;
    x2[j] = used ? load_be32(in + 16 * j + 8) : 0;
    x3[j] = used ? load_be32(in + 16 * j + 12) : 0;
  }
  for (int i = 0; i < 32; i += 4) {
    const auto rk = [&](int r) { return keys.rk[decrypt ? 31 - r : r]; };
    sm4_round<N>(x0, x1, x2, x3, rk(i));
    sm4_round<N>(x1, x2, x3, x0, rk(i + 1));
    sm4_round<N>(x2, x3, x0, x1, rk(i + 2));
    sm4_round<N>(x3, x0, x1, x2, rk(i + 3));
  }
  // After 32 rounds x0..x3 = X32..X35; the output is R = (X35, X34, X33, X32).
  CA_UNROLL_ALL
  for (int j = 0; j < N; ++j) {
    if (j >= n) continue;
    store_be32(out + 16 * j, x3[j]);
    store_be32(out + 16 * j + 4, x2[j]);
    store_be32(out + 16 * j + 8, x1[j]);
    store_be32(out + 16 * j + 12, x0[j]);
  }
}

/// Encrypts (decrypt = true: decrypts) `n` (1..kSm4Lanes) contiguous 16-byte blocks, with the narrowest lane count
/// that holds them (the bitsliced S-box costs the same for any count up to its plane width; packing grows with N).
CA_HD void sm4_crypt_blocks(const Sm4RoundKeys& keys, bool decrypt, const std::uint8_t* in, std::uint8_t* out, int n) {
  if (n <= 1) return sm4_crypt_lanes<1>(keys, decrypt, in, out, n);
  if (n <= 4) return sm4_crypt_lanes<4>(keys, decrypt, in, out, n);
  if (n <= 8) return sm4_crypt_lanes<8>(keys, decrypt, in, out, n);
  sm4_crypt_lanes<kSm4Lanes>(keys, decrypt, in, out, n);
}

}  // namespace cryptaccel::algo
