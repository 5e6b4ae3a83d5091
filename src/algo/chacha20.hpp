// ChaCha20 (RFC 8439 §2.3-2.4), host and device: the block function and the keystream XOR from a 32-bit block counter.
// Add, rotate and XOR only: constant time by construction.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bits.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// One quarter round on four words of the state (RFC 8439 §2.1).
CA_HD void chacha_quarter_round(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d) {
  a += b, d ^= a, d = rotl32(d, 16);
  c += d, b ^= c, b = rotl32(b, 12);
  a += b, d ^= a, d = rotl32(d, 8);
  c += d, b ^= c, b = rotl32(b, 7);
}

/// The input state for `counter`: the constants "expand 32-byte k", the key (8 words), the counter and the 96-bit
/// nonce (3 words), all little-endian.
CA_HD void chacha20_init(std::uint32_t s[16], const std::uint8_t key[32], std::uint32_t counter,
                         const std::uint8_t nonce[12]) {
  s[0] = 0x61707865, s[1] = 0x3320646e, s[2] = 0x79622d32, s[3] = 0x6b206574;
  for (int i = 0; i < 8; ++i) s[4 + i] = load_le32(key + 4 * i);
  s[12] = counter;
  for (int i = 0; i < 3; ++i) s[13 + i] = load_le32(nonce + 4 * i);
}

/// out = the 16 words of the ChaCha20 block for input state `in` (20 rounds: 10 column + diagonal double rounds, then
/// the input added).
CA_HD void chacha20_block(const std::uint32_t in[16], std::uint32_t out[16]) {
  std::uint32_t x[16];
  CA_UNROLL_ALL
  for (int i = 0; i < 16; ++i) x[i] = in[i];
  for (int r = 0; r < 10; ++r) {
    chacha_quarter_round(x[0], x[4], x[8], x[12]);
    chacha_quarter_round(x[1], x[5], x[9], x[13]);
    chacha_quarter_round(x[2], x[6], x[10], x[14]);
    chacha_quarter_round(x[3], x[7], x[11], x[15]);
    chacha_quarter_round(x[0], x[5], x[10], x[15]);
    chacha_quarter_round(x[1], x[6], x[11], x[12]);
    chacha_quarter_round(x[2], x[7], x[8], x[13]);
    chacha_quarter_round(x[3], x[4], x[9], x[14]);
  }
  CA_UNROLL_ALL
  for (int i = 0; i < 16; ++i) out[i] = x[i] + in[i];
}

/// out = in XOR the ChaCha20 keystream of (key, nonce) from block `counter` on (RFC 8439 §2.4); in and out may be the
/// same memory. The 32-bit counter wraps as the RFC's does (a caller keeps messages below 2^32 blocks).
CA_HD void chacha20_xor(const std::uint8_t key[32], std::uint32_t counter, const std::uint8_t nonce[12],
                        const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
  std::uint32_t state[16], block[16];
  chacha20_init(state, key, counter, nonce);
  std::uint8_t bytes[64];
  for (std::size_t at = 0; at < len; at += 64) {
    chacha20_block(state, block);
    ++state[12];
    const std::size_t n = len - at < 64 ? len - at : 64;
    if (n == 64) {
      for (int i = 0; i < 16; ++i) store_le32(out + at + 4 * i, load_le32(in + at + 4 * i) ^ block[i]);
    } else {
      for (int i = 0; i < 16; ++i) store_le32(bytes + 4 * i, block[i]);
      for (std::size_t i = 0; i < n; ++i) out[at + i] = in[at + i] ^ bytes[i];
    }
  }
}

}  // namespace cryptaccel::algo
