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

/// One SM3 round (§5.3.3) on the state a..h with W_j = `w` and W'_j = `w1` (W_j ^ W_(j+4)) and the rotated
/// constant `t` = T_j <<< (j mod 32); First: j < 16 (XOR boolean functions), else the majority and choice forms,
/// written with fewer operations than the standard's (a&b)|(a&c)|(b&c) and (e&f)|(~e&g).
template <bool First>
CA_HD void sm3_round(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d, std::uint32_t& e,
                     std::uint32_t& f, std::uint32_t& g, std::uint32_t& h, std::uint32_t w, std::uint32_t w1,
                     std::uint32_t t) {
  const std::uint32_t a12 = rotl32(a, 12);
  const std::uint32_t ss1 = rotl32(a12 + e + t, 7);
  const std::uint32_t ss2 = ss1 ^ a12;
  const std::uint32_t ff = First ? a ^ b ^ c : (a & b) | (c & (a | b));
  const std::uint32_t gg = First ? e ^ f ^ g : g ^ (e & (f ^ g));
  const std::uint32_t tt1 = ff + d + ss2 + w1;
  const std::uint32_t tt2 = gg + h + ss1 + w;
  d = c, c = rotl32(b, 9), b = a, a = tt1;
  h = g, g = rotl32(f, 19), f = e, e = sm3_p0(tt2);
}

/// Compresses one block given as its 16 message words (big-endian words of the block; the expansion runs in them as
/// a ring, so changed) into `v`. The message expansion runs four words ahead of the rounds in a 16-word ring (W_j is
/// needed with W_(j+4)), so no 68-word array is kept: on the GPU, with the loops unrolled, the ring stays in
/// registers; T_j <<< j is rotated one bit per round instead of by a variable count.
CA_HD void sm3_compress(std::uint32_t v[8], std::uint32_t w[16]) {
  std::uint32_t a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  // W_(j+4) for j >= 12 comes from the expansion: W_k = P1(W_(k-16) ^ W_(k-9) ^ (W_(k-3) <<< 15)) ^
  // (W_(k-13) <<< 7) ^ W_(k-6), computed into the ring slot of W_(k-16) once that word is no longer needed.
  const auto expand = [&](int k) {
    w[k & 15] = sm3_p1(w[k & 15] ^ w[(k - 9) & 15] ^ rotl32(w[(k - 3) & 15], 15)) ^
                rotl32(w[(k - 13) & 15], 7) ^ w[(k - 6) & 15];
  };
  std::uint32_t t = 0x79cc4519u;  // T_j <<< j
  CA_UNROLL_ALL
  for (int j = 0; j < 16; ++j) {
    if (j >= 12) expand(j + 4);
    sm3_round<true>(a, b, c, d, e, f, g, h, w[j & 15], w[j & 15] ^ w[(j + 4) & 15], t);
    t = rotl32(t, 1);
  }
  t = rotl32(0x7a879d8au, 16);
  CA_UNROLL_ALL
  for (int j = 16; j < 64; ++j) {
    if (j + 4 < 68) expand(j + 4);
    sm3_round<false>(a, b, c, d, e, f, g, h, w[j & 15], w[j & 15] ^ w[(j + 4) & 15], t);
    t = rotl32(t, 1);
  }
  v[0] ^= a, v[1] ^= b, v[2] ^= c, v[3] ^= d, v[4] ^= e, v[5] ^= f, v[6] ^= g, v[7] ^= h;
}

/// Processes `n` consecutive 64-byte blocks into `v`.
CA_HD void sm3_blocks(std::uint32_t v[8], const std::uint8_t* blocks, std::size_t n) {
  for (; n; --n, blocks += 64) {
    std::uint32_t w[16];
    for (int j = 0; j < 16; ++j) w[j] = load_be32(blocks + 4 * j);
    sm3_compress(v, w);
  }
}

}  // namespace cryptaccel::algo
