// SHA-384/512/512-224/512-256 block function (FIPS 180-4 §6.4) and initial values, shared by host and device.
#pragma once
#include <cstddef>
#include <cstdint>

#include "algo/bits.hpp"
#include "algo/hd.hpp"

namespace cryptaccel::algo {

// FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube roots of the first 80 primes.
CA_DEFINE_TABLE(std::uint64_t, kSha512K, 80,
  0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,
  0x3956c25bf348b538ull, 0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,
  0xd807aa98a3030242ull, 0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
  0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,
  0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
  0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
  0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,
  0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull, 0x06ca6351e003826full, 0x142929670a0e6e70ull,
  0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
  0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,
  0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,
  0xd192e819d6ef5218ull, 0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
  0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,
  0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,
  0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
  0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,
  0xca273eceea26619cull, 0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,
  0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
  0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,
  0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull)

/// FIPS 180-4 §5.3.5 (SHA-512).
CA_DEFINE_TABLE(std::uint64_t, kSha512Init, 8,
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
    0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull)
/// FIPS 180-4 §5.3.4 (SHA-384).
CA_DEFINE_TABLE(std::uint64_t, kSha384Init, 8,
    0xcbbb9d5dc1059ed8ull, 0x629a292a367cd507ull, 0x9159015a3070dd17ull, 0x152fecd8f70e5939ull,
    0x67332667ffc00b31ull, 0x8eb44a8768581511ull, 0xdb0c2e0d64f98fa7ull, 0x47b5481dbefa4fa4ull)
/// FIPS 180-4 §5.3.6.1 (SHA-512/224).
CA_DEFINE_TABLE(std::uint64_t, kSha512_224Init, 8,
    0x8c3d37c819544da2ull, 0x73e1996689dcd4d6ull, 0x1dfab7ae32ff9c82ull, 0x679dd514582f9fcfull,
    0x0f6d2b697bd44da8ull, 0x77e36f7304c48942ull, 0x3f9d85a86a1d36c8ull, 0x1112e6ad91d692a1ull)
/// FIPS 180-4 §5.3.6.2 (SHA-512/256).
CA_DEFINE_TABLE(std::uint64_t, kSha512_256Init, 8,
    0x22312194fc2bf72cull, 0x9f555fa3c84c64c2ull, 0x2393b86b6f53b151ull, 0x963877195940eabdull,
    0x96283ee2a88effe3ull, 0xbe5e1e2553863992ull, 0x2b0199fc2c85b8aaull, 0x0eb72ddc81c52ca2ull)

CA_HD std::uint64_t sha512_bsig0(std::uint64_t x) { return rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39); }
CA_HD std::uint64_t sha512_bsig1(std::uint64_t x) { return rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41); }
CA_HD std::uint64_t sha512_ssig0(std::uint64_t x) { return rotr64(x, 1) ^ rotr64(x, 8) ^ (x >> 7); }
CA_HD std::uint64_t sha512_ssig1(std::uint64_t x) { return rotr64(x, 19) ^ rotr64(x, 61) ^ (x >> 6); }

/// Compresses one block given as its 16 message words (big-endian 64-bit words of the block; used as the schedule's
/// ring, so changed) into `h`.
CA_HD void sha512_compress(std::uint64_t h[8], std::uint64_t w[16]) {
  std::uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int t = 0; t < 80; ++t) {
    if (t >= 16) w[t & 15] += sha512_ssig1(w[(t - 2) & 15]) + w[(t - 7) & 15] + sha512_ssig0(w[(t - 15) & 15]);
    const std::uint64_t t1 = hh + sha512_bsig1(e) + ((e & f) ^ (~e & g)) + CA_TABLE(kSha512K)[t] + w[t & 15];
    const std::uint64_t t2 = sha512_bsig0(a) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

/// Processes `n` consecutive 128-byte blocks into `h`.
CA_HD void sha512_blocks(std::uint64_t h[8], const std::uint8_t* blocks, std::size_t n) {
  for (; n; --n, blocks += 128) {
    std::uint64_t w[16];
    for (int t = 0; t < 16; ++t) w[t] = load_be64(blocks + 8 * t);
    sha512_compress(h, w);
  }
}

}  // namespace cryptaccel::algo
