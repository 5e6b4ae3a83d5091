/* SHA-512 kernel (FIPS 180-4), rv/kernels/README.md has the I/O layout: u32 length + message -> 64-byte digest.
 * The measured region covers the whole hash of the message, padding included. Variants (common/variant.h):
 *   software-naive  64-bit rotations from shifts and ORs (on RV32 the compiler splits them into 32-bit halves),
 *                   big-endian loads byte by byte
 *   hybrid          ror/rori (RV64 only: RV32 has no 64-bit rotate, so its rotations stay shifts) and rev8 loads
 *   native          RV64: sha512sum0/sum1/sig0/sig1; RV32: each 64-bit Σ/σ as two instructions on the (hi, lo)
 *                   register pair, sha512sum0r/sum1r for Σ and sha512sig0l/sig0h/sig1l/sig1h for σ (Zknh)
 *   reference       the software-naive code (portable C; SHA-512 has no secret-dependent branch or index)
 *   zvk             Zvknhb vector rounds over all blocks (sha512_zvk.h) */
#include "../common/variant.h"
#include "../platform/io.h"
#include "../platform/region.h"

#if defined(VARIANT_SOFTWARE_TABLE)
#error "SHA-512 has no table variant"
#endif

/* Round constants: the first 64 bits of the fractional parts of the cube roots of the first 80 primes. */
static const uint64_t K512[80] = {
    0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full,
    0xe9b5dba58189dbbcull, 0x3956c25bf348b538ull, 0x59f111f1b605d019ull,
    0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull, 0xd807aa98a3030242ull,
    0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,
    0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull,
    0xc19bf174cf692694ull, 0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull,
    0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull, 0x2de92c6f592b0275ull,
    0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,
    0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full,
    0xbf597fc7beef0ee4ull, 0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull,
    0x06ca6351e003826full, 0x142929670a0e6e70ull, 0x27b70a8546d22ffcull,
    0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,
    0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull,
    0x92722c851482353bull, 0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull,
    0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull, 0xd192e819d6ef5218ull,
    0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,
    0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull,
    0x34b0bcb5e19b48a8ull, 0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull,
    0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull, 0x748f82ee5defb2fcull,
    0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
    0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull,
    0xc67178f2e372532bull, 0xca273eceea26619cull, 0xd186b8c721c0c207ull,
    0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull, 0x06f067aa72176fbaull,
    0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,
    0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull,
    0x431d67c49c100d4cull, 0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull,
    0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull,
};

#if defined(VARIANT_NATIVE) && __riscv_xlen == 64
#define BSIG0(x) __riscv_sha512sum0(x)
#define BSIG1(x) __riscv_sha512sum1(x)
#define SSIG0(x) __riscv_sha512sig0(x)
#define SSIG1(x) __riscv_sha512sig1(x)
#elif defined(VARIANT_NATIVE)
#define HI(x) ((uint32_t)((x) >> 32))
#define LO(x) ((uint32_t)(x))
#define PAIR(hi, lo) ((uint64_t)(hi) << 32 | (lo))
/* The instruction computing the low half takes (lo, hi), the one for the high half (hi, lo). */
#define BSIG0(x) PAIR(__riscv_sha512sum0r(HI(x), LO(x)), __riscv_sha512sum0r(LO(x), HI(x)))
#define BSIG1(x) PAIR(__riscv_sha512sum1r(HI(x), LO(x)), __riscv_sha512sum1r(LO(x), HI(x)))
#define SSIG0(x) PAIR(__riscv_sha512sig0h(HI(x), LO(x)), __riscv_sha512sig0l(LO(x), HI(x)))
#define SSIG1(x) PAIR(__riscv_sha512sig1h(HI(x), LO(x)), __riscv_sha512sig1l(LO(x), HI(x)))
#else
#define BSIG0(x) (ca_ror64((x), 28) ^ ca_ror64((x), 34) ^ ca_ror64((x), 39))
#define BSIG1(x) (ca_ror64((x), 14) ^ ca_ror64((x), 18) ^ ca_ror64((x), 41))
#define SSIG0(x) (ca_ror64((x), 1) ^ ca_ror64((x), 8) ^ ((x) >> 7))
#define SSIG1(x) (ca_ror64((x), 19) ^ ca_ror64((x), 61) ^ ((x) >> 6))
#endif
#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))

#if !defined(VARIANT_ZVK) /* the scalar compression function */
/** Big-endian 64-bit word from 8-byte-aligned bytes. */
static inline uint64_t load_be64(const uint8_t* p) {
#if CA_HAVE_BITMANIP
  return ca_bswap64(*(const ca_u64a*)p);
#else
  return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 | (uint64_t)p[3] << 32 |
         (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 | (uint64_t)p[6] << 8 | p[7];
#endif
}

static void sha512_compress(uint64_t h[8], const uint8_t* block) {
  uint64_t w[80];
  for (unsigned t = 0; t < 16; ++t) w[t] = load_be64(block + 8 * t);
  for (unsigned t = 16; t < 80; ++t) w[t] = SSIG1(w[t - 2]) + w[t - 7] + SSIG0(w[t - 15]) + w[t - 16];
  uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (unsigned t = 0; t < 80; ++t) {
    uint64_t t1 = hh + BSIG1(e) + CH(e, f, g) + K512[t] + w[t];
    uint64_t t2 = BSIG0(a) + MAJ(a, b, c);
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
#include "sha512_zvk.h"
#define SHA512_BLOCKS(h, p, n) sha512_blocks((h), (p), (n))
#else
#define SHA512_BLOCKS(h, p, n) \
  for (uint32_t i = 0; i < (n); ++i) sha512_compress((h), (p) + 128 * i)
#endif

static void sha512(const uint8_t* msg, uint32_t len, uint64_t h[8]) {
  static const uint64_t iv[8] = {0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull,
                                 0xa54ff53a5f1d36f1ull, 0x510e527fade682d1ull, 0x9b05688c2b3e6c1full,
                                 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};
  for (unsigned i = 0; i < 8; ++i) h[i] = iv[i];
  uint32_t full = len / 128;
  SHA512_BLOCKS(h, msg, full);
  /* Padding: 0x80, zeros, the bit length as a 128-bit big-endian number; one or two final blocks. */
  uint8_t tail[256] __attribute__((aligned(8)));
  uint32_t rest = len % 128, blocks = rest < 112 ? 1 : 2;
  for (uint32_t i = 0; i < rest; ++i) tail[i] = msg[128 * full + i];
  tail[rest] = 0x80;
  for (uint32_t i = rest + 1; i < 128 * blocks - 8; ++i) tail[i] = 0;
  uint64_t bits = (uint64_t)len * 8;
  for (unsigned i = 0; i < 8; ++i) tail[128 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
  SHA512_BLOCKS(h, tail, blocks);
}

int main(void) {
  uint8_t hdr[4];
  ca_read_exact(hdr, sizeof hdr);
  uint32_t len = ca_load_le32(hdr);
  uint8_t* msg = ca_heap(0, len);
  ca_read_exact(msg, len);
  uint64_t h[8];
  ca_region_t region;
  CA_REGION_BEGIN(region);
  sha512(msg, len, h);
  CA_REGION_END(region);
  uint8_t digest[64];
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned j = 0; j < 8; ++j) digest[8 * i + j] = (uint8_t)(h[i] >> (56 - 8 * j));
  ca_write_all(1, digest, sizeof digest);
  ca_region_report(&region);
  return 0;
}
