// SM3 block function (GB/T 32905-2016, §5.3) and initial value, shared by host and device.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bits.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

/// GB/T 32905 §4.1 initial value.
CA_DEFINE_TABLE(std::uint32_t, kSm3Init, 8,0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
                                              0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e)

// Permutations P0 and P1 (§4.4), the operations Zksh's sm3p0/sm3p1 compute.
CA_HD std::uint32_t sm3_p0(std::uint32_t x) { return x ^ rotl32(x, 9) ^ rotl32(x, 17); }
CA_HD std::uint32_t sm3_p1(std::uint32_t x) { return x ^ rotl32(x, 15) ^ rotl32(x, 23); }

/// Processes `n` consecutive 64-byte blocks into `v`.
CA_HD void sm3_blocks(std::uint32_t v[8], const std::uint8_t* blocks, std::size_t n) {
  for (; n; --n, blocks += 64) {
    std::uint32_t w[68];
    for (int j = 0; j < 16; ++j) w[j] = load_be32(blocks + 4 * j);
    for (int j = 16; j < 68; ++j)
      w[j] = sm3_p1(w[j - 16] ^ w[j - 9] ^ rotl32(w[j - 3], 15)) ^ rotl32(w[j - 13], 7) ^ w[j - 6];
    std::uint32_t a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
    for (int j = 0; j < 64; ++j) {
      const std::uint32_t tj = j < 16 ? 0x79cc4519u : 0x7a879d8au;  // T_j (§4.2)
      const std::uint32_t a12 = rotl32(a, 12);
      const std::uint32_t ss1 = rotl32(a12 + e + rotl32(tj, j & 31), 7);
      const std::uint32_t ss2 = ss1 ^ a12;
      const std::uint32_t ff = j < 16 ? a ^ b ^ c : (a & b) | (a & c) | (b & c);
      const std::uint32_t gg = j < 16 ? e ^ f ^ g : (e & f) | (~e & g);
      const std::uint32_t tt1 = ff + d + ss2 + (w[j] ^ w[j + 4]);  // W'_j = W_j ^ W_{j+4}
      const std::uint32_t tt2 = gg + h + ss1 + w[j];
      d = c, c = rotl32(b, 9), b = a, a = tt1;
      h = g, g = rotl32(f, 19), f = e, e = sm3_p0(tt2);
    }
    v[0] ^= a, v[1] ^= b, v[2] ^= c, v[3] ^= d, v[4] ^= e, v[5] ^= f, v[6] ^= g, v[7] ^= h;
  }
}

}  // namespace cryptaccel::algo
