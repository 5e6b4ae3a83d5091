// SHA-224/SHA-256 block function (FIPS 180-4 §6.2) and initial values, shared by host and device. Padding and
// buffering (the Merkle–Damgård framing common to SHA-2 and SM3) live with the callers.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bits.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
CA_DEFINE_TABLE(std::uint32_t, kSha256K, 64,
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2)

/// FIPS 180-4 §5.3.3 (SHA-256) initial hash value.
CA_DEFINE_TABLE(std::uint32_t, kSha256Init, 8,0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
/// FIPS 180-4 §5.3.2 (SHA-224) initial hash value.
CA_DEFINE_TABLE(std::uint32_t, kSha224Init, 8,0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
                                                 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4)

// The four σ/Σ functions of FIPS 180-4 §4.1.2 (the operations Zknh's sha256sum0/1 and sha256sig0/1 compute).
CA_HD std::uint32_t sha256_bsig0(std::uint32_t x) { return rotr32(x, 2) ^ rotr32(x, 13) ^ rotr32(x, 22); }
CA_HD std::uint32_t sha256_bsig1(std::uint32_t x) { return rotr32(x, 6) ^ rotr32(x, 11) ^ rotr32(x, 25); }
CA_HD std::uint32_t sha256_ssig0(std::uint32_t x) { return rotr32(x, 7) ^ rotr32(x, 18) ^ (x >> 3); }
CA_HD std::uint32_t sha256_ssig1(std::uint32_t x) { return rotr32(x, 17) ^ rotr32(x, 19) ^ (x >> 10); }

/// Compresses one block given as its 16 message words (big-endian words of the block; used as the schedule's ring,
/// so changed) into `h`.
CA_HD void sha256_compress(std::uint32_t h[8], std::uint32_t w[16]) {
  std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int t = 0; t < 64; ++t) {
    if (t >= 16) {  // message schedule in a 16-word ring
      w[t & 15] += sha256_ssig1(w[(t - 2) & 15]) + w[(t - 7) & 15] + sha256_ssig0(w[(t - 15) & 15]);
    }
    const std::uint32_t t1 = hh + sha256_bsig1(e) + ((e & f) ^ (~e & g)) + CA_TABLE(kSha256K)[t] + w[t & 15];
    const std::uint32_t t2 = sha256_bsig0(a) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

/// Processes `n` consecutive 64-byte blocks into `h`.
CA_HD void sha256_blocks(std::uint32_t h[8], const std::uint8_t* blocks, std::size_t n) {
  for (; n; --n, blocks += 64) {
    std::uint32_t w[16];
    for (int t = 0; t < 16; ++t) w[t] = load_be32(blocks + 4 * t);
    sha256_compress(h, w);
  }
}

}  // namespace cryptaccel::algo
