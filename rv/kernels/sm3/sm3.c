/* SM3 kernel (GB/T 32905-2016), the "hash" layout of the SHA kernels: u32 length + message -> 32-byte digest; the
 * measured region covers the whole hash, padding included. Variants (common/variant.h):
 *   reference  portable C, a plain reading of the standard (68 + 64 word schedule, rotations from shifts)
 *   zvk        Zvksh + Zvkb: the state in one 8 x e32 element group (LMUL 2), vsm3c two rounds per instruction,
 *              vsm3me eight schedule words per instruction (the instructions byte-swap the message words
 *              themselves: only the state is vrev8'd, once per call) */
#include "../common/variant.h"
#include "../platform/io.h"
#include "../platform/region.h"

static const uint32_t sm3_iv[8] = {0x7380166fu, 0x4914b2b9u, 0x172442d7u, 0xda8a0600u,
                                   0xa96f30bcu, 0x163138aau, 0xe38dee4du, 0xb0fb0e4eu};

#if defined(VARIANT_REFERENCE)

static inline uint32_t rol32(uint32_t x, unsigned n) { return n ? (x << n) | (x >> (32 - n)) : x; }
#define P0(x) ((x) ^ rol32((x), 9) ^ rol32((x), 17))
#define P1(x) ((x) ^ rol32((x), 15) ^ rol32((x), 23))

static inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void sm3_compress(uint32_t v[8], const uint8_t* block) {
  uint32_t w[68];
  for (unsigned j = 0; j < 16; ++j) w[j] = load_be32(block + 4 * j);
  for (unsigned j = 16; j < 68; ++j)
    w[j] = P1(w[j - 16] ^ w[j - 9] ^ rol32(w[j - 3], 15)) ^ rol32(w[j - 13], 7) ^ w[j - 6];
  uint32_t a = v[0], b = v[1], c = v[2], d = v[3], e = v[4], f = v[5], g = v[6], h = v[7];
  for (unsigned j = 0; j < 64; ++j) {
    uint32_t t = j < 16 ? 0x79cc4519u : 0x7a879d8au;
    uint32_t ss1 = rol32(rol32(a, 12) + e + rol32(t, j % 32), 7);
    uint32_t ss2 = ss1 ^ rol32(a, 12);
    uint32_t ff = j < 16 ? a ^ b ^ c : (a & b) | (a & c) | (b & c);
    uint32_t gg = j < 16 ? e ^ f ^ g : (e & f) | (~e & g);
    uint32_t tt1 = ff + d + ss2 + (w[j] ^ w[j + 4]);
    uint32_t tt2 = gg + h + ss1 + w[j];
    d = c;
    c = rol32(b, 9);
    b = a;
    a = tt1;
    h = g;
    g = rol32(f, 19);
    f = e;
    e = P0(tt2);
  }
  v[0] ^= a;
  v[1] ^= b;
  v[2] ^= c;
  v[3] ^= d;
  v[4] ^= e;
  v[5] ^= f;
  v[6] ^= g;
  v[7] ^= h;
}
#define SM3_BLOCKS(v, p, n) \
  for (uint32_t i = 0; i < (n); ++i) sm3_compress((v), (p) + 64 * i)

#elif defined(VARIANT_ZVK)

typedef uint32_t __attribute__((may_alias)) zvk_u32;

/* Rounds 2i .. 2i+7 (vsm3c's immediate counts round pairs) from W[2i..2i+7] (w0) and W[2i+8..2i+15] (w1); then
 * w0 <- W[2i+16..2i+23] unless this is the last group. */
#define SM3_8ROUNDS(i, w0, w1, last)                                   \
  do {                                                                 \
    s = __riscv_vsm3c_vi_u32m2(s, w0, (i), 8);                          \
    s = __riscv_vsm3c_vi_u32m2(s, __riscv_vslidedown_vx_u32m2(w0, 2, 8), (i) + 1, 8); \
    vuint32m2_t m_ = __riscv_vslideup_vx_u32m2(__riscv_vslidedown_vx_u32m2(w0, 4, 8), w1, 4, 8); \
    s = __riscv_vsm3c_vi_u32m2(s, m_, (i) + 2, 8);                      \
    s = __riscv_vsm3c_vi_u32m2(s, __riscv_vslidedown_vx_u32m2(m_, 2, 8), (i) + 3, 8); \
    if (!(last)) w0 = __riscv_vsm3me_vv_u32m2(w1, w0, 8);               \
  } while (0)

static void sm3_blocks(uint32_t v[8], const uint8_t* p, uint32_t n) {
  if (n == 0) return;
  vuint32m2_t s = __riscv_vrev8_v_u32m2(__riscv_vle32_v_u32m2((const zvk_u32*)v, 8), 8);
  for (; n > 0; --n, p += 64) {
    const vuint32m2_t prev = s;
    vuint32m2_t wa = __riscv_vle32_v_u32m2((const zvk_u32*)p, 8);
    vuint32m2_t wb = __riscv_vle32_v_u32m2((const zvk_u32*)p + 8, 8);
    SM3_8ROUNDS(0, wa, wb, 0);
    SM3_8ROUNDS(4, wb, wa, 0);
    SM3_8ROUNDS(8, wa, wb, 0);
    SM3_8ROUNDS(12, wb, wa, 0);
    SM3_8ROUNDS(16, wa, wb, 0);
    SM3_8ROUNDS(20, wb, wa, 0);
    SM3_8ROUNDS(24, wa, wb, 0);
    SM3_8ROUNDS(28, wb, wa, 1);
    s = __riscv_vxor_vv_u32m2(s, prev, 8);
  }
  __riscv_vse32_v_u32m2((zvk_u32*)v, __riscv_vrev8_v_u32m2(s, 8), 8);
}
#define SM3_BLOCKS(v, p, n) sm3_blocks((v), (p), (n))

#else
#error "the SM3 kernel has the reference and zvk variants"
#endif

static void sm3(const uint8_t* msg, uint32_t len, uint32_t v[8]) {
  for (unsigned i = 0; i < 8; ++i) v[i] = sm3_iv[i];
  uint32_t full = len / 64;
  SM3_BLOCKS(v, msg, full);
  /* Padding as SHA-256: 0x80, zeros, the bit length as a 64-bit big-endian number; one or two final blocks. The
   * tail is cleared a word at a time first (the SHA kernels clear it byte by byte, as seed 000 measured them). */
  uint8_t tail[128] __attribute__((aligned(8)));
  uint32_t rest = len % 64, blocks = rest < 56 ? 1 : 2;
  for (uint32_t i = 0; i < 16 * blocks; ++i) ((ca_u32a*)tail)[i] = 0;
  for (uint32_t i = 0; i < rest; ++i) tail[i] = msg[64 * full + i];
  tail[rest] = 0x80;
  uint64_t bits = (uint64_t)len * 8;
  for (unsigned i = 0; i < 8; ++i) tail[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
  SM3_BLOCKS(v, tail, blocks);
}

int main(void) {
  uint8_t hdr[4];
  ca_read_exact(hdr, sizeof hdr);
  uint32_t len = ca_load_le32(hdr);
  uint8_t* msg = ca_heap(0, len);
  ca_read_exact(msg, len);
  uint32_t v[8] __attribute__((aligned(16)));
  ca_region_t region;
  CA_REGION_BEGIN(region);
  sm3(msg, len, v);
  CA_REGION_END(region);
  uint8_t digest[32];
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned j = 0; j < 4; ++j) digest[4 * i + j] = (uint8_t)(v[i] >> (24 - 8 * j));
  ca_write_all(1, digest, sizeof digest);
  ca_region_report(&region);
  return 0;
}
