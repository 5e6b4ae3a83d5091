/* native AES on RV32 with Zkne/Zknd: aes32esmi/aes32esi for the rounds (four per column, each taking one byte of a
 * source column: ShiftRows by the choice of source, MixColumns by the rotation the instruction applies), aes32dsmi/
 * aes32dsi for the equivalent inverse cipher. Key expansion (seed 000, 4.3): SubWord as four aes32esi, RotWord as a
 * rotate; InvMixColumns of the decryption round keys as four aes32esi (SubBytes) undone by four aes32dsmi. */
#ifndef CA_RV_AES_NATIVE32_H
#define CA_RV_AES_NATIVE32_H

#include "aes_common.h"

#if __riscv_xlen != 32 || !defined(__riscv_zkne) || !defined(__riscv_zknd)
#error "aes_native32.h needs RV32 with Zkne and Zknd"
#endif

AES_API void aes_init(void) {}

static inline uint32_t aes_sub_word(uint32_t w) {
  uint32_t t = 0;
  t = __riscv_aes32esi(t, w, 0);
  t = __riscv_aes32esi(t, w, 1);
  t = __riscv_aes32esi(t, w, 2);
  t = __riscv_aes32esi(t, w, 3);
  return t;
}

AES_API void aes_expand_enc(const uint8_t* key, uint8_t* ks) {
  uint32_t* w = (uint32_t*)(ca_u32a*)ks;
  const ca_u32a* k = (const ca_u32a*)key;
  for (unsigned i = 0; i < AES_NK; ++i) w[i] = k[i];
  for (unsigned i = AES_NK; i < 4 * (AES_NR + 1); ++i) {
    uint32_t t = w[i - 1];
    if (i % AES_NK == 0)
      t = aes_sub_word(ca_ror32(t, 8)) ^ aes_rcon[i / AES_NK - 1];
    else if (AES_NK > 6 && i % AES_NK == 4)
      t = aes_sub_word(t);
    w[i] = w[i - AES_NK] ^ t;
  }
}

static inline uint32_t aes_inv_mix_column(uint32_t w) {
  uint32_t s = aes_sub_word(w), t = 0;
  t = __riscv_aes32dsmi(t, s, 0);
  t = __riscv_aes32dsmi(t, s, 1);
  t = __riscv_aes32dsmi(t, s, 2);
  t = __riscv_aes32dsmi(t, s, 3);
  return t;
}

AES_API void aes_expand_dec(const uint8_t* key, uint8_t* ks) {
  aes_expand_enc(key, ks);
  uint32_t* w = (uint32_t*)(ca_u32a*)ks;
  for (unsigned i = 4; i < 4 * AES_NR; ++i) w[i] = aes_inv_mix_column(w[i]);
}

/* One column of an encryption round: dst = k ^ f(a, 0) ^ f(b, 1) ^ f(c, 2) ^ f(d, 3). */
#define AES32_COL(f, k, a, b, c, d) f(f(f(f((k), (a), 0), (b), 1), (c), 2), (d), 3)

AES_API void aes_encrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  const ca_u32a* rk = (const ca_u32a*)ks;
  const ca_u32a* src = (const ca_u32a*)in;
  uint32_t s0 = src[0] ^ rk[0], s1 = src[1] ^ rk[1], s2 = src[2] ^ rk[2], s3 = src[3] ^ rk[3];
  for (unsigned r = 1; r < AES_NR; ++r) {
    rk += 4;
    uint32_t t0 = AES32_COL(__riscv_aes32esmi, rk[0], s0, s1, s2, s3);
    uint32_t t1 = AES32_COL(__riscv_aes32esmi, rk[1], s1, s2, s3, s0);
    uint32_t t2 = AES32_COL(__riscv_aes32esmi, rk[2], s2, s3, s0, s1);
    uint32_t t3 = AES32_COL(__riscv_aes32esmi, rk[3], s3, s0, s1, s2);
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  rk += 4;
  ca_u32a* dst = (ca_u32a*)out;
  dst[0] = AES32_COL(__riscv_aes32esi, rk[0], s0, s1, s2, s3);
  dst[1] = AES32_COL(__riscv_aes32esi, rk[1], s1, s2, s3, s0);
  dst[2] = AES32_COL(__riscv_aes32esi, rk[2], s2, s3, s0, s1);
  dst[3] = AES32_COL(__riscv_aes32esi, rk[3], s3, s0, s1, s2);
}

AES_API void aes_decrypt_block(const uint8_t* ks, const uint8_t* in, uint8_t* out) {
  const ca_u32a* rk = (const ca_u32a*)ks + 4 * AES_NR;
  const ca_u32a* src = (const ca_u32a*)in;
  uint32_t s0 = src[0] ^ rk[0], s1 = src[1] ^ rk[1], s2 = src[2] ^ rk[2], s3 = src[3] ^ rk[3];
  for (unsigned r = 1; r < AES_NR; ++r) {
    rk -= 4;
    uint32_t t0 = AES32_COL(__riscv_aes32dsmi, rk[0], s0, s3, s2, s1);
    uint32_t t1 = AES32_COL(__riscv_aes32dsmi, rk[1], s1, s0, s3, s2);
    uint32_t t2 = AES32_COL(__riscv_aes32dsmi, rk[2], s2, s1, s0, s3);
    uint32_t t3 = AES32_COL(__riscv_aes32dsmi, rk[3], s3, s2, s1, s0);
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  rk -= 4;
  ca_u32a* dst = (ca_u32a*)out;
  dst[0] = AES32_COL(__riscv_aes32dsi, rk[0], s0, s3, s2, s1);
  dst[1] = AES32_COL(__riscv_aes32dsi, rk[1], s1, s0, s3, s2);
  dst[2] = AES32_COL(__riscv_aes32dsi, rk[2], s2, s1, s0, s3);
  dst[3] = AES32_COL(__riscv_aes32dsi, rk[3], s3, s2, s1, s0);
}

#endif
