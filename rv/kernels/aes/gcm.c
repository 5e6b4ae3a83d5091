/* AES-GCM encryption kernel (SP 800-38D) with a 96-bit IV; rv/kernels/README.md has the "aes-gcm" layout:
 *   input   u32 aad_length, u32 length, key (AES_KEY_BYTES), iv (12 bytes), aad, plaintext
 *   output  ciphertext (length bytes) || tag (16 bytes)
 * The measured region covers the whole encryption: key expansion, H = E(K, 0), the CTR keystream, GHASH over AAD,
 * ciphertext and lengths, and the tag. Variants (common/variant.h):
 *   reference  the constant-time C AES of aes_ref.h, one block at a time, and a bit-serial constant-time GHASH
 *              multiplication (128 masked conditional XORs and shifts per block, no table)
 *   zvk        Zvkned for the key schedule (vaeskf1/vaeskf2) and CTR over VLMAX/4 blocks per instruction (counter
 *              blocks built in vector registers: vid, vrev8, vmerge), Zvkg vghsh.vv for GHASH one block at a time */
#include "../common/variant.h"
#include "../platform/io.h"
#include "../platform/region.h"
#include "aes_common.h"

#if defined(VARIANT_REFERENCE)
#include "aes_ref.h"
#elif defined(VARIANT_ZVK)
#include "aes_zvk.h"
#else
#error "the GCM kernel has the reference and zvk variants"
#endif

static uint8_t schedule[AES_SCHEDULE_BYTES] __attribute__((aligned(16)));

static inline void put_be64(uint8_t* p, uint64_t v) {
  for (unsigned i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (56 - 8 * i));
}

#if defined(VARIANT_REFERENCE)

static inline uint64_t be64(const uint8_t* p) {
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}

typedef struct { uint64_t hi, lo; } gf128_t;

/** x * h in GF(2^128) with GCM's bit order (SP 800-38D Algorithm 1), without data-dependent branches. */
static gf128_t gf128_mul(gf128_t x, gf128_t h) {
  gf128_t z = {0, 0}, v = h;
  for (unsigned i = 0; i < 128; ++i) {
    uint64_t bit = (i < 64 ? x.hi >> (63 - i) : x.lo >> (127 - i)) & 1;
    uint64_t m = (uint64_t)0 - bit;
    z.hi ^= v.hi & m;
    z.lo ^= v.lo & m;
    uint64_t carry = (uint64_t)0 - (v.lo & 1);
    v.lo = v.lo >> 1 | v.hi << 63;
    v.hi = (v.hi >> 1) ^ (0xE100000000000000ull & carry);
  }
  return z;
}

/** y <- (y ^ block) * h over n bytes (the last block zero-padded). */
static void ghash(gf128_t* y, gf128_t h, const uint8_t* p, size_t n) {
  for (size_t off = 0; off < n; off += 16) {
    uint8_t b[16] = {0};
    for (size_t i = 0; i < 16 && off + i < n; ++i) b[i] = p[off + i];
    y->hi ^= be64(b);
    y->lo ^= be64(b + 8);
    *y = gf128_mul(*y, h);
  }
}

static void gcm_encrypt(const uint8_t* key, const uint8_t* iv, const uint8_t* aad, uint32_t aad_len, uint8_t* data,
                        uint32_t len, uint8_t tag[16]) {
  aes_expand_enc(key, schedule);
  uint8_t blk[16] __attribute__((aligned(16))) = {0}, ks[16] __attribute__((aligned(16)));
  aes_encrypt_block(schedule, blk, blk);
  const gf128_t h = {be64(blk), be64(blk + 8)};
  uint8_t ctr[16] __attribute__((aligned(16)));
  for (unsigned i = 0; i < 12; ++i) ctr[i] = iv[i];
  for (uint32_t off = 0, c = 2; off < len; off += 16, ++c) {
    ctr[12] = (uint8_t)(c >> 24);
    ctr[13] = (uint8_t)(c >> 16);
    ctr[14] = (uint8_t)(c >> 8);
    ctr[15] = (uint8_t)c;
    aes_encrypt_block(schedule, ctr, ks);
    for (uint32_t i = 0; i < 16 && off + i < len; ++i) data[off + i] ^= ks[i];
  }
  gf128_t y = {0, 0};
  ghash(&y, h, aad, aad_len);
  ghash(&y, h, data, len);
  y.hi ^= (uint64_t)aad_len * 8;
  y.lo ^= (uint64_t)len * 8;
  y = gf128_mul(y, h);
  ctr[12] = ctr[13] = ctr[14] = 0;
  ctr[15] = 1;
  aes_encrypt_block(schedule, ctr, ks);
  put_be64(tag, y.hi);
  put_be64(tag + 8, y.lo);
  for (unsigned i = 0; i < 16; ++i) tag[i] ^= ks[i];
}

#else /* VARIANT_ZVK */

/** y <- GHASH_H(y, blocks) over n bytes with vghsh.vv (the last partial block zero-padded through a buffer). */
static vuint32m1_t ghash_zvk(vuint32m1_t y, vuint32m1_t h, const uint8_t* p, size_t n) {
  size_t full = n / 16;
  for (size_t i = 0; i < full; ++i) {
    y = __riscv_vghsh_vv_u32m1(y, h, __riscv_vle32_v_u32m1((const zvk_u32*)(p + 16 * i), 4), 4);
  }
  if (n % 16) {
    uint32_t b[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n % 16; ++i) ((uint8_t*)b)[i] = p[16 * full + i];
    y = __riscv_vghsh_vv_u32m1(y, h, __riscv_vle32_v_u32m1(b, 4), 4);
  }
  return y;
}

static void gcm_encrypt(const uint8_t* key, const uint8_t* iv, const uint8_t* aad, uint32_t aad_len, uint8_t* data,
                        uint32_t len, uint8_t tag[16]) {
  aes_expand_enc(key, schedule);
  const uint8_t* ks = schedule;
  RK_ALL;
  /* J0 = IV || 0^31 || 1 as four words; the counter word is element 3 of every element group. */
  uint32_t j0[4] __attribute__((aligned(16)));
  for (unsigned i = 0; i < 12; ++i) ((uint8_t*)j0)[i] = iv[i];
  j0[3] = 0x01000000u; /* big-endian 1 */
  vuint32m1_t s = __riscv_vmv_v_x_u32m1(0, 4);
  ENC_ALL(s, u32m1, 4);
  const vuint32m1_t h = s; /* H = E(K, 0) */
  /* CTR over whole element groups: counter blocks for blocks b .. b + vl/4 - 1 are J0 with word 3 = be32(2 + b + i). */
  uint32_t full = len / 16;
  zvk_u32* p = (zvk_u32*)data;
  const vuint32m4_t j0v = __riscv_vlmul_ext_v_u32m1_u32m4(__riscv_vle32_v_u32m1(j0, 4));
  for (size_t left = 4 * (size_t)full, b = 0; left > 0;) {
    size_t vl = __riscv_vsetvl_e32m4(left);
    vuint32m4_t id = __riscv_vid_v_u32m4(vl);
    vuint32m4_t lane = __riscv_vand_vx_u32m4(id, 3, vl);
    vuint32m4_t words = __riscv_vrgather_vv_u32m4(j0v, lane, vl); /* J0's words repeated per block */
    vbool8_t is_ctr = __riscv_vmseq_vx_u32m4_b8(lane, 3, vl);
    vuint32m4_t count = __riscv_vrev8_v_u32m4(
        __riscv_vadd_vx_u32m4(__riscv_vsrl_vx_u32m4(id, 2, vl), (uint32_t)(2 + b), vl), vl);
    vuint32m4_t c = __riscv_vmerge_vvm_u32m4(words, count, is_ctr, vl);
    ENC_ALL(c, u32m4, vl);
    __riscv_vse32_v_u32m4(p, __riscv_vxor_vv_u32m4(__riscv_vle32_v_u32m4(p, vl), c, vl), vl);
    p += vl;
    left -= vl;
    b += vl / 4;
  }
  if (len % 16) { /* the last partial block: one counter block, XOR byte by byte */
    uint32_t cb[4] __attribute__((aligned(16))) = {j0[0], j0[1], j0[2], 0};
    uint32_t n = 2 + full;
    cb[3] = (n >> 24) | ((n >> 8) & 0xff00u) | ((n & 0xff00u) << 8) | (n << 24);
    vuint32m1_t c = __riscv_vle32_v_u32m1(cb, 4);
    ENC_ALL(c, u32m1, 4);
    __riscv_vse32_v_u32m1(cb, c, 4);
    for (uint32_t i = 0; i < len % 16; ++i) data[16 * full + i] ^= ((uint8_t*)cb)[i];
  }
  vuint32m1_t y = __riscv_vmv_v_x_u32m1(0, 4);
  y = ghash_zvk(y, h, aad, aad_len);
  y = ghash_zvk(y, h, data, len);
  uint8_t lens[16] __attribute__((aligned(16)));
  put_be64(lens, (uint64_t)aad_len * 8);
  put_be64(lens + 8, (uint64_t)len * 8);
  y = __riscv_vghsh_vv_u32m1(y, h, __riscv_vle32_v_u32m1((const zvk_u32*)lens, 4), 4);
  vuint32m1_t e = __riscv_vle32_v_u32m1(j0, 4);
  ENC_ALL(e, u32m1, 4);
  __riscv_vse32_v_u32m1((zvk_u32*)tag, __riscv_vxor_vv_u32m1(y, e, 4), 4);
}

#endif

int main(void) {
  static uint8_t hdr[8 + AES_KEY_BYTES + 12] __attribute__((aligned(16)));
  ca_read_exact(hdr, sizeof hdr);
  uint32_t aad_len = ca_load_le32(hdr), len = ca_load_le32(hdr + 4);
  const uint8_t* key = hdr + 8;
  const uint8_t* iv = hdr + 8 + AES_KEY_BYTES;
  uint8_t* aad = ca_heap(0, aad_len);
  uint8_t* data = ca_heap((size_t)aad_len, (uint64_t)len + 16);
  ca_read_exact(aad, aad_len);
  ca_read_exact(data, len);
  static uint8_t tag[16] __attribute__((aligned(16)));
  ca_region_t region;
  CA_REGION_BEGIN(region);
  gcm_encrypt(key, iv, aad, aad_len, data, len, tag);
  CA_REGION_END(region);
  ca_write_all(1, data, len);
  ca_write_all(1, tag, 16);
  ca_region_report(&region);
  return 0;
}
