// Poly1305 (RFC 8439 §2.5) and the ChaCha20-Poly1305 AEAD's tag (§2.8), host and device. The accumulator is five
// 26-bit limbs and every product a 32 x 32 -> 64-bit multiply (no 128-bit type, so the same code runs in CUDA); the
// final reduction selects with a mask. Constant time by construction.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bits.hpp"
#include "algo/chacha20.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// A Poly1305 computation over whole 16-byte blocks (the AEAD pads everything it authenticates to whole blocks).
struct Poly1305 {
  std::uint32_t r[5], s4[4];  ///< r in 26-bit limbs (clamped), 5 r[1..4]
  std::uint32_t h[5];         ///< the accumulator
  std::uint32_t pad[4];       ///< s, the key's second half

  /// From the 32-byte one-time key r || s (r clamped here).
  CA_HD void init(const std::uint8_t key[32]) {
    const std::uint32_t t0 = load_le32(key), t1 = load_le32(key + 4), t2 = load_le32(key + 8), t3 = load_le32(key + 12);
    r[0] = t0 & 0x3ffffff;
    r[1] = ((t0 >> 26) | (t1 << 6)) & 0x3ffff03;
    r[2] = ((t1 >> 20) | (t2 << 12)) & 0x3ffc0ff;
    r[3] = ((t2 >> 14) | (t3 << 18)) & 0x3f03fff;
    r[4] = (t3 >> 8) & 0x00fffff;
    for (int i = 0; i < 4; ++i) s4[i] = r[i + 1] * 5;
    for (int i = 0; i < 5; ++i) h[i] = 0;
    for (int i = 0; i < 4; ++i) pad[i] = load_le32(key + 16 + 4 * i);
  }

  /// h = (h + block + 2^128) r mod 2^130 - 5 for each of the `n` 16-byte blocks at `m`.
  CA_HD void blocks(const std::uint8_t* m, std::size_t n) {
    constexpr std::uint32_t kMask = 0x3ffffff;
    const std::uint64_t r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4];
    const std::uint64_t s1 = s4[0], s2 = s4[1], s3 = s4[2], s4v = s4[3];
    std::uint32_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
    for (; n; --n, m += 16) {
      h0 += load_le32(m) & kMask;
      h1 += (load_le32(m + 3) >> 2) & kMask;
      h2 += (load_le32(m + 6) >> 4) & kMask;
      h3 += (load_le32(m + 9) >> 6) & kMask;
      h4 += (load_le32(m + 12) >> 8) | (1u << 24);
      const std::uint64_t d0 = h0 * r0 + h1 * s4v + h2 * s3 + h3 * s2 + std::uint64_t{h4} * s1;
      std::uint64_t d1 = h0 * r1 + h1 * r0 + h2 * s4v + h3 * s3 + std::uint64_t{h4} * s2;
      std::uint64_t d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4v + std::uint64_t{h4} * s3;
      std::uint64_t d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + std::uint64_t{h4} * s4v;
      std::uint64_t d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + std::uint64_t{h4} * r0;
      h0 = static_cast<std::uint32_t>(d0) & kMask, d1 += d0 >> 26;
      h1 = static_cast<std::uint32_t>(d1) & kMask, d2 += d1 >> 26;
      h2 = static_cast<std::uint32_t>(d2) & kMask, d3 += d2 >> 26;
      h3 = static_cast<std::uint32_t>(d3) & kMask, d4 += d3 >> 26;
      h4 = static_cast<std::uint32_t>(d4) & kMask;
      h0 += static_cast<std::uint32_t>(d4 >> 26) * 5;
      h1 += h0 >> 26, h0 &= kMask;
    }
    h[0] = h0, h[1] = h1, h[2] = h2, h[3] = h3, h[4] = h4;
  }

  /// `len` bytes as whole blocks, the last one zero-padded (the AEAD's "data || pad16(data)").
  CA_HD void padded(const std::uint8_t* data, std::size_t len) {
    blocks(data, len / 16);
    if (len % 16) {
      std::uint8_t last[16] = {};
      for (std::size_t i = 0; i < len % 16; ++i) last[i] = data[len - len % 16 + i];
      blocks(last, 1);
    }
  }

  /// The 16-byte tag: h fully reduced mod 2^130 - 5, plus s mod 2^128.
  CA_HD void finish(std::uint8_t tag[16]) {
    constexpr std::uint32_t kMask = 0x3ffffff;
    std::uint32_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4], c;
    c = h1 >> 26, h1 &= kMask, h2 += c;
    c = h2 >> 26, h2 &= kMask, h3 += c;
    c = h3 >> 26, h3 &= kMask, h4 += c;
    c = h4 >> 26, h4 &= kMask, h0 += c * 5;
    c = h0 >> 26, h0 &= kMask, h1 += c;
    // g = h - p = h + 5 - 2^130; keep g when it did not borrow.
    std::uint32_t g0 = h0 + 5;
    c = g0 >> 26, g0 &= kMask;
    std::uint32_t g1 = h1 + c;
    c = g1 >> 26, g1 &= kMask;
    std::uint32_t g2 = h2 + c;
    c = g2 >> 26, g2 &= kMask;
    std::uint32_t g3 = h3 + c;
    c = g3 >> 26, g3 &= kMask;
    const std::uint32_t g4 = h4 + c - (1u << 26);
    const std::uint32_t take_g = (g4 >> 31) - 1;  // all ones when g4 did not go negative
    h0 = (h0 & ~take_g) | (g0 & take_g);
    h1 = (h1 & ~take_g) | (g1 & take_g);
    h2 = (h2 & ~take_g) | (g2 & take_g);
    h3 = (h3 & ~take_g) | (g3 & take_g);
    h4 = (h4 & ~take_g) | (g4 & take_g);
    // 130 bits in 26-bit limbs -> 128 bits in 32-bit words, then + s.
    const std::uint32_t w0 = h0 | (h1 << 26), w1 = (h1 >> 6) | (h2 << 20), w2 = (h2 >> 12) | (h3 << 14),
                        w3 = (h3 >> 18) | (h4 << 8);
    std::uint64_t f = std::uint64_t{w0} + pad[0];
    store_le32(tag, static_cast<std::uint32_t>(f));
    f = std::uint64_t{w1} + pad[1] + (f >> 32);
    store_le32(tag + 4, static_cast<std::uint32_t>(f));
    f = std::uint64_t{w2} + pad[2] + (f >> 32);
    store_le32(tag + 8, static_cast<std::uint32_t>(f));
    f = std::uint64_t{w3} + pad[3] + (f >> 32);
    store_le32(tag + 12, static_cast<std::uint32_t>(f));
  }
};

/// The ChaCha20-Poly1305 tag (RFC 8439 §2.8) of `aad` and `ciphertext` under (key, nonce): the one-time Poly1305 key
/// is the first half of ChaCha20 block 0.
CA_HD void chacha20_poly1305_tag(const std::uint8_t key[32], const std::uint8_t nonce[12], const std::uint8_t* aad,
                                 std::size_t aad_len, const std::uint8_t* ciphertext, std::size_t len,
                                 std::uint8_t tag[16]) {
  std::uint32_t state[16], block[16];
  chacha20_init(state, key, 0, nonce);
  chacha20_block(state, block);
  std::uint8_t otk[32];
  for (int i = 0; i < 8; ++i) store_le32(otk + 4 * i, block[i]);
  Poly1305 mac;
  mac.init(otk);
  mac.padded(aad, aad_len);
  mac.padded(ciphertext, len);
  std::uint8_t lengths[16];
  store_le64(lengths, aad_len);
  store_le64(lengths + 8, len);
  mac.blocks(lengths, 1);
  mac.finish(tag);
}

}  // namespace cryptaccel::algo

namespace cryptaccel::algo {

/// RFC 8439 §2.8 sealing: out = in XOR ChaCha20(key, nonce, from block 1), tag over aad and out. in may be out.
CA_HD void chacha20_poly1305_seal(const std::uint8_t key[32], const std::uint8_t nonce[12], const std::uint8_t* aad,
                                  std::size_t aad_len, const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                                  std::uint8_t tag[16]) {
  chacha20_xor(key, 1, nonce, in, out, len);
  chacha20_poly1305_tag(key, nonce, aad, aad_len, out, len, tag);
}

/// RFC 8439 §2.8 opening: checks `tag` against aad and the ciphertext `in` first (in constant time), and only when it
/// matches writes the plaintext to out (in may be out). Returns whether it matched; out is untouched otherwise.
CA_HD bool chacha20_poly1305_open(const std::uint8_t key[32], const std::uint8_t nonce[12], const std::uint8_t* aad,
                                  std::size_t aad_len, const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                                  const std::uint8_t tag[16]) {
  std::uint8_t expected[16];
  chacha20_poly1305_tag(key, nonce, aad, aad_len, in, len, expected);
  std::uint8_t diff = 0;
  for (int i = 0; i < 16; ++i) diff |= static_cast<std::uint8_t>(expected[i] ^ tag[i]);
  if (diff) return false;
  chacha20_xor(key, 1, nonce, in, out, len);
  return true;
}

}  // namespace cryptaccel::algo
