/* SHA-256 kernel (FIPS 180-4), rv/kernels/README.md has the I/O layout: u32 length + message -> 32-byte digest.
 * The measured region covers the whole hash of the message, padding included. Variants (common/variant.h):
 *   software-naive  a plain reading of FIPS 180-4: 64-word schedule array, Σ/σ from shift-and-OR rotations,
 *                   big-endian loads byte by byte (seed 000's "Software")
 *   hybrid          the same with ror/rori for the rotations and rev8 for the loads (seed 000's "Hybrid")
 *   native          Σ0, Σ1, σ0, σ1 as sha256sum0/sum1/sig0/sig1 (Zknh) (seed 000's "Native")
 *   reference       the software-naive code (portable C; SHA-256 has no secret-dependent branch or index)
 *   zvk             Zvknha/Zvknhb vector rounds over all blocks (sha256_zvk.h) */
#include "../common/variant.h"
#include "../platform/io.h"
#include "../platform/region.h"

#if defined(VARIANT_SOFTWARE_TABLE)
#error "SHA-256 has no table variant"
#endif

/* Round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t K256[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u,
    0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
    0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u,
    0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
    0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
    0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au,
    0x5b9cca4fu, 0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

#if defined(VARIANT_NATIVE)
#define BSIG0(x) __riscv_sha256sum0(x)
#define BSIG1(x) __riscv_sha256sum1(x)
#define SSIG0(x) __riscv_sha256sig0(x)
#define SSIG1(x) __riscv_sha256sig1(x)
#else
#define BSIG0(x) (ca_ror32((x), 2) ^ ca_ror32((x), 13) ^ ca_ror32((x), 22))
#define BSIG1(x) (ca_ror32((x), 6) ^ ca_ror32((x), 11) ^ ca_ror32((x), 25))
#define SSIG0(x) (ca_ror32((x), 7) ^ ca_ror32((x), 18) ^ ((x) >> 3))
#define SSIG1(x) (ca_ror32((x), 17) ^ ca_ror32((x), 19) ^ ((x) >> 10))
#endif
#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))

#if !defined(VARIANT_ZVK) /* the scalar compression function */
/** Big-endian word from 4-byte-aligned bytes. */
static inline uint32_t load_be32(const uint8_t* p) {
#if CA_HAVE_BITMANIP
  return ca_bswap32(*(const ca_u32a*)p);
#else
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
#endif
}

static void sha256_compress(uint32_t h[8], const uint8_t* block) {
  uint32_t w[64];
  for (unsigned t = 0; t < 16; ++t) w[t] = load_be32(block + 4 * t);
  for (unsigned t = 16; t < 64; ++t) w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) + w[t - 16];
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (unsigned t = 0; t < 64; ++t) {
    uint32_t t1 = hh + BSIG1(e) + CH(e, f, g) + K256[t] + w[t];
    uint32_t t2 = BSIG0(a) + MAJ(a, b, c);
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
}
#endif

#if defined(VARIANT_ZVK)
#include "sha256_zvk.h"
#define SHA256_BLOCKS(h, p, n) sha256_blocks((h), (p), (n))
#else
#define SHA256_BLOCKS(h, p, n) \
  for (uint32_t i = 0; i < (n); ++i) sha256_compress((h), (p) + 64 * i)
#endif

static void sha256(const uint8_t* msg, uint32_t len, uint32_t h[8]) {
  static const uint32_t iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  for (unsigned i = 0; i < 8; ++i) h[i] = iv[i];
  uint32_t full = len / 64;
  SHA256_BLOCKS(h, msg, full);
  /* Padding: 0x80, zeros, the bit length as a 64-bit big-endian number; one or two final blocks. */
  uint8_t tail[128] __attribute__((aligned(8)));
  uint32_t rest = len % 64, blocks = rest < 56 ? 1 : 2;
  for (uint32_t i = 0; i < rest; ++i) tail[i] = msg[64 * full + i];
  tail[rest] = 0x80;
  for (uint32_t i = rest + 1; i < 64 * blocks - 8; ++i) tail[i] = 0;
  uint64_t bits = (uint64_t)len * 8;
  for (unsigned i = 0; i < 8; ++i) tail[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
  SHA256_BLOCKS(h, tail, blocks);
}

int main(void) {
  uint8_t hdr[4];
  ca_read_exact(hdr, sizeof hdr);
  uint32_t len = ca_load_le32(hdr);
  uint8_t* msg = ca_heap(0, len);
  ca_read_exact(msg, len);
  uint32_t h[8];
  ca_region_t region;
  CA_REGION_BEGIN(region);
  sha256(msg, len, h);
  CA_REGION_END(region);
  uint8_t digest[32];
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned j = 0; j < 4; ++j) digest[4 * i + j] = (uint8_t)(h[i] >> (24 - 8 * j));
  ca_write_all(1, digest, sizeof digest);
  ca_region_report(&region);
  return 0;
}
