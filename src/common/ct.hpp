// Constant-time helpers: masks instead of branches, for padding checks and tag comparison.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cryptaccel::ct {

/// All ones when x == 0, else 0.
inline unsigned is_zero_mask(unsigned x) { return 0u - (((x | (0u - x)) >> 31) ^ 1u); }

/// All ones when a < b (both < 2^31), else 0.
inline unsigned less_than_mask(unsigned a, unsigned b) { return 0u - ((a - b) >> 31); }

/// True when the n bytes at a and b are equal; time depends only on n.
inline bool equal(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  unsigned diff = 0;
  for (std::size_t i = 0; i < n; ++i) diff |= a[i] ^ b[i];
  return is_zero_mask(diff) != 0;
}

/// PKCS#7 padding of a 16-byte block: 1..16 bytes of value n. Returns n when valid, 0 otherwise, in constant time
/// over the block's contents (no padding oracle through timing).
inline std::size_t pkcs7_pad_length(const std::uint8_t last_block[16]) {
  const unsigned n = last_block[15];
  unsigned bad = is_zero_mask(n) | less_than_mask(16u, n);
  for (unsigned i = 0; i < 16; ++i) {
    const unsigned in_padding = less_than_mask(i, n);  // byte 15-i is padding when i < n
    bad |= in_padding & ~is_zero_mask(last_block[15 - i] ^ n);
  }
  return n & ~bad;
}

}  // namespace cryptaccel::ct
