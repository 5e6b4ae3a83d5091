/* AES kernels (rv/kernels/README.md has the I/O layouts). Built once per variant, key size and kernel:
 *   -DAES_KEYBITS=128|256
 *   -DKERNEL_AES_CIPHER        ECB/CBC/CTR encrypt or decrypt of n blocks; the key schedule is expanded before the
 *                              measured region, which covers the mode over all blocks
 *   -DKERNEL_AES_KEYEXP_ENC    key -> encryption key schedule (measured)
 *   -DKERNEL_AES_KEYEXP_DEC    key -> decryption key schedule of the equivalent inverse cipher (measured)
 * and one of the VARIANT_* macros of common/variant.h. */
#include "../common/variant.h"
#include "../platform/io.h"
#include "../platform/region.h"
#include "aes_common.h"

#if defined(VARIANT_REFERENCE)
#include "aes_ref.h"
#elif defined(VARIANT_ZVK)
#include "aes_zvk.h"
#elif defined(VARIANT_SOFTWARE_NAIVE)
#include "aes_naive.h"
#elif defined(VARIANT_SOFTWARE_TABLE) || defined(VARIANT_HYBRID)
#include "aes_table.h"
#elif __riscv_xlen == 32
#include "aes_native32.h"
#else
#include "aes_native64.h"
#endif

#if (defined(KERNEL_AES_CIPHER) + defined(KERNEL_AES_KEYEXP_ENC) + defined(KERNEL_AES_KEYEXP_DEC)) != 1
#error "define exactly one of KERNEL_AES_CIPHER, KERNEL_AES_KEYEXP_ENC, KERNEL_AES_KEYEXP_DEC"
#endif

static uint8_t schedule[AES_SCHEDULE_BYTES] __attribute__((aligned(16)));

#if defined(KERNEL_AES_CIPHER)

enum { MODE_ECB = 0, MODE_CBC = 1, MODE_CTR = 2 };
#define WORDS (16 / sizeof(uintptr_t)) /* machine words per block */

static inline void xor_block(uint8_t* dst, const uint8_t* a, const uint8_t* b) {
  for (unsigned i = 0; i < WORDS; ++i) ((ca_uxa*)dst)[i] = ((const ca_uxa*)a)[i] ^ ((const ca_uxa*)b)[i];
}

static inline void copy_block(uint8_t* dst, const uint8_t* src) {
  for (unsigned i = 0; i < WORDS; ++i) ((ca_uxa*)dst)[i] = ((const ca_uxa*)src)[i];
}

#if defined(AES_HAVE_ECB_MANY) /* the variant processes many blocks per instruction (zvk) */
static void ecb_encrypt(uint8_t* data, uint32_t n) { aes_ecb_encrypt_many(schedule, data, n); }
static void ecb_decrypt(uint8_t* data, uint32_t n) { aes_ecb_decrypt_many(schedule, data, n); }
#else
static void ecb_encrypt(uint8_t* data, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) aes_encrypt_block(schedule, data + 16 * i, data + 16 * i);
}

static void ecb_decrypt(uint8_t* data, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) aes_decrypt_block(schedule, data + 16 * i, data + 16 * i);
}
#endif

static void cbc_encrypt(uint8_t* data, uint32_t n, const uint8_t* iv) {
  const uint8_t* prev = iv;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* b = data + 16 * i;
    xor_block(b, b, prev);
    aes_encrypt_block(schedule, b, b);
    prev = b;
  }
}

static void cbc_decrypt(uint8_t* data, uint32_t n, const uint8_t* iv) {
  uint8_t prev[16] __attribute__((aligned(16))), cur[16] __attribute__((aligned(16)));
  copy_block(prev, iv);
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* b = data + 16 * i;
    copy_block(cur, b);
    aes_decrypt_block(schedule, b, b);
    xor_block(b, b, prev);
    copy_block(prev, cur);
  }
}

/* CTR as SP 800-38A and `cryptography`: the IV is a 128-bit big-endian counter incremented per block (mod 2^128). */
static void ctr_crypt(uint8_t* data, uint32_t n, const uint8_t* iv) {
  uint64_t hi = ca_bswap64(((const ca_u64a*)iv)[0]), lo = ca_bswap64(((const ca_u64a*)iv)[1]);
  uint8_t ctr[16] __attribute__((aligned(16))), ks[16] __attribute__((aligned(16)));
  for (uint32_t i = 0; i < n; ++i) {
    ((ca_u64a*)ctr)[0] = ca_bswap64(hi);
    ((ca_u64a*)ctr)[1] = ca_bswap64(lo);
    aes_encrypt_block(schedule, ctr, ks);
    uint8_t* b = data + 16 * i;
    xor_block(b, b, ks);
    lo += 1;
    hi += (lo == 0);
  }
}

int main(void) {
  /* mode u8, direction u8, reserved u16, nblocks u32 LE, key, iv[16] */
  static uint8_t hdr[8 + AES_KEY_BYTES + 16] __attribute__((aligned(16)));
  ca_read_exact(hdr, sizeof hdr);
  unsigned mode = hdr[0], decrypt = hdr[1];
  uint32_t n = ca_load_le32(hdr + 4);
  const uint8_t* key = hdr + 8;
  const uint8_t* iv = hdr + 8 + AES_KEY_BYTES;
  if (mode > MODE_CTR || decrypt > 1 || hdr[2] || hdr[3]) {
    ca_write_str(2, "aes: bad header (mode 0..2, direction 0..1, reserved 0)\n");
    return CA_EXIT_BAD_INPUT;
  }
  uint8_t* data = ca_heap(0, (uint64_t)n * 16); /* exits unless all blocks fit in RAM */
  ca_read_exact(data, (size_t)n * 16);
  aes_init();
  if (decrypt && mode != MODE_CTR)
    aes_expand_dec(key, schedule);
  else
    aes_expand_enc(key, schedule);

  ca_region_t region;
  CA_REGION_BEGIN(region);
  if (mode == MODE_ECB) {
    if (decrypt)
      ecb_decrypt(data, n);
    else
      ecb_encrypt(data, n);
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

#else /* key expansion kernels */

int main(void) {
  static uint8_t key[AES_KEY_BYTES] __attribute__((aligned(16)));
  ca_read_exact(key, sizeof key);
  aes_init();
  ca_region_t region;
  CA_REGION_BEGIN(region);
#if defined(KERNEL_AES_KEYEXP_ENC)
  aes_expand_enc(key, schedule);
#else
  aes_expand_dec(key, schedule);
#endif
  CA_REGION_END(region);
  ca_write_all(1, schedule, sizeof schedule);
  ca_region_report(&region);
  return 0;
}

#endif
