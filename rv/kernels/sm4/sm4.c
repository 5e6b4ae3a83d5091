/* SM4 kernel (rv/kernels/README.md): the "block-cipher" layout of the AES kernels (mode ECB/CBC/CTR, direction,
 * nblocks, key, iv, data); the key schedule is expanded before the measured region, which covers the mode over all
 * blocks. Variants: reference (constant-time C, sm4_ref.h) and zvk (Zvksed, sm4_zvk.h). */
#include "../common/variant.h"
#include "../platform/io.h"
#include "../platform/region.h"
#include "sm4_common.h"

#if defined(VARIANT_REFERENCE)
#include "sm4_ref.h"
#elif defined(VARIANT_ZVK)
#include "sm4_zvk.h"
#else
#error "the SM4 kernel has the reference and zvk variants"
#endif

enum { MODE_ECB = 0, MODE_CBC = 1, MODE_CTR = 2 };

static uint8_t ks_enc[SM4_SCHEDULE_BYTES] __attribute__((aligned(16)));
static uint8_t ks_dec[SM4_SCHEDULE_BYTES] __attribute__((aligned(16)));

static inline void xor_block(uint8_t* dst, const uint8_t* a, const uint8_t* b) {
  for (unsigned i = 0; i < 16 / sizeof(uintptr_t); ++i) ((ca_uxa*)dst)[i] = ((const ca_uxa*)a)[i] ^ ((const ca_uxa*)b)[i];
}

static void ecb(const uint8_t* ks, uint8_t* data, uint32_t n) {
#if defined(SM4_HAVE_ECB_MANY)
  sm4_ecb_many(ks, data, n);
#else
  for (uint32_t i = 0; i < n; ++i) sm4_block(ks, data + 16 * i, data + 16 * i);
#endif
}

static void cbc_encrypt(uint8_t* data, uint32_t n, const uint8_t* iv) {
  const uint8_t* prev = iv;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* b = data + 16 * i;
    xor_block(b, b, prev);
    sm4_block(ks_enc, b, b);
    prev = b;
  }
}

static void cbc_decrypt(uint8_t* data, uint32_t n, const uint8_t* iv) {
  uint8_t prev[16] __attribute__((aligned(16))), cur[16] __attribute__((aligned(16)));
  xor_block(prev, iv, (const uint8_t[16]){0});
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* b = data + 16 * i;
    xor_block(cur, b, (const uint8_t[16]){0});
    sm4_block(ks_dec, b, b);
    xor_block(b, b, prev);
    xor_block(prev, cur, (const uint8_t[16]){0});
  }
}

/* CTR: the IV is a 128-bit big-endian counter incremented per block (mod 2^128), as the AES kernels. */
static void ctr_crypt(uint8_t* data, uint32_t n, const uint8_t* iv) {
  uint8_t ctr[16] __attribute__((aligned(16))), ks[16] __attribute__((aligned(16)));
  for (unsigned j = 0; j < 16; ++j) ctr[j] = iv[j];
  for (uint32_t i = 0; i < n; ++i) {
    sm4_block(ks_enc, ctr, ks);
    uint8_t* b = data + 16 * i;
    xor_block(b, b, ks);
    unsigned carry = 1;
    for (unsigned j = 16; j-- > 0;) {
      unsigned v = ctr[j] + carry;
      ctr[j] = (uint8_t)v;
      carry = v >> 8;
    }
  }
}

int main(void) {
  static uint8_t hdr[8 + 16 + 16] __attribute__((aligned(16)));
  ca_read_exact(hdr, sizeof hdr);
  unsigned mode = hdr[0], decrypt = hdr[1];
  uint32_t n = ca_load_le32(hdr + 4);
  const uint8_t* key = hdr + 8;
  const uint8_t* iv = hdr + 24;
  if (mode > MODE_CTR || decrypt > 1 || hdr[2] || hdr[3]) {
    ca_write_str(2, "sm4: bad header (mode 0..2, direction 0..1, reserved 0)\n");
    return CA_EXIT_BAD_INPUT;
  }
  uint8_t* data = ca_heap(0, (uint64_t)n * 16);
  ca_read_exact(data, (size_t)n * 16);
  sm4_expand(key, ks_enc, ks_dec);
  /* The ECB schedule is chosen before the region; the empty asm keeps the compiler from sinking the choice into the
   * loads of the round keys (a branch per load). */
  const uint8_t* ecb_ks = decrypt ? ks_dec : ks_enc;
  __asm__("" : "+r"(ecb_ks));

  ca_region_t region;
  CA_REGION_BEGIN(region);
  if (mode == MODE_ECB) {
    ecb(ecb_ks, data, n);
  } else if (mode == MODE_CBC) {
    if (decrypt)
      cbc_decrypt(data, n, iv);
    else
      cbc_encrypt(data, n, iv);
  } else {
    ctr_crypt(data, n, iv);
  }
  CA_REGION_END(region);

  ca_write_all(1, data, (size_t)n * 16);
  ca_region_report(&region);
  return 0;
}
