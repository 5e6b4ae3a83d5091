// Small mode helpers shared by every engine: counter increments (CTR, GCM) and the XTS tweak update.
#pragma once
#include <cstdint>

#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// Adds `n` to a 128-bit big-endian counter block (CTR mode: the whole block is the counter, wrapping mod 2^128).
CA_HD void ctr128_add(std::uint8_t counter[16], std::uint64_t n) {
  unsigned carry = 0;
  for (int i = 15; i >= 0; --i) {
    const unsigned add = static_cast<unsigned>(n & 0xFF) + carry;
    const unsigned sum = counter[i] + add;
    counter[i] = static_cast<std::uint8_t>(sum);
    carry = sum >> 8;
    n >>= 8;
  }
}

/// GCM's inc32 applied `n` times: adds `n` to the last 32 bits (big-endian), wrapping mod 2^32; bytes 0..11 unchanged.
CA_HD void ctr32_add(std::uint8_t counter[16], std::uint32_t n) {
  std::uint32_t c = (std::uint32_t{counter[12]} << 24) | (std::uint32_t{counter[13]} << 16) |
                    (std::uint32_t{counter[14]} << 8) | counter[15];
  c += n;
  counter[12] = static_cast<std::uint8_t>(c >> 24), counter[13] = static_cast<std::uint8_t>(c >> 16);
  counter[14] = static_cast<std::uint8_t>(c >> 8), counter[15] = static_cast<std::uint8_t>(c);
}

/// XTS: T <- T · α in GF(2^128), little-endian byte order (IEEE 1619 §5.2), constant time.
CA_HD void xts_mul_alpha(std::uint8_t t[16]) {
  const unsigned carry_out = t[15] >> 7;
  for (int i = 15; i > 0; --i) t[i] = static_cast<std::uint8_t>((t[i] << 1) | (t[i - 1] >> 7));
  t[0] = static_cast<std::uint8_t>((t[0] << 1) ^ (0x87u & (0u - carry_out)));
}

/// XTS data-unit tweaks: adds `n` to a 16-byte little-endian integer (the data-unit sequence number).
CA_HD void le128_add(std::uint8_t t[16], std::uint64_t n) {
  unsigned carry = 0;
  for (int i = 0; i < 16; ++i) {
    const unsigned sum = t[i] + static_cast<unsigned>(n & 0xFF) + carry;
    t[i] = static_cast<std::uint8_t>(sum);
    carry = sum >> 8;
    n >>= 8;
  }
}

}  // namespace cryptaccel::algo
